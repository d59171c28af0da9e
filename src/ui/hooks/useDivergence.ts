import { useEffect, useState } from 'react';
import type { Engine } from '../../sim/types.js';
import { continueScan, startScan, type Divergence } from '../compare.js';

/**
 * First cycle at which two panes differ, searched on fresh engines in slices between frames so
 * that keys stay responsive. `make` builds the pair; a new `key` restarts the search.
 */
export function useDivergence(key: string, make: (() => [Engine, Engine]) | null, chunk = 256): Divergence | undefined {
  const [result, setResult] = useState<Divergence | undefined>(undefined);
  useEffect(() => {
    if (!make) { setResult(undefined); return; }
    let cancelled = false;
    const [a, b] = make();
    const scan = startScan(a, b);
    setResult(scan.result);
    const tick = () => {
      if (cancelled) return;
      const r = continueScan(scan, chunk);
      setResult(r);
      if (r.kind === 'searching') setTimeout(tick, 0);
    };
    if (scan.result.kind === 'searching') setTimeout(tick, 0);
    return () => { cancelled = true; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return result;
}
