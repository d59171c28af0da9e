// The front end unit (thesis Algorithm 3): µops enter the station in program order, up to the
// issue width and the station's free space per cycle. An instruction may be split across cycles.
// `limit()` is the one place that says how many µops may enter this cycle; a front end with its
// own delivery limits (fused-domain counting, decoders, µop cache, loop stream detector) changes
// `limit()` and what `load` counts, and keeps the rest.

import type { CompiledProgram } from '../compiled.js';
import type { Scheduler } from './scheduler.js';

export interface FrontEndState {
  /** the next instance to load (g = iteration·n + line) */
  next: number;
  /** its µops loaded so far */
  loaded: number;
  /** next % n */
  line: number;
  /** next / n */
  iteration: number;
  /** µops loaded in the last cycle */
  loadedThisCycle: number;
}

export class FrontEnd implements FrontEndState {
  next = 0;
  loaded = 0;
  line = 0;
  iteration = 0;
  loadedThisCycle = 0;

  constructor(private readonly cp: CompiledProgram, readonly N: number, readonly width: number) {}

  /** Is instance g at least partially loaded (in the station or beyond)? */
  isLoaded(g: number): boolean {
    return g < this.next || (g === this.next && this.loaded > 0);
  }

  /** µops that may enter the station this cycle */
  limit(rs: Scheduler): number {
    return Math.min(this.width, rs.capacity - rs.used);
  }

  /** Algorithm 3: load µops in program order into the station. */
  load(rs: Scheduler): void {
    const cp = this.cp;
    let loadable = this.limit(rs);
    this.loadedThisCycle = 0;
    while (this.next < this.N) {
      const g = this.next;
      const i = this.line;
      const u = cp.uops[i]!;
      if (this.loaded === 0) {
        if (u > 0 && loadable <= 0) break;
        rs.enter(g, i, this.iteration);
      }
      const take = Math.min(u - this.loaded, loadable);
      this.loaded += take;
      rs.loadUops(g, this.loaded, take);
      loadable -= take;
      this.loadedThisCycle += take;
      if (this.loaded >= u) {
        this.next++; this.loaded = 0;
        if (++this.line === cp.n) { this.line = 0; this.iteration++; }
      } else break;
    }
  }

  /** move forward by dg instances (= dk iterations; steady.ts) */
  shift(dg: number, dk: number): void {
    this.next += dg;
    this.iteration += dk;
  }

  save(): FrontEndState {
    return { next: this.next, loaded: this.loaded, line: this.line, iteration: this.iteration, loadedThisCycle: this.loadedThisCycle };
  }

  restore(s: FrontEndState): void {
    this.next = s.next; this.loaded = s.loaded; this.line = s.line; this.iteration = s.iteration; this.loadedThisCycle = s.loadedThisCycle;
  }
}
