// Two passes over the same forms, minutes apart on a long run, compared: on a shared machine a
// figure one pass gives and the other does not is noise that the canary did not catch (a sibling
// that slows loads but not integer adds), so it is marked and not used, and the run says so.
// Agreement is what a user of the figures needs: latencies the same whole number of cycles (within
// 5 % when not whole), throughputs within 5 %, the same µop counts and port usage. Pure.

import type { Figure, FormResult, LatencyFigure, MachineResult } from './types.js';

/** Throughputs and non-whole figures of two passes agree within this share of the lower. */
const PASS_TOLERANCE = 0.05;

/** The figure as the file writes it: a whole number when within 0.15 of one. */
const written = (v: number): number => (Math.abs(v - Math.round(v)) <= 0.15 ? Math.round(v) : v);

/** Whether two passes' values agree (both unmeasured agree too). */
export function valuesAgree(a: number, b: number, whole: boolean): boolean {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return !Number.isFinite(a) && !Number.isFinite(b);
  if (whole) {
    const wa = written(a),
      wb = written(b);
    if (Number.isInteger(wa) && Number.isInteger(wb)) return wa === wb;
  }
  // an absolute 0.02 beside the 5 %: a quarter-cycle throughput is read to ±0.01
  return Math.abs(a - b) <= PASS_TOLERANCE * Math.min(a, b) + 0.02;
}

const fmt = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : 'not measured');

/** Both passes' runs in one figure: the lower value, the spread covering both, the runs summed. */
function mergeFigure<T extends Figure>(a: T, b: Figure): T {
  const lo = Math.min(a.value, b.value),
    hi = Math.max(a.value, b.value);
  const across = Number.isFinite(lo) && lo > 0 ? (hi - lo) / lo : 0;
  const kept =
    a.kept && b.kept ? { kept: { kept: a.kept.kept + b.kept.kept, tried: a.kept.tried + b.kept.tried } } : {};
  const value = Number.isFinite(a.value) && Number.isFinite(b.value) ? lo : a.value;
  return { ...a, value, spread: Math.max(a.spread, b.spread, across), ...kept };
}

const portText = (r: FormResult): string =>
  r.ports
    .map((p) => `${p.count}*${p.combination}`)
    .sort()
    .join('+') || 'none';

/** The two passes of one form: `a`'s figures merged with `b`'s, and where they disagree. */
export function comparePasses(a: FormResult, b: FormResult): FormResult {
  const disagree: string[] = [];
  const latencies: LatencyFigure[] = a.latencies.map((l) => {
    const m = b.latencies.find((q) => q.from === l.from && q.to === l.to);
    if (!m) {
      disagree.push(`latency ${l.from} → ${l.to}: measured in one pass only`);
      return l;
    }
    if (!valuesAgree(l.value, m.value, true))
      disagree.push(`latency ${l.from} → ${l.to}: ${fmt(l.value)} and ${fmt(m.value)} cycles`);
    return mergeFigure(l, m);
  });
  const pair = (what: string, x: Figure | undefined, y: Figure | undefined, whole: boolean): Figure | undefined => {
    if (!x || !y) {
      if (x || y) disagree.push(`${what}: measured in one pass only`);
      return x;
    }
    if (!valuesAgree(x.value, y.value, whole)) disagree.push(`${what}: ${fmt(x.value)} and ${fmt(y.value)}`);
    return mergeFigure(x, y);
  };
  const throughput = pair('throughput', a.throughput, b.throughput, false);
  const throughputBroken = pair('throughput with breakers', a.throughputBroken, b.throughputBroken, false);
  const fusedUops = pair('fused-domain µops', a.fusedUops, b.fusedUops, true);
  const divCycles = pair('divider cycles', a.divCycles, b.divCycles, false);
  if (portText(a) !== portText(b)) disagree.push(`port usage: ${portText(a)} and ${portText(b)}`);
  const out: FormResult = {
    ...a,
    latencies,
    benches: a.benches + b.benches,
    ...(a.notMeasurable || b.notMeasurable
      ? { notMeasurable: [...(a.notMeasurable ?? []), ...(b.notMeasurable ?? [])] }
      : {}),
    passes: 2,
    ...(disagree.length ? { passesDisagree: disagree } : {}),
  };
  for (const [k, v] of [
    ['throughput', throughput],
    ['throughputBroken', throughputBroken],
    ['fusedUops', fusedUops],
    ['divCycles', divCycles],
  ] as const)
    if (v) out[k] = v;
  return out;
}

/** The machine parameters of two passes: `a`'s, each marked where the other pass disagrees. */
export function compareMachines(a: MachineResult, b: MachineResult): MachineResult {
  const one = (x: Figure, y: Figure, whole: boolean): Figure => {
    const m = mergeFigure(x, y);
    if (valuesAgree(x.value, y.value, whole)) return m;
    const why = `passes disagree: ${fmt(x.value)} and ${fmt(y.value)}`;
    return { ...m, inconsistent: m.inconsistent ? `${m.inconsistent}; ${why}` : why };
  };
  return {
    ...a,
    renameWidth: one(a.renameWidth, b.renameWidth, false),
    takenBranchesPerCycle: one(a.takenBranchesPerCycle, b.takenBranchesPerCycle, false),
    loadToUse: one(a.loadToUse, b.loadToUse, true),
    storeForwarding: one(a.storeForwarding, b.storeForwarding, false),
  };
}
