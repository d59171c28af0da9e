// Snapshots by cycle for one pane, so that stepping back is as quick as stepping forward.
// Snapshots are immutable plain data: a cached one is exactly what the engine would return again.
import type { Engine, LineDetail, Snapshot } from '../sim/types.js';

export class PaneCursor {
  private cache = new Map<number, Snapshot>();

  constructor(
    readonly engine: Engine,
    private readonly limit = 512,
    private readonly window = 16,
  ) {}

  private put(s: Snapshot): Snapshot {
    this.cache.delete(s.cycle);
    this.cache.set(s.cycle, s);
    if (this.cache.size > this.limit) this.cache.delete(this.cache.keys().next().value!);
    return s;
  }

  /**
   * One slice of the work `at(cycle)` needs: moves the engine toward it simulating at most
   * `budget` cycles. True when `at(cycle)` will answer with a window's steps at most, so that a
   * long seek can run in slices between frames (and be abandoned: the engine then simply stands
   * somewhere in between, which `at` does not mind).
   */
  prepare(cycle: number, budget: number): boolean {
    const c = Math.max(0, Math.floor(cycle));
    if (this.cache.has(c)) return true;
    const cur = this.engine.snapshot();
    if (c === cur.cycle || (c > cur.cycle && (cur.finished || c - cur.cycle <= this.window))) return true;
    const target = c > cur.cycle ? c : Math.max(0, c - this.window);
    const s = this.engine.seekToward(target, budget);
    return s.cycle === target || s.finished;
  }

  /** The snapshot at `cycle` (clamped to the run by the engine). */
  at(cycle: number): Snapshot {
    const c = Math.max(0, Math.floor(cycle));
    const hit = this.cache.get(c);
    if (hit) return this.put(hit);
    let cur = this.engine.snapshot();
    if (c === cur.cycle) return this.put(cur);
    if (c > cur.cycle) {
      if (cur.finished) return this.put(cur);
      // far forward: the engine runs without building the snapshots in between
      if (c - cur.cycle > this.window) return this.put(this.engine.seek(c));
    } else {
      // backward: seek a little further back and step up, so the next steps back are cached
      cur = this.put(this.engine.seek(Math.max(0, c - this.window)));
    }
    while (cur.cycle < c && !cur.finished) cur = this.put(this.engine.step());
    return cur;
  }

  /**
   * The detail (thesis §2.6) of `line` as of `cycle`: the engine is first brought to that cycle
   * (it may stand elsewhere: the cache answers steps back without moving it). Memoized per
   * cycle and line.
   */
  detailAt(cycle: number, line: number): LineDetail {
    const key = `${cycle}:${line}`;
    if (this.detailKey === key && this.detailValue) return this.detailValue;
    if (this.engine.snapshot().cycle !== cycle) this.engine.seek(cycle);
    this.detailKey = key;
    this.detailValue = this.engine.detail(line);
    return this.detailValue;
  }

  private detailKey = '';
  private detailValue: LineDetail | null = null;
}
