// The work of `uopscope regions` (see regions.ts for its options), loaded only when it runs.
import { listRegions, loadInput } from '../../disasm/index.js';
import { inputFromArgv } from '../regionOptions.js';
import { PROGRESS_DELAY_MS, progressBar } from '../progress.js';
import type { RegionsArgv } from './args.js';

export async function runRegions(args: RegionsArgv): Promise<void> {
  const input = await loadInput(inputFromArgv(args));
  // a large library's search takes seconds: its progress on stderr (a terminal only, after 0.5 s)
  const bar = progressBar('finding loops');
  const start = Date.now();
  let regions: ReturnType<typeof listRegions>;
  try {
    regions = listRegions(input, (done, total) => {
      if (Date.now() - start >= PROGRESS_DELAY_MS) bar.update(done, total);
    });
  } finally {
    bar.done();
  }
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify({ file: input.file, format: input.format, machine: input.machine, regions }, null, 2)}\n`,
    );
    return;
  }
  const out = [
    `${input.file} (${input.format}, ${input.machine}): ${regions.length} region${regions.length === 1 ? '' : 's'}`,
  ];
  if (regions.length === 0) out.push('  none marked and no loop found; use --function SYMBOL or --range START:END');
  for (const r of regions) {
    out.push(
      `  ${String(r.index).padStart(2)}  ${r.kind.padEnd(8)}  0x${r.start.toString(16)}–0x${r.end.toString(16)}  ${r.end - r.start} bytes  ${r.name}${r.section ? `  [${r.section}]` : ''}`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}
