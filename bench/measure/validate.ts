// Validates `uopscope measure` against the program itself: each kernel of bench/measure/kernels,
// built with gcc and with clang, is measured by `uopscope measure` (its hot loop, the default L1
// working set and ordinary fill) and by bench/measure/driver.c, which calls the compiled function
// over real arrays of the same data size (the lengths the layout chose, in elements), counts the
// loop's iterations exactly (a gdb breakpoint on its closing branch, at every length), times the
// harness's lengths through one call site and takes their Theil–Sen slope as the harness does
// (assets/measure/slope.h), and converts ticks to cycles with the harness's
// add-chain calibration. Both enter the loop after 12 different numbers of instructions and report
// the fastest entry (docs/measure.md, "Where the loop is entered").
// Each pair of runs is gated on a contention canary (16 independent adds: 4.00 cycles per
// iteration on an idle Zen 4 core), measured by the harness before and after.
//
//   taskset -c 1 node --import tsx bench/measure/validate.ts [--write] [--only NAME,...] [--rounds N]
//
// --write puts the table into docs/measure.md (between its measure-validation markers). Not part
// of `npm test`: timings on a shared guest are noisy. Needs gcc, gdb, and clang-19 (or clang) for
// the clang rows; a form the host cannot build or run is skipped with the reason.

import { spawnSync } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listRegions, loadInput, loadRegion } from '../../src/disasm/index.js';
import { branchPaths } from '../../src/disasm/depgraph.js';
import type { DecodedInstruction } from '../../src/disasm/types.js';
import { measure } from '../../src/cli/commands/measureRun.js';
import { fmtBytes, LOOP_LENGTHS, memoryLayout } from '../../src/measure/layout.js';
import { CANARY_GATE, CANARY_IDLE, CANARY_LOW, canary, quiet } from './canary.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = join(ROOT, 'bench', 'measure');
const DOC = join(ROOT, 'docs', 'measure.md');
const BEGIN = '<!-- measure-validation:begin (bench/measure/validate.ts writes this part) -->';
const END = '<!-- measure-validation:end -->';
const REPS = 200;
const AGREE = 0.05;

interface Kernel {
  name: string;
  file: string;
  symbol: string;
  /** bytes of each array's element, in the driver's order (the data size per run) */
  elements: number[];
  flags: string[];
  /** CPU flags the build needs (from /proc/cpuinfo) */
  needs?: string[];
}

// -fno-tree-loop-distribute-patterns and -fno-builtin: the copy stays a loop, not a memcpy call
const KERNELS: Kernel[] = [
  { name: 'copy', file: 'copy.c', symbol: 'copy', elements: [8, 8], flags: ['-O3', '-mavx2'], needs: ['avx2'] },
  { name: 'scale', file: 'scale.c', symbol: 'scale', elements: [8, 8], flags: ['-O2'] },
  { name: 'daxpy', file: 'daxpy.c', symbol: 'daxpy', elements: [8, 8], flags: ['-O2'] },
  { name: 'dot', file: 'dot.c', symbol: 'dot', elements: [8, 8], flags: ['-O2'] },
  { name: 'toupper', file: 'toupper.c', symbol: 'to_upper', elements: [1], flags: ['-O2'] },
  { name: 'histogram', file: 'histogram.c', symbol: 'histogram', elements: [0, 1], flags: ['-O2'] },
  { name: 'prefix sum', file: 'prefix_sum.c', symbol: 'prefix_sum', elements: [8, 8], flags: ['-O2'] },
  { name: 'division by an array', file: 'divide.c', symbol: 'divide', elements: [8, 8, 8], flags: ['-O2'] },
  { name: 'complex multiply', file: 'cmul.c', symbol: 'cmul', elements: [16, 16, 16], flags: ['-O2'] },
  {
    name: '512-bit daxpy',
    file: 'daxpy512.c',
    symbol: 'daxpy512',
    elements: [8, 8],
    flags: ['-O3', '-march=x86-64-v4', '-mprefer-vector-width=512'],
    needs: ['avx512f', 'avx512vl', 'avx512bw', 'avx512dq', 'avx512cd'],
  },
];

const DRIVER_KERNEL: Record<string, string> = {
  copy: 'copy',
  scale: 'scale',
  daxpy: 'daxpy',
  dot: 'dot',
  toupper: 'toupper',
  histogram: 'histogram',
  'prefix sum': 'prefix_sum',
  'division by an array': 'divide',
  'complex multiply': 'cmul',
  '512-bit daxpy': 'daxpy512',
};

interface Row {
  kernel: string;
  compiler: string;
  flags: string;
  skipped?: string;
  region?: string;
  /** a loop with a branch inside: the side measured, the one the driver's data takes */
  side?: string;
  /** the lengths timed, in elements */
  elements?: number[];
  bytes?: number;
  /** the loop's iterations at each length timed, as gdb counted them */
  iterations?: number[];
  measured?: number;
  driver?: number;
  /** every quiet round's figures (each driver round is a new process, its arrays where ASLR put them) */
  measuredRuns?: number[];
  driverRuns?: number[];
  canary?: number[];
  /** over the quiet rounds: the lowest and highest brief median of the loop's entries (the
   *  harness's lead-in, the driver's NOPs before the call), cycles per iteration */
  measuredEntries?: [number, number];
  driverEntries?: [number, number];
  dropped?: number;
  rounds?: number;
}

const run = (cmd: string, args: string[], opts: { cwd?: string; timeout?: number } = {}) =>
  spawnSync(cmd, args, { encoding: 'utf8', timeout: opts.timeout ?? 120_000, ...(opts.cwd ? { cwd: opts.cwd } : {}) });

function which(cmd: string): boolean {
  return run('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

const cpuFlags = (): Set<string> => {
  const t = readFileSync('/proc/cpuinfo', 'utf8');
  return new Set((/^flags\s*:\s*(.*)$/m.exec(t)?.[1] ?? '').split(/\s+/));
};

/** The loop's closing branch: the last conditional jump back to the region's start. */
function closingBranch(instrs: readonly DecodedInstruction[]): DecodedInstruction | undefined {
  return [...instrs]
    .reverse()
    .find((i) => i.branch?.kind === 'conditional' && i.branch.target !== null && i.branch.target <= instrs[0]!.address);
}

/** The address of a function in the linked driver. */
function symbolAddress(exe: string, symbol: string): number {
  const line = run('nm', [exe])
    .stdout.split('\n')
    .find((l) => l.endsWith(` T ${symbol}`));
  if (!line) throw new Error(`${symbol} is not in ${exe}`);
  return Number.parseInt(line.split(' ')[0]!, 16);
}

/** Times the closing branch executes in one call of the kernel at n elements (gdb). */
function count(exe: string, symbol: string, offset: number, n: number): number {
  const r = run(
    'gdb',
    [
      '-q',
      '-nx',
      '-batch',
      '-ex',
      `break *0x${(symbolAddress(exe, symbol) + offset).toString(16)}`,
      '-ex',
      'ignore 1 1000000000',
      '-ex',
      'run',
      '-ex',
      'info breakpoints',
      '--args',
      exe,
      'count',
      String(n),
    ],
    { timeout: 600_000 },
  );
  const m = /already hit (\d+) time/.exec(r.stdout);
  if (!m && /exited normally/.test(r.stdout)) return 0;
  if (!m) throw new Error(`gdb did not count the loop: ${(r.stdout + r.stderr).slice(-300)}`);
  return Number(m[1]);
}

async function validate(k: Kernel, cc: string, dir: string, rounds: number): Promise<Row> {
  const compiler = cc.startsWith('clang') ? 'clang' : 'gcc';
  // loops aligned to 64 bytes, as the harness places the body (a loop that straddles a 64-byte
  // line runs at 2 cycles per iteration on Zen 4's op cache however short it is)
  const extra =
    compiler === 'gcc'
      ? ['-fno-tree-loop-distribute-patterns', '-falign-loops=64']
      : [...(k.name === 'copy' ? ['-fno-builtin'] : []), '-falign-loops=64'];
  const flags = [...k.flags, ...extra];
  const row: Row = { kernel: k.name, compiler, flags: flags.join(' ') };
  const missing = (k.needs ?? []).filter((f) => !cpuFlags().has(f));
  if (missing.length) return { ...row, skipped: `this host's CPU lacks ${missing.join(', ')}` };
  const base = join(dir, `${k.symbol}.${compiler}`);
  const obj = `${base}.o`;
  const exe = `${base}.driver`;
  let r = run(cc, [...flags, '-c', join(HERE, 'kernels', k.file), '-o', obj]);
  if (r.status !== 0) return { ...row, skipped: `${cc} failed: ${r.stderr.split('\n')[0]}` };
  // not position-independent: gdb's breakpoint goes at the kernel's linked address
  r = run('gcc', ['-O2', '-no-pie', `-DKERNEL_${DRIVER_KERNEL[k.name]}`, join(HERE, 'driver.c'), obj, '-o', exe]);
  if (r.status !== 0) return { ...row, skipped: `the driver did not build: ${r.stderr.split('\n')[0]}` };

  // the hot loop: of the function's loops, the one whose closing branch runs most
  const input = await loadInput({ file: obj });
  const loops = listRegions(input).filter((g) => g.kind === 'loop');
  let best: { index: number; instrs: DecodedInstruction[]; hits: number; offset: number } | null = null;
  const probe = 4096;
  for (const g of loops) {
    const instrs = (await loadRegion({ file: obj, region: g.index })).instructions;
    const close = closingBranch(instrs);
    if (!close) continue;
    const hits = count(exe, k.symbol, close.address, probe);
    if (!best || hits > best.hits) best = { index: g.index, instrs, hits, offset: close.address };
  }
  if (!best || best.hits === 0) return { ...row, skipped: 'no loop of the function ran' };
  row.region = `loop ${best.index} (${best.instrs.length} instructions)`;

  // the same data size: the layout's loop lengths (iterations), in elements
  const body = best.instrs.filter((i) => !(i.branch && i.address === best!.offset));
  const layout = memoryLayout(body);
  const perIteration = probe / best.hits;
  const elements = [...new Set(layout.loop.map((n) => Math.max(1, Math.round(n * perIteration))))];
  const n2 = elements[elements.length - 1]!;
  // a loop with a branch inside: which side of its first conditional jump the driver's data
  // takes, from the hits on each side's first line (gdb), as `uopscope measure` measures each side
  let taken: 'fall-through' | 'taken' | null = null;
  const paths = branchPaths(best.instrs);
  if (paths) {
    const br = best.instrs[paths.branchLine]!;
    const first = (lines: number[]) => lines[lines.indexOf(paths.branchLine) + 1];
    const hits = (line: number | undefined) =>
      line === undefined ? 0 : count(exe, k.symbol, best!.instrs[line]!.address, probe);
    const fall = hits(first(paths.left));
    const jump = hits(first(paths.right));
    taken = jump > fall ? 'taken' : 'fall-through';
    row.side = `${taken} side of line ${paths.branchLine} (${br.intel.split(' ')[0]}), which ${Math.max(fall, jump)} of ${best.hits} iterations take`;
  }
  const iterations = elements.map((n) => count(exe, k.symbol, best!.offset, n));
  row.elements = elements;
  row.iterations = iterations;
  row.bytes = k.elements.reduce((s, e) => s + (e === 0 ? 4 * 128 : e * n2), 0);

  const measuredRuns: number[] = [];
  const driverRuns: number[] = [];
  const canaries: number[] = [];
  const measuredEntries: number[] = [];
  const driverEntries: number[] = [];
  let dropped = 0;
  for (let attempt = 0; measuredRuns.length < rounds && attempt < rounds * 4; attempt++) {
    const before = canary(REPS);
    const d = run('taskset', [
      '-c',
      '1',
      exe,
      'time',
      String(REPS),
      ...elements.map((n, i) => `${n}:${iterations[i]}`),
    ]);
    if (d.status !== 0) return { ...row, skipped: `the driver failed: ${d.stderr.split('\n')[0]}` };
    const dj = JSON.parse(d.stdout) as { ticksPerCycle: [number, number]; p10: number; entry: number[] };
    const m = await measure({ file: obj, region: best.index }, { repetitions: REPS });
    const after = canary(REPS);
    canaries.push(before, after);
    // a branch inside: the side the program's data takes (the one whose first line runs)
    const side = m.branch?.sides.find((x) => x.side === taken);
    const figure = m.measurement ?? side?.measurement;
    if (!figure) return { ...row, skipped: `uopscope measure: ${side?.reason ?? m.reason}` };
    if (!quiet(before, after)) {
      dropped++;
      await new Promise((res) => setTimeout(res, 2000));
      continue;
    }
    measuredRuns.push(figure.loop.cyclesPerIteration);
    // the driver's figures are ticks per iteration already (the slope over the counted iterations)
    const perIt = (ticks: number) => ticks / ((dj.ticksPerCycle[0] + dj.ticksPerCycle[1]) / 2);
    driverRuns.push(perIt(dj.p10));
    const e = figure.loop.entries;
    if (e) measuredEntries.push(e.lowest, e.highest);
    driverEntries.push(...dj.entry.map(perIt));
  }
  row.canary = canaries;
  row.dropped = dropped;
  row.rounds = measuredRuns.length;
  if (!measuredRuns.length)
    return { ...row, skipped: `the canary never read between ${CANARY_LOW} and ${CANARY_GATE} (contention)` };
  // the least disturbed round of each: contention on a shared core only slows a run, and the
  // canary (integer adds) does not see all of it (a load/store- or FP-bound loop's sibling)
  row.measured = Math.min(...measuredRuns);
  row.driver = Math.min(...driverRuns);
  row.measuredRuns = measuredRuns;
  row.driverRuns = driverRuns;
  const span = (xs: number[]): [number, number] | undefined =>
    xs.length ? [Math.min(...xs), Math.max(...xs)] : undefined;
  const me = span(measuredEntries);
  const de = span(driverEntries);
  if (me) row.measuredEntries = me;
  if (de) row.driverEntries = de;
  return row;
}

/** "12 lengths, 191–766" (the lengths timed, as gdb counted their iterations) */
function iterationsText(its: readonly number[]): string {
  return its.length === 2 ? `${its[0]} and ${its[1]}` : `${its.length} lengths, ${its[0]}–${its[its.length - 1]}`;
}

function table(rows: Row[], started: Date, load: [number[], number[]], dropped: number): string {
  const cpu = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.*)$/m.exec(cpu)?.[1] ?? 'unknown';
  const fam = /^cpu family\s*:\s*(\d+)$/m.exec(cpu)?.[1];
  const mod = /^model\s*:\s*(\d+)$/m.exec(cpu)?.[1];
  const vendor = /^vendor_id\s*:\s*(\S+)$/m.exec(cpu)?.[1];
  const virt = cpuFlags().has('hypervisor') ? ', a virtual machine' : '';
  const ver = (cmd: string) => run(cmd, ['--version']).stdout.split('\n')[0] ?? '';
  const out = [
    `Generated ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC by \`taskset -c 1 node --import tsx bench/measure/validate.ts --write\` on ${model} (${vendor} family ${fam} model ${mod}${virt}), ${cpus().length} vCPUs; load average ${load[0].map((x) => x.toFixed(2)).join(' ')} at the start, ${load[1].map((x) => x.toFixed(2)).join(' ')} at the end. ${ver('gcc')}; ${ver(clangName() ?? 'clang')}.`,
    '',
    `Each row: the loop's figure from \`uopscope measure\` (its "loop" variant, 10th percentile of ${REPS} repetitions) and from the driver (the compiled function over real arrays: the Theil–Sen slope of the ticks over the iterations gdb counted at each length, in cycles by the same add chain), each the lowest of the quiet rounds (in brackets: the lowest and highest round, when they differ; each driver round is a new process). Both time the same ${LOOP_LENGTHS} lengths (from a quarter of the layout's longest to the longest, in a shuffled order, every length once per repetition) through one piece of code (the harness's one code buffer, the driver's one call site), take each repetition's Theil–Sen slope (assets/measure/slope.h: the median of the slopes of all pairs of lengths) and enter the loop after 12 different numbers of instructions (the harness's lead-in, the driver's NOPs before the call; the harness each also after a front-end restart, 24 entries), each timed briefly, the fastest then with all the repetitions: a loop whose macro-ops fill whole dispatch groups keeps the phase it was entered at, which the code before it decides; the column "over the entries" gives the lowest and highest brief median of each. A round counts when the canary (16 independent adds, ${CANARY_IDLE.toFixed(2)} cycles/iteration on an idle core) measured between ${CANARY_LOW} and ${CANARY_GATE} before and after it (above: the core was shared; below: the cycle calibration ran slow, and the run reads low with it). ${dropped} round(s) were dropped for contention.`,
    '',
    '| loop | compiler, flags | data per run (longer length) | iterations counted | measure | driver | difference | agree (5 %) | over the entries: measure (24); driver (12) | canary (min–max) |',
    '|---|---|---|---:|---:|---:|---:|---|---|---|',
  ];
  for (const r of rows) {
    if (r.skipped) {
      out.push(`| ${r.kernel} | ${r.compiler} ${r.flags} | skipped: ${r.skipped} | | | | | | | |`);
      continue;
    }
    const diff = (r.measured! - r.driver!) / r.driver!;
    const range = (xs: number[]) => {
      const lo = Math.min(...xs);
      const hi = Math.max(...xs);
      return hi - lo >= 0.005 ? ` (${lo.toFixed(2)}–${hi.toFixed(2)})` : '';
    };
    const entries = (e: [number, number] | undefined) => (e ? `${e[0].toFixed(2)}–${e[1].toFixed(2)}` : '–');
    const can = r.canary!.length ? `${Math.min(...r.canary!).toFixed(2)}–${Math.max(...r.canary!).toFixed(2)}` : '';
    out.push(
      `| ${r.kernel}${r.side ? ` (${r.side})` : ''} | ${r.compiler} ${r.flags} | ${r.elements![r.elements!.length - 1]} elements, ${fmtBytes(r.bytes!)} | ${iterationsText(r.iterations!)} | ${r.measured!.toFixed(2)}${range(r.measuredRuns!)} | ${r.driver!.toFixed(2)}${range(r.driverRuns!)} | ${(diff * 100).toFixed(1)} % | ${Math.abs(diff) <= AGREE ? 'yes' : '**no**'} | ${entries(r.measuredEntries)}; ${entries(r.driverEntries)} | ${can}${r.dropped ? ` (${r.dropped} dropped)` : ''} |`,
    );
  }
  return out.join('\n');
}

function clangName(): string | null {
  return which('clang-19') ? 'clang-19' : which('clang') ? 'clang' : null;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const write = argv.includes('--write');
  const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1]!.split(',') : null;
  const rounds = argv.includes('--rounds') ? Number(argv[argv.indexOf('--rounds') + 1]) : 3;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    process.stderr.write('bench/measure/validate.ts runs on Linux x86-64 only\n');
    process.exit(2);
  }
  if (!which('gdb')) {
    process.stderr.write(
      'bench/measure/validate.ts counts loop iterations with gdb: install it (apt-get install gdb)\n',
    );
    process.exit(2);
  }
  const started = new Date();
  const load0 = loadavg();
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-validate-'));
  const rows: Row[] = [];
  const clang = clangName();
  try {
    for (const k of KERNELS) {
      if (only && !only.some((o) => k.symbol === o || k.name === o)) continue;
      for (const cc of ['gcc', clang]) {
        const row = cc
          ? await validate(k, cc, dir, rounds)
          : { kernel: k.name, compiler: 'clang', flags: k.flags.join(' '), skipped: 'no clang on this host' };
        rows.push(row);
        const d = row.skipped
          ? `skipped: ${row.skipped}`
          : `measure ${row.measuredRuns!.map((x) => x.toFixed(2)).join('/')} driver ${row.driverRuns!.map((x) => x.toFixed(2)).join('/')} (${(((row.measured! - row.driver!) / row.driver!) * 100).toFixed(1)} %), canary ${row.canary!.map((c) => c.toFixed(2)).join(' ')}`;
        process.stderr.write(`${k.name} ${row.compiler}: ${d}\n`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const text = table(
    rows,
    started,
    [load0, loadavg()],
    rows.reduce((s, r) => s + (r.dropped ?? 0), 0),
  );
  process.stdout.write(`${text}\n`);
  if (write && existsSync(DOC)) {
    const doc = readFileSync(DOC, 'utf8');
    const a = doc.indexOf(BEGIN);
    const b = doc.indexOf(END);
    if (a < 0 || b < a) throw new Error(`docs/measure.md has no ${BEGIN} … ${END} markers`);
    writeFileSync(DOC, `${doc.slice(0, a + BEGIN.length)}\n\n${text}\n\n${doc.slice(b)}`);
  }
}

await main();
