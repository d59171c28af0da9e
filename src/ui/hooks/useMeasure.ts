// The explorer's measure key (M): runs the region on this machine in the background through the
// session's MeasureRunner (a child process; cancelled when the explorer ends) and keeps its
// outcome. measureText() says what the header shows: measured against the model for the host's
// architecture, or why there is nothing to compare.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Cancellable, MeasureOutcome, MeasureRunner } from '../types.js';

export type MeasureStatus =
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'done'; outcome: MeasureOutcome };

export interface MeasureControl {
  status: MeasureStatus;
  /** starts a measurement (a no-op while one runs) */
  start(): void;
}

export function useMeasure(runner: MeasureRunner | undefined): MeasureControl {
  const [status, setStatus] = useState<MeasureStatus>({ kind: 'idle' });
  const job = useRef<Cancellable<MeasureOutcome> | null>(null);
  const live = useRef(true);
  useEffect(() => () => { live.current = false; job.current?.cancel(); job.current = null; }, []);
  const start = useCallback(() => {
    if (job.current) return;
    if (!runner) { setStatus({ kind: 'done', outcome: { ok: false, reason: 'measuring is not available in this session' } }); return; }
    if (runner.unavailable) { setStatus({ kind: 'done', outcome: { ok: false, reason: runner.unavailable } }); return; }
    const j = runner.run();
    job.current = j;
    setStatus({ kind: 'running' });
    j.promise.then(
      (outcome) => { if (live.current && job.current === j) setStatus({ kind: 'done', outcome }); },
      (err: unknown) => { if (live.current && job.current === j) setStatus({ kind: 'done', outcome: { ok: false, reason: err instanceof Error ? err.message : String(err) } }); },
    ).finally(() => { if (job.current === j) job.current = null; });
  }, [runner]);
  return { status, start };
}

const f2 = (n: number): string => n.toFixed(2);
const METHOD = { perf: 'perf cycles', tsc: 'TSC-calibrated' } as const;

/**
 * The header's measurement segment, or null before M. `model`: the model's block throughput for
 * the whole run on `arch` (null while it is being computed, undefined when the panes show the
 * sides of a branch). The measurement is this host's: it
 * is compared only when `arch` is the host's core, else the segment says so.
 */
export function measureText(s: MeasureStatus, p: { runner: MeasureRunner | undefined; arch: string; model: number | null | undefined }): string | null {
  if (s.kind === 'idle') return null;
  if (s.kind === 'running') return 'measuring…';
  const o = s.outcome;
  if (!o.ok) return 'not measurable (why: below)';
  const host = p.runner?.hostArch ?? null;
  if (host !== p.arch) return `this host (${host ?? 'no uopscope model'}) measured ${f2(o.cyclesPerIteration)} c/it (${METHOD[o.method]}): not compared with ${p.arch}`;
  const measured = `measured ${f2(o.cyclesPerIteration)} c/it (${METHOD[o.method]}, ${o.variant})`;
  // undefined: the panes show the branch's sides, not the whole region that was measured
  return `${measured} · model ${p.model === undefined ? '(whole region: b off)' : p.model === null ? '…' : f2(p.model)}`;
}

/** Why the last measurement failed, in full (the message line shows it: the header is short). */
export function measureReason(s: MeasureStatus): string | null {
  if (s.kind !== 'done' || s.outcome.ok) return null;
  const r = s.outcome.reason;
  return r.startsWith('not measurable') ? r : `not measurable: ${r}`;
}
