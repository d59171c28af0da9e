// Compares the JSON reports of two checkouts: every file of examples/bin and test/fixtures that
// the report reads (object files, executables, assembly) on every core the first checkout has a
// record for, the default region and options (`uopscope report FILE --arch A --json`), each
// checkout's own code and assets, in one process. Prints the counts and each difference (or
// refusal that differs); exit 1 when any differs. For a change that must leave reports as they
// were (an engine reshaping), run it against the change's parent:
//
//   node --import tsx tools/compare/reports.ts BEFORE_CHECKOUT AFTER_CHECKOUT [--arch A,B]
//
// The files are the after checkout's; a file the before checkout lacks is compared all the same
// (the reports read it by path).
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const SKIP = /\.(c|cpp|h|sh|md|json|xml|txt|py|S)$|\/README|\/build/;

function files(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir)).sort()) {
    const rel = join(dir, name);
    if (statSync(join(root, rel)).isDirectory()) out.push(...files(root, rel));
    else if (!SKIP.test(rel)) out.push(rel);
  }
  return out;
}

type Run = (input: { file: string }, a: Record<string, unknown>) => Promise<string>;

async function side(root: string): Promise<{ run: Run; archs: string[] }> {
  const report = await import(pathToFileURL(join(root, 'src/cli/commands/reportRun.ts')).href);
  const machines = await import(pathToFileURL(join(root, 'src/data/machines.ts')).href);
  return {
    run: report.runReport as Run,
    archs: (machines.listMachines() as { arch: string }[]).map((m) => m.arch),
  };
}

async function report(run: Run, file: string, arch: string): Promise<string> {
  try {
    return await run({ file }, { arch, json: true, iterations: 200 });
  } catch (e) {
    return `refused: ${(e as Error).message}`;
  }
}

const [beforeArg, afterArg, ...rest] = process.argv.slice(2);
if (!beforeArg || !afterArg || (rest.length && rest[0] !== '--arch')) {
  process.stderr.write('usage: node --import tsx tools/compare/reports.ts BEFORE AFTER [--arch A,B]\n');
  process.exit(2);
}
const before = await side(resolve(beforeArg));
const after = await side(resolve(afterArg));
const archs = rest[1] ? rest[1].split(',') : before.archs;
const inputs = [...files(resolve(afterArg), 'examples/bin'), ...files(resolve(afterArg), 'test/fixtures')];
let same = 0;
let refusedAlike = 0;
const differ: string[] = [];
for (const rel of inputs) {
  const file = join(resolve(afterArg), rel);
  for (const arch of archs) {
    const a = await report(before.run, file, arch);
    const b = await report(after.run, file, arch);
    if (a !== b) differ.push(`${rel} ${arch}: ${a.slice(0, 120)} | ${b.slice(0, 120)}`);
    else if (a.startsWith('refused: ')) refusedAlike++;
    else same++;
  }
}
process.stdout.write(
  `${inputs.length} files × ${archs.length} cores (${archs.join(' ')}): ${same} JSON reports byte-identical, ${refusedAlike} refused alike by both, ${differ.length} differ\n`,
);
for (const d of differ) process.stdout.write(`differs: ${d}\n`);
process.exit(differ.length ? 1 : 0);
