// Regenerates a measured table of docs/measure.md and its summary in README.md (between the
// measure-table markers of the core it predicts, `measure-table ZEN4:begin`, so that each host's
// table keeps its own provenance): every corpus kernel's marked loop (gcc -O2, sse2 build) and
// the thesis examples of examples/bin, run on this machine with `uopscope measure`, beside
// uopscope's predictions (SUACA's model, the refined model, and the refined model with each
// mechanism off in turn, all without the figures uopscope measured on this host: --no-measured;
// and the refined model with them, with how many of the loop's lines they give figures to) and
// llvm-mca-19's (Total Cycles / Iterations, -iterations=200, the same instructions) for the host's
// core, with each tool's mean absolute percentage error over the measurable loops and, loop by
// loop, whether the measured figures beat llvm-mca-19; and the Zen 4 micro-loops of
// test/fixtures/zen4-micro in a table of their own (not in the error figures). The text is
// tableText.ts's. Each measurement is gated on the contention canary (bench/measure/canary.ts):
// one whose canary before or after is above the gate is retried.
//
//   taskset -c 1 node --import tsx tools/measure/table.ts [--arch A]   (nothing else timed on CPU 1)
//
// --arch: predict for A instead of the host's core (the table says which).
// --rows SAVED.json: write the sections again from a saved run, without measuring.
// --predict SAVED.json: a saved run's measurements with uopscope's predictions made again (after a
//   change of the data, such as a new measured file, or of the model): nothing is timed, so it
//   needs no CPU of its own.
// Takes several minutes (each loop is measured with 200 repetitions). Pin it to a CPU nothing
// else runs on.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, type MeasureResult } from '../../src/cli/commands/measureRun.js';
import { buildReport } from '../../src/cli/commands/reportRun.js';
import { nothingSimulated } from '../../src/report/model.js';
import { branchPaths, loadRegion } from '../../src/disasm/index.js';
import { listMachines } from '../../src/data/machines.js';
import { UserError } from '../../src/errors.js';
import { listDataSources } from '../../src/data/sources.js';
import { MECHANISM_INFO, type MechanismInfo } from '../../src/sim/mechanisms.js';
import type { DecodedInstruction } from '../../src/disasm/types.js';
import { canary, quiet } from '../../bench/measure/canary.js';
import { ATTEMPTS, REPS, tableSections, type MeasuredFileInfo, type Row, type Run } from './tableText.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOC = join(ROOT, 'docs', 'measure.md');
const README = join(ROOT, 'README.md');
/** one marked section per predicted core: a host's table never overwrites another host's */
const BEGIN = (arch: string) => `<!-- measure-table ${arch}:begin (tools/measure/table.ts writes this part) -->`;
const END = (arch: string) => `<!-- measure-table ${arch}:end -->`;
const MCA = 'llvm-mca-19';

/** uopscope architecture → LLVM 19 -mcpu (the machine record's identity.llvmCpu). */
const llvmCpu = (arch: string): string | undefined => listMachines().find((m) => m.arch === arch)?.identity?.llvmCpu;

type Side = 'main' | 'left' | 'right';
type Prediction = Record<Side, number | null> & { measuredLines: Set<number> };

/** uopscope's prediction for a region and core: the whole region and, when it has a branch
 *  inside, each side; without the figures measured here unless `measured`, and the lines that
 *  took their figures from them. */
async function prediction(
  file: string,
  arch: string,
  opts: { model?: 'suaca' | 'refined'; off?: MechanismInfo; measured?: boolean } = {},
): Promise<Prediction> {
  const { model: name = 'refined', off, measured = false } = opts;
  const { model, analysis } = await buildReport(
    { file },
    {
      fast: true,
      model: name,
      branch: true,
      arch,
      ...(off ? { [off.flag]: false } : {}),
      ...(measured ? {} : { measured: false }),
    },
  );
  const none = nothingSimulated(model);
  return {
    main: none ? null : model.main.stats.blockThroughput,
    left: none || !model.branch ? null : model.branch.left.stats.blockThroughput,
    right: none || !model.branch ? null : model.branch.right.stats.blockThroughput,
    measuredLines: new Set(analysis.resolved.filter((r) => r.origin === 'measured').map((r) => r.line)),
  };
}

/** Every prediction of a region's row: SUACA's model and the refined one without the figures
 *  measured here (as `measure` and `report --no-measured` give them), the refined model with them,
 *  and the refined model with each mechanism off in turn (what each one adds to the error). */
interface Predictions {
  suaca: Prediction;
  refined: Prediction;
  here: Prediction;
  without: Map<string, Prediction>;
  /** the lines of the region and of each side of a branch inside */
  lines: Record<Side, number[]>;
}

async function predictions(file: string, arch: string): Promise<Predictions> {
  const instrs = (await loadRegion({ file })).instructions;
  const paths = branchPaths(instrs);
  const without = new Map<string, Prediction>();
  for (const info of MECHANISM_INFO) without.set(info.id, await prediction(file, arch, { off: info }));
  return {
    suaca: await prediction(file, arch, { model: 'suaca' }),
    refined: await prediction(file, arch),
    here: await prediction(file, arch, { measured: true }),
    without,
    lines: { main: instrs.map((i) => i.line), left: paths?.left ?? [], right: paths?.right ?? [] },
  };
}

/** A row's predictions for the region (`main`) or one side of its branch. */
function fillPredictions(row: Row, p: Predictions, side: Side): void {
  row.uopscope = p.suaca[side];
  row.refined = p.refined[side];
  row.measuredHere = p.here[side];
  const lines = p.lines[side];
  row.linesMeasured = [lines.filter((l) => p.here.measuredLines.has(l)).length, lines.length];
  row.without = Object.fromEntries([...p.without].map(([id, r]) => [id, r[side]]));
}

/** The side a row of a branch's side is of, by its name ('binary_search (taken)'). */
const sideOf = (name: string): Side =>
  / \(taken\)$/.test(name) ? 'right' : / \(fall-through\)$/.test(name) ? 'left' : 'main';

/** The measured files of a core as `data list` has them: path, what they were measured on, forms
 *  used and failed. */
function measuredFiles(arch: string): MeasuredFileInfo[] {
  return listDataSources()
    .filter((r) => r.arch === arch && r.origin === 'measured')
    .map((r) => ({
      path: r.path.startsWith(ROOT) ? r.path.slice(ROOT.length) : r.path,
      on: `${String(r.provenance?.cpu ?? '?')}, microcode ${String(r.provenance?.microcode ?? '?')}, ${(r.date ?? '?').slice(0, 10)}`,
      forms: r.forms,
      failed: r.unused ?? 0,
    }));
}

/** llvm-mca-19's cycles per iteration for the region's instructions (closing branch to a label). */
function mcaCycles(instrs: readonly DecodedInstruction[], cpu: string, dir: string): number | null {
  const lines = instrs.map((i, k) => (i.branch && k === instrs.length - 1 ? `${i.att.split(/\s+/)[0]} .Ltop` : i.att));
  const file = join(dir, 'region.s');
  writeFileSync(file, `.Ltop:\n${lines.join('\n')}\n`);
  const r = spawnSync(MCA, [`-mcpu=${cpu}`, '-iterations=200', file], { encoding: 'utf8' });
  if (r.status !== 0) return null;
  const cycles = /Total Cycles:\s+(\d+)/.exec(r.stdout);
  const its = /Iterations:\s+(\d+)/.exec(r.stdout);
  return cycles && its ? Number(cycles[1]) / Number(its[1]) : null;
}

const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

/** `uopscope measure` of one file between two canaries, retried (2 s apart) while a canary is
 *  above the gate; after ATTEMPTS the last measurement is kept and its canaries say so. */
async function gatedMeasure(
  file: string,
  archFlag: string | undefined,
): Promise<{ m: MeasureResult; canary: [number, number]; dropped: number }> {
  for (let dropped = 0; ; dropped++) {
    const before = canary(REPS);
    const m = await measure(
      { file },
      { repetitions: REPS, model: 'suaca', measured: false, ...(archFlag ? { arch: archFlag } : {}) },
    );
    const after = canary(REPS);
    if (quiet(before, after) || dropped === ATTEMPTS - 1) return { m, canary: [before, after], dropped };
    await sleep(2000);
  }
}

/** The machine line: CPU string, CPUID, microcode, hypervisor, CPUs, the CPUs this run may use. */
function machine(host: MeasureResult['host']): string {
  const info = readFileSync('/proc/cpuinfo', 'utf8');
  const microcode = /^microcode\s*:\s*(\S+)/m.exec(info)?.[1];
  const virt = spawnSync('systemd-detect-virt', ['--vm'], { encoding: 'utf8' }).stdout?.trim();
  const guest = virt && virt !== 'none' ? `a ${virt.toUpperCase()} guest` : host?.virtual ? 'a virtual machine' : '';
  const allowed = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return [
    host ? `${host.modelName} (${host.cpuid})` : 'an unknown host',
    microcode ? `microcode ${microcode}` : 'microcode not shown',
    guest,
    `${cpus().length} vCPUs, run pinned to CPU ${allowed ?? '?'}`,
  ]
    .filter(Boolean)
    .join(', ');
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const flag = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const archFlag = flag('--arch');
  const saved = flag('--rows');
  const again = flag('--predict');
  const given = [archFlag, saved, again].filter((x) => x !== undefined).length;
  if (argv.length !== 2 * given || given > 1) {
    process.stderr.write(
      'usage: node --import tsx tools/measure/table.ts [--arch A | --rows SAVED.json | --predict SAVED.json]\n',
    );
    process.exit(2);
  }
  if (saved) {
    render(readRun(saved));
    return;
  }
  if (again) {
    const run = await predictAgain(readRun(again));
    keepRun(run);
    render(run);
    return;
  }
  const kernels = [
    ...new Set(readdirSync(join(ROOT, 'examples/corpus/bin')).filter((f) => f.endsWith('.gcc.O2.sse2.o'))),
  ].sort();
  const microFiles = readdirSync(join(ROOT, 'test/fixtures/zen4-micro'))
    .filter((f) => f.endsWith('.o'))
    .sort();
  const inputs: { name: string; file: string; micro?: boolean }[] = [
    ...['adc-chain', 'six-mov', 'stencil', 'branch', 'mca-markers'].map((n) => ({
      name: n,
      file: `examples/bin/${n}`,
    })),
    ...kernels.map((f) => ({ name: f.replace('.gcc.O2.sse2.o', ''), file: `examples/corpus/bin/${f}` })),
    ...microFiles.map((f) => ({ name: f.replace(/\.o$/, ''), file: `test/fixtures/zen4-micro/${f}`, micro: true })),
  ];
  const started = new Date();
  const loadStart = loadavg();
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-table-'));
  const rows: Row[] = [];
  let host: MeasureResult['host'] = null;
  let arch = '';
  try {
    for (const { name, file, micro: isMicro } of inputs) {
      const row: Row = { name, file, ...(isMicro ? { micro: true } : {}) };
      rows.push(row);
      try {
        const gated = await gatedMeasure(join(ROOT, file), archFlag);
        const m = gated.m;
        row.canary = gated.canary;
        row.dropped = gated.dropped;
        host = m.host;
        arch = m.prediction.arch;
        const p = await predictions(join(ROOT, file), arch);
        const cpu = llvmCpu(arch);
        const instrs = (await loadRegion({ file: join(ROOT, file) })).instructions;
        if (m.measurement) {
          const v = m.measurement[m.measurement.comparable];
          row.measured = v.cyclesPerIteration;
          row.variant = m.measurement.comparable;
          row.spread = v.spread;
          fillPredictions(row, p, 'main');
          row.mca = cpu ? mcaCycles(instrs, cpu, dir) : null;
        } else if (m.branch) {
          // a branch inside: one row per side (the side's lines as straight-line code; llvm-mca
          // gets the same lines, the closing branch kept as the loop's)
          rows.pop();
          for (const s of m.branch.sides) {
            const side: Row = { name: `${name} (${s.side})`, file, canary: gated.canary, dropped: gated.dropped };
            rows.push(side);
            if (!s.measurement) {
              side.why = s.reason!.replace(/^not measurable: /, '');
              continue;
            }
            const v = s.measurement[s.measurement.comparable];
            side.measured = v.cyclesPerIteration;
            side.variant = s.measurement.comparable;
            side.spread = v.spread;
            fillPredictions(side, p, s.side === 'taken' ? 'right' : 'left');
            const keep = new Set(s.measurement.lines);
            if (s.measurement.closingBranchRemoved !== null) keep.add(s.measurement.closingBranchRemoved);
            side.mca = cpu
              ? mcaCycles(
                  s.lines.filter((l) => keep.has(l)).map((l) => instrs[l]!),
                  cpu,
                  dir,
                )
              : null;
            process.stderr.write(
              `${side.name}: ${side.why ?? `${side.measured?.toFixed(2)} measured, ${side.uopscope?.toFixed(2)} suaca, ${side.refined?.toFixed(2)} refined, ${side.measuredHere?.toFixed(2)} measured here, ${side.mca?.toFixed(2)} llvm-mca`}\n`,
            );
          }
          continue;
        } else {
          row.why = m.reason!.replace(/^not measurable: /, '');
        }
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        row.why = e.message.replace(/^.*?not measurable: /, '');
      }
      process.stderr.write(
        `${name}: ${row.why ?? `${row.measured?.toFixed(2)} measured, ${row.uopscope?.toFixed(2)} suaca, ${row.refined?.toFixed(2)} refined, ${row.measuredHere?.toFixed(2)} measured here, ${row.mca?.toFixed(2)} llvm-mca`}\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const run: Run = {
    rows,
    arch,
    archFlag: archFlag ?? null,
    hostWhy: host?.why ?? null,
    hostName: host ? `${host.modelName} (${host.cpuid})` : null,
    machine: machine(host),
    started: started.toISOString(),
    loadStart,
    loadEnd: loadavg(),
    measuredFiles: arch ? measuredFiles(arch) : [],
    command: `taskset -c ${/^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '?'} node --import tsx tools/measure/table.ts${archFlag ? ` --arch ${archFlag}` : ''}`,
  };
  keepRun(run);
  render(run);
}

/** Keeps a run, so that the tables can be written again without measuring (--rows, --predict). */
function keepRun(run: Run): void {
  const when = (run.predicted ?? run.started).replace(/[:.]/g, '-');
  const keep = join(tmpdir(), `uopscope-table-${run.arch}-${when}${run.predicted ? '-predicted' : ''}.json`);
  writeFileSync(keep, JSON.stringify(run));
  process.stderr.write(`the run is kept in ${keep}\n`);
}

function readRun(file: string): Run {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Run;
  } catch (e) {
    throw new UserError(`${file}: not a saved run of tools/measure/table.ts (${(e as Error).message})`);
  }
}

/** A saved run's measurements (cycles, canaries, llvm-mca's figures) with every prediction of
 *  uopscope made again, as the code and data are now: nothing is timed. */
async function predictAgain(run: Run): Promise<Run> {
  const cache = new Map<string, Predictions>();
  for (const row of run.rows) {
    if (row.why !== undefined || row.measured === undefined) continue;
    const file = join(ROOT, row.file);
    let p = cache.get(file);
    if (!p) {
      p = await predictions(file, run.arch);
      cache.set(file, p);
    }
    fillPredictions(row, p, sideOf(row.name));
    process.stderr.write(
      `${row.name}: ${row.measured.toFixed(2)} measured, ${row.refined?.toFixed(2)} refined, ${row.measuredHere?.toFixed(2)} measured here (${row.linesMeasured?.join(' of ')} lines), ${row.mca?.toFixed(2)} llvm-mca\n`,
    );
  }
  return { ...run, predicted: new Date().toISOString(), measuredFiles: measuredFiles(run.arch) };
}

/** Writes the run's tables into docs/measure.md and README.md, between the core's markers. */
function render(run: Run): void {
  const { arch } = run;
  const mcaVersion =
    spawnSync(MCA, ['--version'], { encoding: 'utf8' }).stdout.match(/LLVM version [\d.]+/)?.[0] ?? MCA;
  const { doc, readme } = tableSections(run, { mcaVersion, llvmCpu: llvmCpu(arch) });
  const out = [BEGIN(arch), ...doc, END(arch)];
  const summary = [BEGIN(arch), ...readme, END(arch)];
  for (const [file, text] of [
    [DOC, out],
    [README, summary],
  ] as const) {
    const doc = readFileSync(file, 'utf8');
    const a = doc.indexOf(BEGIN(arch)),
      b = doc.indexOf(END(arch));
    if (a < 0 || b < a)
      throw new UserError(
        `${file} has no measure-table markers for ${arch}: add a line '${BEGIN(arch)}' and a line '${END(arch)}' where its table goes`,
      );
    writeFileSync(file, doc.slice(0, a) + text.join('\n') + doc.slice(b + END(arch).length));
    process.stderr.write(`wrote the ${arch} table into ${file}\n`);
  }
}

try {
  await main();
} catch (e) {
  if (!(e instanceof UserError)) throw e;
  process.stderr.write(`table: ${e.message}\n`);
  process.exit(2);
}
