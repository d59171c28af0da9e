// The work of `uopscope data measure` (declared in data.ts): the forms of a region, or every form
// the host runs in user mode (--all), characterized on this machine (src/measure/characterize,
// docs/characterize.md) into the measured-figures file of its core.

import { readFileSync } from 'node:fs';
import { loadavg, release, type } from 'node:os';
import { join } from 'node:path';
import { UserError, printable } from '../../errors.js';
import { parseArchName } from '../../data/archName.js';
import { packageRoot } from '../../data/paths.js';
import {
  measuredFormKey,
  measuredUsage,
  measuredUsed,
  userMeasuredPath,
  type MeasuredForm,
  type MeasuredFile,
  type MeasuredProvenance,
} from '../../data/measuredFormat.js';
import type { ArchName } from '../../data/types.js';
import type { DecodedInstruction, InputOptions, RegionSelection } from '../../disasm/types.js';
import { cpuidText, hostCore, type HostCore } from '../../measure/host.js';
import { runHarness } from '../../measure/harness.js';
import { allInstructions, cpuFlags } from '../../measure/characterize/allForms.js';
import { NativeRunner } from '../../measure/characterize/nativeRunner.js';
import { formsOf, hypotheses, runSession } from '../../measure/characterize/session.js';
import type { FormResult, MachineResult } from '../../measure/characterize/types.js';
import { COUNTER } from '../../measure/characterize/x86.js';
import { analyseRegion } from '../pipeline.js';

interface DataMeasureArgs {
  all: boolean;
  core?: string;
  output?: string;
  repetitions?: number;
  runs?: number;
  cacheDir?: string;
  /** the command line as typed after `uopscope` (for the file's provenance) */
  argv: readonly string[];
  /** the whole command line instead, when not `uopscope …` (a script) */
  command?: string;
}

const quote = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

function wholeIn(v: number | undefined, lo: number, hi: number, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < lo || v > hi)
    throw new UserError(`--${name} ${printable(String(v), 20)}: give a whole number from ${lo} to ${hi}`);
  return v;
}

export async function runDataMeasure(
  input: (InputOptions & RegionSelection) | null,
  a: DataMeasureArgs,
): Promise<void> {
  if (a.all && input)
    throw new UserError("data measure: give a FILE (its region's forms) or --all (every form), not both");
  if (!a.all && !input)
    throw new UserError(
      'data measure: name the code whose forms to measure (FILE, --hex, --raw, with region options) or measure every form with --all',
    );
  if (a.all) {
    const r = allInstructions(cpuFlags(readFileSync('/proc/cpuinfo', 'utf8')));
    await characterizeHost(
      r.instrs,
      `${r.instrs.length} forms the host's flags allow (${r.unsupported} need extensions it lacks)`,
      a,
    );
  } else {
    await characterizeHost(
      (await analyseRegion({ ...input!, loop: false })).region.instructions,
      "the region's forms",
      a,
    );
  }
}

/** Characterizes the forms among `instrs` on this host into the core's measured file. */
export async function characterizeHost(
  instrs: readonly DecodedInstruction[],
  note: string,
  a: DataMeasureArgs,
): Promise<void> {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new UserError(
      `uopscope data measure runs benchmarks natively and needs Linux on x86-64 (this is ${process.platform} ${process.arch})`,
    );
  const repetitions = wholeIn(a.repetitions, 10, 10000, 'repetitions');
  const runs = wholeIn(a.runs, 1, 100, 'runs');
  const host = hostCore();
  if (!host) throw new UserError('data measure cannot read /proc/cpuinfo to identify this host');
  const { arch, why } = coreToMeasure(a.core, host);
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const microcode = /^microcode\s*:\s*(\S+)/m.exec(cpuinfo)?.[1] ?? 'unknown';
  const output = a.output ?? userMeasuredPath(arch, a.cacheDir);

  const load0 = loadavg();
  const { forms, excluded } = formsOf(instrs);
  const hyp = await hypotheses(
    arch,
    forms.map((f) => f.decoded),
    a.cacheDir,
  );
  const counters = cycleSource(a.cacheDir);
  const provenance: Omit<MeasuredProvenance, 'date'> = {
    cpu: host.modelName || 'unknown',
    cpuid: cpuidText(host),
    microcode,
    kernel: `${type()} ${release()}`,
    virtualMachine: host.virtual,
    uopscope: packageVersion(),
    command: a.command ?? ['uopscope', ...a.argv].map(quote).join(' '),
    core: { arch, why },
    counters,
  };

  const runner = new NativeRunner({
    ...(repetitions ? { repetitions } : {}),
    ...(runs ? { runs } : {}),
    ...(a.cacheDir !== undefined ? { cacheDir: a.cacheDir } : {}),
  });
  const result = await runStoppable(forms, { runner, arch, output, provenance, hypotheses: hyp });
  const load1 = loadavg();
  const out: string[] = [];
  out.push(
    `Host: ${host.modelName} (${cpuidText(host)}, microcode ${microcode}${host.virtual ? ', a virtual machine' : ''}) → ${arch}: ${why}`,
  );
  out.push(
    `Forms: ${note}: ${forms.length} to characterize, ${excluded.length} excluded; ${result.kept.length} already in the file, ${result.measured.length} measured now${result.stopped ? ' (interrupted: run the same command again to continue)' : ''}`,
  );
  out.push(`Hypotheses: ${hyp.text}`);
  out.push(
    `Cycles: ${counters}; ${runner.runsDone} harness runs; load average ${load0.map((x) => x.toFixed(2)).join(' ')} before, ${load1.map((x) => x.toFixed(2)).join(' ')} after`,
  );
  out.push(
    ...machineLines(result.machine),
    ...resultLines(result.measured, excluded, result.file),
    '',
    `Written: ${output}`,
    ...usageLines(result.file, runner),
  );
  process.stdout.write(`${out.join('\n')}\n`);
  if (result.stopped) process.exitCode = 130;
}

/** The session with a progress bar; Ctrl-C stops it after the form under way (what is done is kept). */
async function runStoppable(
  forms: Parameters<typeof runSession>[0],
  o: Omit<Parameters<typeof runSession>[1], 'onForm' | 'stop'>,
): Promise<Awaited<ReturnType<typeof runSession>>> {
  let stop = false;
  const onInt = (): void => {
    stop = true;
  };
  process.on('SIGINT', onInt);
  const bar = formBar();
  try {
    return await runSession(forms, { ...o, onForm: bar.update, stop: () => stop });
  } finally {
    bar.done();
    process.off('SIGINT', onInt);
  }
}

/** The core the figures are for: the one --core names, else the host's. */
function coreToMeasure(core: string | undefined, host: HostCore): { arch: ArchName; why: string } {
  if (core !== undefined) {
    const n = parseArchName(core);
    if (!n)
      throw new UserError(
        `--core '${printable(core, 30)}' is not an architecture name (letters, digits, + - _; e.g. SPR, ZEN4)`,
      );
    return { arch: n, why: `named by the user (--core ${n}); CPUID: ${cpuidText(host)}` };
  }
  if (host.arch)
    return {
      arch: host.arch as ArchName,
      why: `${host.why}${host.note ? ` (${host.note})` : ''}${host.virtual ? '; a virtual machine, whose CPUID may name another core' : ''}`,
    };
  throw new UserError(
    `uopscope cannot tell this host's core (${cpuidText(host)}, ${host.modelName}): name it with --core (e.g. --core ZEN4 for an AMD Zen 4)`,
  );
}

/** Where the cycles come from, for the provenance: one harness run of a nop tells. */
function cycleSource(cacheDir: string | undefined): string {
  const probe = runHarness(Uint8Array.of(0x90), {
    counter: COUNTER,
    repetitions: 10,
    ...(cacheDir !== undefined ? { cacheDir } : {}),
  });
  return probe.ok && probe.method === 'perf'
    ? 'the core-cycle counter (perf_event_open); no per-port counters used'
    : `none: core cycles from the time-stamp counter, calibrated by a chain of add (perf_event_open: ${probe.ok ? `errno ${probe.perfError}` : 'not tried'})`;
}

function packageVersion(): string {
  return (
    (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown'
  );
}

/** The closing table: what the file holds and what of it uopscope will use (measuredUsage, the
 *  rule `data list` counts by), the forms not used by why, and the runs the canary dropped. */
export function usageLines(file: MeasuredFile, runner?: { runsDone: number; runsDropped: number }): string[] {
  const u = measuredUsage(file);
  const rows: [string, string, string][] = [
    ['written', String(u.written), 'forms in the file'],
    ['used', String(u.used), 'passed their checks: the measured-here source gives their figures'],
    ...(u.notMeasurable
      ? [
          [
            '',
            String(u.notMeasurable),
            "of them with figures not measurable here (no counters): the core's record's kept for those",
          ] as [string, string, string],
        ]
      : []),
    ['marked', String(u.written - u.used), u.marked.length ? 'failed a check, not used:' : 'failed a check, not used'],
    ...u.marked.map(([why, n]): [string, string, string] => ['', String(n), why]),
  ];
  const w = Math.max(...rows.map((r) => r[1].length));
  const out = ['', 'Forms:', ...rows.map(([a, n, t]) => `  ${a.padEnd(8)} ${n.padStart(w)}  ${t}`)];
  if (runner && runner.runsDone > 0)
    out.push(
      `Runs: ${runner.runsDone} harness runs, ${runner.runsDropped} dropped (the contention canary read outside its band around them), ${(((runner.runsDone - runner.runsDropped) / runner.runsDone) * 100).toFixed(0)} % kept`,
    );
  return out;
}

/** The forms measured now, one line each, and the excluded ones (the first 40). */
function resultLines(
  measured: readonly FormResult[],
  excluded: readonly { key: string; why: string }[],
  file: MeasuredFile,
): string[] {
  const out: string[] = [];
  if (measured.length) out.push('', ...measured.map((r) => formLine(r, file.forms[measuredFormKey(r.key)])));
  if (excluded.length) {
    out.push('', 'Excluded:');
    const shown = excluded.slice(0, 40);
    for (const e of shown) out.push(`  ${e.key}: ${e.why}`);
    if (excluded.length > shown.length) out.push(`  … and ${excluded.length - shown.length} more`);
  }
  return out;
}

function machineLines(m: MachineResult): string[] {
  const f = (x: { value: number; spread: number; inconsistent?: string }, d = 2): string =>
    !Number.isFinite(x.value) || x.value < 0
      ? `not measured [${x.inconsistent ?? 'no usable run'}]`
      : `${x.value.toFixed(d)}${x.spread > 0.005 ? ` (spread ${(x.spread * 100).toFixed(1)} %)` : ''}${x.inconsistent ? ` [${x.inconsistent}]` : ''}`;
  return [
    `Machine: rename width ${f(m.renameWidth)} per cycle${m.fillerProblem ? ` [${m.fillerProblem}]` : ''}; taken branches ${f(m.takenBranchesPerCycle)} per cycle; load-to-use ${f(m.loadToUse)}; store forwarding ${f(m.storeForwarding)}`,
    `Eliminations at rename: zero idioms ${m.zeroIdiom.noPort ? 'without a port' : 'on a port'}${m.zeroIdiom.breaksDependency ? ', dependency-breaking' : ''}; moves ${m.moveElimination.eliminated ? 'eliminated' : 'executed'} (${m.moveElimination.latency.value.toFixed(2)} cycles per move in a chain); add r64, imm ${m.immediateAddition.folded ? 'folded' : 'executed'} (${m.immediateAddition.latency.value.toFixed(2)} per add in a chain)`,
    `Port combinations: ${m.combinations.map((c) => `${c.name} (${c.blocker})`).join(', ')}`,
    ...(m.rejectedBlockers?.length ? [`Blockers left out: ${m.rejectedBlockers.join('; ')}`] : []),
  ];
}

function formLine(r: FormResult, written: MeasuredForm | undefined): string {
  const lat = r.latencies
    .filter((l) => Number.isFinite(l.value))
    .map(
      (l) =>
        `${l.from.replace(/ \(.*\)/, '')}→${l.to.replace(/ \(.*\)/, '')} ${l.value.toFixed(2)}${l.upperBound ? '≤' : ''}`,
    )
    .join(', ');
  const ports = r.ports.map((p) => `${p.count}*${p.combination}${p.from === 'hypothesis' ? '(record)' : ''}`).join('+');
  const failed = written && !measuredUsed(written) ? ((written as MeasuredForm).check.notes ?? []) : [];
  const bad = failed.length
    ? `\n    marked, not used: ${failed[0]}${failed.length > 1 ? ` (and ${failed.length - 1} more in the file)` : ''}`
    : '';
  const nm = written?.check.notMeasurable ?? [];
  const notHere = nm.length
    ? `\n    not measurable here: ${nm[0]}${nm.length > 1 ? ` (and ${nm.length - 1} more in the file)` : ''}`
    : '';
  return `${r.key}: latency ${lat || '—'}; tp ${r.throughput ? r.throughput.value.toFixed(2) : '—'}${r.throughputBroken ? ` (${r.throughputBroken.value.toFixed(2)} with breakers)` : ''}; µops ${r.fusedUops && Number.isInteger(r.fusedUops.value) ? r.fusedUops.value : r.notMeasurable?.some((n) => n.startsWith('fused')) ? 'n/m' : '?'}/${r.unfusedUops ?? 0}; ports ${ports || '—'}${r.divCycles ? `; divider ${r.divCycles.value.toFixed(1)}` : ''}${r.eliminated ? '; at rename' : ''}${passesText(r)}${bad}${notHere}`;
}

/** The passes compared and the share of runs kept, when the runner says. */
function passesText(r: FormResult): string {
  const figs = [...r.latencies, r.throughput, r.throughputBroken, r.fusedUops].filter((f) => f?.kept);
  const kept = figs.reduce((n, f) => n + f!.kept!.kept, 0);
  const tried = figs.reduce((n, f) => n + f!.kept!.tried, 0);
  return `${r.passes && r.passes > 1 ? `; ${r.passes} passes agree${r.passesDisagree ? ' NOT' : ''}` : ''}${tried ? `; ${((kept / tried) * 100).toFixed(0)} % of runs kept` : ''}`;
}

/** forms done/total, the rate and the time left, on stderr when it is a terminal */
function formBar(stream: NodeJS.WriteStream = process.stderr): {
  update(done: number, total: number, key: string): void;
  done(): void;
} {
  if (!stream.isTTY) return { update() {}, done() {} };
  const start = Date.now();
  let drawn = false;
  return {
    update(done, total, key) {
      const secs = (Date.now() - start) / 1000;
      const rate = done > 0 && secs > 0 ? done / secs : 0;
      const left = rate > 0 ? (total - done) / rate : NaN;
      const time = Number.isFinite(left)
        ? left >= 90
          ? `${Math.round(left / 60)} min`
          : `${Math.round(left)} s`
        : '…';
      const width = Math.max(10, Math.min(30, (stream.columns || 80) - 70));
      const fill = total > 0 ? Math.round((done / total) * width) : 0;
      stream.write(
        `\r\x1b[2Kmeasuring [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${done}/${total} forms  ${rate > 0 ? `${(rate * 60).toFixed(1)}/min` : ''}  ${time} left  ${printable(key, 30)}`,
      );
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}
