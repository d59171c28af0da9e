import { useEffect } from 'react';
import type { Engine } from '../../sim/types.js';
import type { Offload, PaneInfo, RunTotal } from '../types.js';

/** The whole run of an engine, as it computes it (without moving its position). */
export function wholeRunOf(engine: Engine): RunTotal {
  return { cycles: engine.totalCycles(), blockThroughput: engine.finalStats().blockThroughput };
}

/**
 * Each pane's run length and final block throughput, once the first frame is on screen: in a
 * worker when the session offers one, else on the UI thread after the frame. A new `key` (other
 * panes) starts over.
 */
export function useTotals(key: string, panes: PaneInfo[], iterations: number, offload: Offload | undefined,
  setTotal: (pane: PaneInfo, total: RunTotal) => void): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names the panes; the array and the callback are new on every render
  useEffect(() => {
    let cancelled = false;
    if (offload) {
      const jobs = panes.map((p) => {
        const job = offload.wholeRun(p.spec, iterations);
        job.promise.then((t) => { if (!cancelled) setTotal(p, t); }, () => { /* cancelled */ });
        return job;
      });
      return () => { cancelled = true; for (const j of jobs) j.cancel(); };
    }
    const t = setTimeout(() => { for (const p of panes) if (!cancelled) setTotal(p, wholeRunOf(p.engine)); }, 0);
    return () => { cancelled = true; clearTimeout(t); };
  }, [key]);
}
