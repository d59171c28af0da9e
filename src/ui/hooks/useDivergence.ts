import { useEffect, useState } from 'react';
import type { Engine } from '../../sim/types.js';
import { continueScan, startScan, type Divergence } from '../compare.js';
import type { Offload, PaneSpec } from '../types.js';

export interface DivergenceRequest {
  a: PaneSpec;
  b: PaneSpec;
  iterations: number;
  /** fresh engines for the in-thread search (when there is no offload) */
  make(): [Engine, Engine];
}

/**
 * First cycle at which two panes differ: in a worker when the session offers one, else on fresh
 * engines in small slices between frames so that keys stay responsive. A new `key` restarts it.
 */
export function useDivergence(key: string, req: DivergenceRequest | null, offload: Offload | undefined, chunk = 32): Divergence | undefined {
  const [result, setResult] = useState<Divergence | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names the request; the request object is new on every render
  useEffect(() => {
    if (!req) { setResult(undefined); return; }
    let cancelled = false;
    setResult({ kind: 'searching', upTo: 0 });
    if (offload) {
      const job = offload.divergence(req.a, req.b, req.iterations);
      job.promise.then((r) => { if (!cancelled) setResult(r); }, () => { /* cancelled or failed: stays 'searching' */ });
      return () => { cancelled = true; job.cancel(); };
    }
    const [a, b] = req.make();
    const scan = startScan(a, b);
    let slices = 0;
    const tick = () => {
      if (cancelled) return;
      const r = continueScan(scan, chunk);
      if (r.kind !== 'searching' || ++slices % 16 === 0) setResult(r);
      if (r.kind === 'searching') setTimeout(tick, 0);
    };
    if (scan.result.kind === 'searching') setTimeout(tick, 0); else setResult(scan.result);
    return () => { cancelled = true; };
  }, [key]);
  return result;
}
