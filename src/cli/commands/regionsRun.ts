// The work of `uopscope regions` (see regions.ts for its options), loaded only when it runs.
import { withSchemaVersion } from '../../report/schemaVersion.js';
import { listRegions, loadInput } from '../../disasm/index.js';
import type { Region } from '../../disasm/index.js';
import { inputFromArgv } from '../regionOptions.js';
import { PROGRESS_DELAY_MS, progressBar } from '../progress.js';
import type { RegionsArgv } from './args.js';

export async function runRegions(args: RegionsArgv): Promise<void> {
  // the input, its bytes and the loop search's data are garbage once found() returns: only the
  // list is kept while it is printed
  const { file, format, machine, regions } = await found(args);
  if (args.json) {
    for (const piece of regionsJson(withSchemaVersion({ file, format, machine }), regions)) process.stdout.write(piece);
    return;
  }
  const head = `${file} (${format}, ${machine}): ${regions.length} region${regions.length === 1 ? '' : 's'}`;
  const none =
    regions.length === 0 ? ['  none marked and no loop found; use --function SYMBOL or --range START:END'] : [];
  writeLines([head, ...none]);
  // in pieces, not one string of the whole listing and its lines besides (libLLVM's: 126,000
  // lines, 36 million characters, two bytes each for the '–')
  for (let i = 0; i < regions.length; i += CHUNK) writeLines(regions.slice(i, i + CHUNK).map(line));
}

async function found(args: RegionsArgv): Promise<{ file: string; format: string; machine: string; regions: Region[] }> {
  const input = await loadInput(inputFromArgv(args));
  // a large library's search takes seconds: its progress on stderr (a terminal only, after 0.5 s)
  const bar = progressBar('finding loops');
  const start = Date.now();
  try {
    const regions = listRegions(input, (done, total) => {
      if (Date.now() - start >= PROGRESS_DELAY_MS) bar.update(done, total);
    });
    return { file: input.file, format: input.format, machine: input.machine, regions };
  } finally {
    bar.done();
  }
}

const CHUNK = 2048;

/**
 * `JSON.stringify({ ...head, regions }, null, 2)` and a newline, in pieces of `chunk` regions: the
 * same bytes, without one string of the whole list (a large library has 100,000 regions and more).
 */
export function* regionsJson(
  head: Record<string, string | number>,
  regions: readonly Region[],
  chunk = CHUNK,
): Generator<string> {
  const open = JSON.stringify(head, null, 2).slice(0, -2); // without its closing newline and brace
  if (regions.length === 0) {
    yield `${open},\n  "regions": []\n}\n`;
    return;
  }
  yield `${open},\n  "regions": [\n`;
  for (let i = 0; i < regions.length; i += chunk) {
    const part = regions.slice(i, i + chunk).map((r) => `    ${JSON.stringify(r, null, 2).replaceAll('\n', '\n    ')}`);
    yield `${part.join(',\n')}${i + chunk < regions.length ? ',' : ''}\n`;
  }
  yield '  ]\n}\n';
}

// a loop's name says its own size (its blocks may leave code of the range out): one size a line
const line = (r: Region) =>
  `  ${String(r.index).padStart(2)}  ${r.kind.padEnd(8)}  0x${r.start.toString(16)}–0x${r.end.toString(16)}  ${r.kind === 'loop' ? '' : `${r.end - r.start} bytes  `}${r.name}${r.section ? `  [${r.section}]` : ''}`;

function writeLines(lines: string[]): void {
  if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
}
