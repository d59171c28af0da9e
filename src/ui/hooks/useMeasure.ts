// The explorer's measure key (M): runs the region on this machine in the background through the
// session's MeasureRunner (a child process; cancelled when the explorer ends) and keeps its
// outcome. measureText() says what the header shows: measured against the model for the host's
// architecture, or why there is nothing to compare.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Cancellable, MeasureOutcome, MeasureRunner } from '../types.js';

export type MeasureStatus = { kind: 'idle' } | { kind: 'running' } | { kind: 'done'; outcome: MeasureOutcome };

export interface MeasureControl {
  status: MeasureStatus;
  /** starts a measurement (a no-op while one runs) */
  start(): void;
  /** hides the result (the header's measurement line) */
  dismiss(): void;
}

export function useMeasure(runner: MeasureRunner | undefined): MeasureControl {
  const [status, setStatus] = useState<MeasureStatus>({ kind: 'idle' });
  const job = useRef<Cancellable<MeasureOutcome> | null>(null);
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
      job.current?.cancel();
      job.current = null;
    },
    [],
  );
  const start = useCallback(() => {
    if (job.current) return;
    if (!runner) {
      setStatus({ kind: 'done', outcome: { ok: false, reason: 'measuring is not available in this session' } });
      return;
    }
    if (runner.unavailable) {
      setStatus({ kind: 'done', outcome: { ok: false, reason: runner.unavailable } });
      return;
    }
    const j = runner.run();
    job.current = j;
    setStatus({ kind: 'running' });
    j.promise
      .then(
        (outcome) => {
          if (live.current && job.current === j) setStatus({ kind: 'done', outcome });
        },
        (err: unknown) => {
          if (live.current && job.current === j)
            setStatus({
              kind: 'done',
              outcome: { ok: false, reason: err instanceof Error ? err.message : String(err) },
            });
        },
      )
      .finally(() => {
        if (job.current === j) job.current = null;
      });
  }, [runner]);
  const dismiss = useCallback(() => {
    if (!job.current) setStatus({ kind: 'idle' });
  }, []);
  return { status, start, dismiss };
}

const f2 = (n: number): string => n.toFixed(2);
const METHOD = { perf: 'perf cycles', tsc: 'TSC-calibrated' } as const;
const METHOD_SHORT = { perf: 'perf', tsc: 'TSC' } as const;

/** What the header compares a measurement with: the panes on screen and their whole runs. */
interface PaneTotal {
  /** null: the whole region; 0 / 1: the fall-through / taken side of the branch */
  branch: 0 | 1 | null;
  /** the model's block throughput of the pane's whole run (null while it is computed) */
  total: number | null;
}

/**
 * The header's measurement segment, or null before M. The measurement is this host's: it is
 * compared with the model only when `arch` (the architecture on screen) is the host's core, else
 * the segment says so. The model's figure is the first pane's whole run for a whole-region
 * measurement, and each side's pane when the sides were measured and the panes show them (b).
 */
export function measureText(
  s: MeasureStatus,
  p: { runner: MeasureRunner | undefined; arch: string; panes: readonly PaneTotal[] },
  width = Number.POSITIVE_INFINITY,
): string | null {
  const long = measureForm(s, p, 0);
  if (long === null) return null;
  // the figures are never cut: the wording shortens first; `esc hides` when there is room
  const short = measureForm(s, p, 1)!;
  const shortest = measureForm(s, p, 2)!;
  if (!Number.isFinite(width)) return long;
  const forms = [`${long} · esc hides`, long, `${short} · esc hides`, short, shortest];
  return forms.find((f) => f.length <= width) ?? shortest;
}

/** The measurement's line in words of `brevity` 0 (whole), 1 (short) or 2 (shortest: a
 *  measurement not compared says so first, so that a cut keeps its point). */
function measureForm(
  s: MeasureStatus,
  p: { runner: MeasureRunner | undefined; arch: string; panes: readonly PaneTotal[] },
  brevity: 0 | 1 | 2,
): string | null {
  const short = brevity > 0;
  const METHOD_ = short ? METHOD_SHORT : METHOD;
  if (s.kind === 'idle') return null;
  if (s.kind === 'running') return 'measuring…';
  const o = s.outcome;
  if (!o.ok) return 'not measurable (why: below)';
  const fig = (n: number | null | undefined): string => (n === null ? '…' : n === undefined ? '–' : f2(n));
  const sides = 'sides' in o;
  // each side named beside its number (fall-through, taken), never two bare numbers
  const measured = sides
    ? o.sides.map((x) => `${x.label} ${x.cyclesPerIteration === null ? '–' : f2(x.cyclesPerIteration)}`).join(', ')
    : f2(o.cyclesPerIteration);
  const host = p.runner?.hostArch ?? null;
  if (host !== p.arch)
    return brevity === 2
      ? `not vs ${p.arch}: this host's ${measured} c/it (${METHOD_[o.method]})`
      : short
        ? `host (${host ?? 'not modelled'}) measured ${measured} c/it (${METHOD_[o.method]}), not vs ${p.arch}`
        : `this host (${host ?? 'no uopscope model'}) measured ${measured} c/it (${METHOD_[o.method]}): not compared with ${p.arch}`;
  if (!sides) {
    const whole = p.panes[0]?.branch === null ? p.panes[0] : undefined;
    // the panes show the branch's sides, not the whole region that was measured
    return `measured ${measured} c/it (${METHOD_[o.method]}, ${o.variant}) · model ${whole ? fig(whole.total) : '(b off)'}`;
  }
  const onScreen = [0, 1].map((k) => p.panes.find((x) => x.branch === k));
  if (!onScreen.every((x) => x)) return `measured ${measured} c/it (${METHOD_[o.method]}) · model: press b`;
  // each side named, its measured figure beside the model's (never bare numbers)
  const pairs = o.sides.map(
    (x, k) =>
      `${x.label} ${x.cyclesPerIteration === null ? '–' : f2(x.cyclesPerIteration)} vs ${fig(onScreen[k]!.total)}`,
  );
  return `measured vs model, c/it (${METHOD_[o.method]}): ${pairs.join(', ')}`;
}

/** Why the last measurement failed (or a side of it), in full: the message line shows it, the
 *  header is short. */
export function measureReason(s: MeasureStatus): string | null {
  if (s.kind !== 'done') return null;
  const o = s.outcome;
  if (o.ok) {
    if (!('sides' in o)) return null;
    const bad = o.sides.filter((x) => x.reason);
    return bad.length ? bad.map((x) => `${x.label} side ${x.reason}`).join('; ') : null;
  }
  return o.reason.startsWith('not measurable') ? o.reason : `not measurable: ${o.reason}`;
}
