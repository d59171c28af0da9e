// The work of `uopscope regions` (see regions.ts for its options), loaded only when it runs.
import { listRegions, loadInput } from '../../disasm/index.js';
import { inputFromArgv } from '../regionOptions.js';
import type { RegionsArgv } from './args.js';

export async function runRegions(args: RegionsArgv): Promise<void> {
  const input = await loadInput(inputFromArgv(args));
  const regions = listRegions(input);
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
