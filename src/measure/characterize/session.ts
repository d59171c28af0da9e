// A characterization run: the machine parameters, then each form in turn, the results written to
// the measured-figures file after every form (so an interrupted run keeps what it finished and
// the next run resumes after it). The hypothesis for each form is the LLVM model's port groups on
// the core, when uopscope models it.

import { decodeRegion } from '../../disasm/decode.js';
import type { DecodedInstruction } from '../../disasm/types.js';
import { loadArchData, loadMachine, resolveInstructions } from '../../data/index.js';
import type { ArchName, PortGroup } from '../../data/types.js';
import { vsibSignature } from '../../data/signature.js';
import {
  emptyMeasured,
  measuredFormKey,
  readMeasured,
  writeMeasured,
  type MeasuredFile,
  type MeasuredProvenance,
} from '../../data/measuredFormat.js';
import { UserError } from '../../errors.js';
import { characterizeForm } from './characterize.js';
import { formOf, type FormSpec } from './forms.js';
import { BLOCKER_CANDIDATES, characterizeMachine, DEFAULT_BLOCKERS, pname, type Blocker } from './machine.js';
import { measuredForm, measuredMachine } from './measuredOut.js';
import { compareMachines, comparePasses } from './passes.js';
import type { Runner } from './runner.js';
import type { Excluded, FormResult, MachineResult } from './types.js';
import * as x from './x86.js';

interface Hypotheses {
  /** port groups per form key (the LLVM model's), for the forms it has */
  forms: Map<string, PortGroup[]>;
  blockers: Blocker[];
  /** the record's queues' ports, when it steers evenly (characterize.ts `steeredQueues`) */
  steeredQueues?: number[][];
  /** what the hypotheses are ('the LLVM 19 model of SPR'), or why there are none */
  text: string;
}

/** The forms among `instrs`, each once (by key), and those excluded with the reason. */
export function formsOf(instrs: readonly DecodedInstruction[]): {
  forms: { spec: FormSpec; decoded: DecodedInstruction }[];
  excluded: Excluded[];
} {
  const forms = new Map<string, { spec: FormSpec; decoded: DecodedInstruction }>();
  const excluded = new Map<string, Excluded>();
  for (const d of instrs) {
    const f = formOf(d);
    // a later sample of a form can be built where an earlier one could not (lea with a base register)
    if ('form' in f) {
      if (!forms.has(f.form.key)) forms.set(f.form.key, { spec: f.form, decoded: d });
      excluded.delete(f.form.key);
    } else if (!excluded.has(f.key) && !forms.has(f.key))
      excluded.set(f.key, { key: f.key, intel: d.intel, why: f.why });
  }
  return { forms: [...forms.values()], excluded: [...excluded.values()] };
}

/** The LLVM model's port groups for the forms and the blockers on `arch`, when uopscope models it. */
export async function hypotheses(
  arch: ArchName,
  instrs: readonly DecodedInstruction[],
  cacheDir?: string,
): Promise<Hypotheses> {
  let machine;
  try {
    machine = loadMachine(arch);
  } catch {
    return {
      forms: new Map(),
      blockers: [...DEFAULT_BLOCKERS],
      text: `none: uopscope has no model of ${arch}; port combinations are named by their blocking instruction`,
    };
  }
  // the record alone: a measured file (the user's, or the one shipped for this core) must not be
  // the hypothesis of the run that measures again
  const data = await loadArchData(arch, { measured: false, ...(cacheDir !== undefined ? { cacheDir } : {}) });
  const blockerCode = x.encode(BLOCKER_CANDIDATES.map((b) => b.make(0)));
  const blockerInstrs = decodeRegion(blockerCode, 0, 64, 'blockers');
  const all = [
    ...instrs.map((d, k) => ({ ...d, line: k })),
    ...blockerInstrs.map((d, k) => ({ ...d, line: instrs.length + k })),
  ];
  const resolved = resolveInstructions(all, data, { machine });
  // the record's figures: LLVM's model of the core and the cited corrections to it, never a
  // measured file (the hypothesis must not be an earlier run's answer)
  const record = (k: number): PortGroup[] | null => {
    const r = resolved[k];
    return r && (r.origin === 'llvm' || r.origin === 'cited') && !r.unknown ? r.ports : null;
  };
  const forms = new Map<string, PortGroup[]>();
  instrs.forEach((d, k) => {
    const p = record(k);
    // keyed as the forms are (a gather by its vector index: forms.ts)
    const key = vsibSignature(d) ?? d.signature;
    if (p && !forms.has(key)) forms.set(key, p);
  });
  const blockers = recordBlockers(BLOCKER_CANDIDATES, (k) => record(instrs.length + k));
  const names = machine.portNames;
  const groupName = (ports: readonly number[]): string =>
    names ? ports.map((p) => names[p] ?? String(p)).join('/') : pname(ports);
  return {
    forms,
    blockers,
    ...(machine.schedulers?.steering?.value === 'even'
      ? { steeredQueues: machine.schedulers.queues.map((q) => [...q.ports]) }
      : {}),
    text: `the ${arch} record's pipe groups (its model, LLVM 19's with cited corrections; kept where no blocking instruction decides); blocker candidates: ${blockers.map((b) => `${groupName(b.ports!)} by ${b.text}`).join(', ')}`,
  };
}

/**
 * The blockers of the record's pipe groups: each candidate whose record port usage is one µop on
 * exactly one group, with that group's ports, in the candidates' order (the first whose measured
 * throughput confirms the group blocks it; the others are alternatives, machine.ts). Candidates
 * the record gives more than one µop, or none, block nothing the record names and are left out.
 * `portsOf(k)` is the record's usage of candidate k.
 */
export function recordBlockers(candidates: readonly Blocker[], portsOf: (k: number) => PortGroup[] | null): Blocker[] {
  const out: Blocker[] = [];
  candidates.forEach((b, k) => {
    const p = portsOf(k);
    if (p?.length !== 1 || p[0]!.count !== 1) return;
    out.push({ ...b, ports: [...p[0]!.ports].sort((a, c) => a - c) });
  });
  return out;
}

interface SessionOptions {
  runner: Runner;
  arch: ArchName;
  output: string;
  provenance: Omit<MeasuredProvenance, 'date'>;
  hypotheses: Hypotheses;
  /** called after each form (progress) */
  onForm?: (done: number, total: number, key: string) => void;
  /** polled between forms: true stops the run (Ctrl-C), keeping what is done */
  stop?: () => boolean;
  /** passes over each form, compared (default 2; 1 measures once and compares nothing) */
  passes?: number;
}

/** Forms per chunk of the passes (docs/characterize.md). */
const PASS_CHUNK = 8;

interface SessionResult {
  file: MeasuredFile;
  machine: MachineResult;
  measured: FormResult[];
  /** forms the file already had (a resumed run) */
  kept: string[];
  stopped: boolean;
}

/** The time as the measured file records it (UTC, whole seconds). */
const now = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** The measured file the session adds to: the existing one when it is this host's and core's,
 *  else a new one; another host's file is refused. */
function sessionFile(o: SessionOptions): MeasuredFile {
  const existing = readMeasured(o.output);
  if (
    existing &&
    (existing.provenance.cpuid !== o.provenance.cpuid ||
      existing.provenance.cpu !== o.provenance.cpu ||
      existing.arch !== o.arch)
  ) {
    throw new UserError(
      `${o.output} holds figures measured on ${existing.provenance.cpu} (${existing.provenance.cpuid}, ${existing.arch}), not this host's ${o.provenance.cpu} (${o.provenance.cpuid}, ${o.arch}): name another file with --output, or remove it`,
    );
  }
  return existing ?? emptyMeasured({ ...o.provenance, date: now() });
}

/** Runs the characterization of `forms`, resuming from the output file when it is this host's. */
export async function runSession(
  forms: readonly { spec: FormSpec; decoded: DecodedInstruction }[],
  o: SessionOptions,
): Promise<SessionResult> {
  const file = sessionFile(o);
  const passes = o.passes ?? 2;
  const first = characterizeMachine(o.runner, o.hypotheses.blockers);
  file.machine = measuredMachine(first);
  const todo = forms.filter((f) => !(measuredFormKey(f.spec.key) in file.forms));
  const kept = forms.filter((f) => measuredFormKey(f.spec.key) in file.forms).map((f) => f.spec.key);
  const measured: FormResult[] = [];
  let stopped = false;
  o.onForm?.(0, todo.length, '');
  // the event loop gets a turn between forms: a SIGINT handler runs only then
  const turn = (): Promise<void> => new Promise((res) => setImmediate(res));
  /** One pass over one form, null when the run was stopped (Ctrl-C) before or inside it. */
  const once = async (f: (typeof todo)[number]): Promise<FormResult | null> => {
    await turn();
    if (o.stop?.()) return null;
    const hyp = o.hypotheses.forms.get(f.spec.key);
    let r: FormResult;
    try {
      r = characterizeForm(o.runner, f.spec, {
        machine: first,
        blockers: o.hypotheses.blockers,
        ...(hyp ? { hypothesis: hyp } : {}),
        ...(o.hypotheses.steeredQueues ? { steeredQueues: o.hypotheses.steeredQueues } : {}),
      });
    } catch (e) {
      // Ctrl-C at a terminal reaches the harness too, which then fails: a stop, not an error
      await turn();
      if (o.stop?.()) return null;
      throw e;
    }
    await turn();
    return o.stop?.() ? null : r; // interrupted inside: its figures are incomplete
  };
  // the passes go over a chunk of forms each, so that a form's two passes are the chunk's time
  // apart (a burst of contention seldom spans both) and an interrupted run loses one chunk at most
  let done = 0;
  for (let at = 0; at < todo.length && !stopped; at += PASS_CHUNK) {
    const chunk = todo.slice(at, at + PASS_CHUNK);
    const results: FormResult[][] = chunk.map(() => []);
    for (let p = 0; p < passes && !stopped; p++)
      for (const [k, f] of chunk.entries()) {
        const r = await once(f);
        if (!r) {
          stopped = true;
          break;
        }
        results[k]!.push(r);
      }
    if (stopped) break;
    for (const [k, f] of chunk.entries()) {
      const [a, ...rest] = results[k]!;
      const r = rest.reduce((m, b) => comparePasses(m, b), { ...a!, passes: 1 });
      measured.push(r);
      const code = f.decoded.memory ? `${f.decoded.code}:m` : f.decoded.code;
      file.forms[measuredFormKey(f.spec.key)] = measuredForm(r, /^[A-Za-z0-9_]+(:m)?$/.test(code) ? code : undefined);
      file.provenance = { ...o.provenance, date: now() };
      writeMeasured(o.output, file);
      o.onForm?.(++done, todo.length, f.spec.key);
    }
  }
  // the machine parameters a second time, after the forms, and compared with the first
  const machine =
    passes > 1 && !stopped ? compareMachines(first, characterizeMachine(o.runner, o.hypotheses.blockers)) : first;
  file.machine = measuredMachine(machine);
  file.provenance = { ...o.provenance, date: now() };
  writeMeasured(o.output, file);
  return { file, machine, measured, kept, stopped };
}
