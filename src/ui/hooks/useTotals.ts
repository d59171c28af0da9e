import { useEffect } from 'react';
import type { Offload, PaneInfo } from '../types.js';

/**
 * Each pane's run length, once the first frame is on screen: in a worker when the session offers
 * one, else on the UI thread after the frame. A new `key` (other panes) starts over.
 */
export function useTotals(key: string, panes: PaneInfo[], iterations: number, offload: Offload | undefined,
  setTotal: (pane: PaneInfo, total: number) => void): void {
  useEffect(() => {
    let cancelled = false;
    if (offload) {
      const jobs = panes.map((p) => {
        const job = offload.totalCycles(p.spec, iterations);
        job.promise.then((n) => { if (!cancelled) setTotal(p, n); }, () => { /* cancelled */ });
        return job;
      });
      return () => { cancelled = true; for (const j of jobs) j.cancel(); };
    }
    const t = setTimeout(() => { for (const p of panes) if (!cancelled) setTotal(p, p.engine.totalCycles()); }, 0);
    return () => { cancelled = true; clearTimeout(t); };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}
