// Reference implementations of the core's units, for the tests that check the production units
// against them (they replace the factory's units through ModelOptions.units; the engine has one
// walk, these live here):
//  - WalkScheduler: the scheduler walking every waiting instance each cycle in program order and
//    asking Ports.choose (Algorithm 5) or Ports.takePort directly — the thesis's pseudo code,
//    without the timing wheel, the woken list and the port policies' refusal shortcuts;
//  - EagerScheduler / EagerWalkScheduler: a dependency-blocked instance looked at every cycle (its
//    waits accounted cycle by cycle) instead of asleep until a producer can release it;
//  - UncachedPorts: every blocked instance's holders looked up (no blame cache).

import { Scheduler, ST_DONE, ST_LOADING } from '../../src/sim/units/scheduler.js';
import { Ports } from '../../src/sim/units/ports.js';
import type { AssignedAtIssue } from '../../src/sim/units/portPolicy.js';
import type { ModelOptions } from '../../src/sim/core.js';

export class WalkScheduler extends Scheduler {
  protected override entered(g: number): void {
    this.waiting[this.waitingLen++] = g;
  }
  override syncWaiting(): void {}
  override relink(): void {}
  protected override woken(): void {}

  /** Algorithms 4 and 5 (+ §3.6): walk the station in program order in cycle c. */
  override dispatch(c: number): void {
    const cp = this.cp;
    const maxU = cp.maxU;
    const wl = this.waiting,
      wLen = this.waitingLen,
      mask = this.mask;
    let keep = 0;
    for (let w = 0; w < wLen; w++) {
      const g = wl[w]!;
      wl[keep++] = g; // stays unless it starts below
      const s = g & mask;
      if (this.nextLook[s]! > c) continue; // still blocked on the same producers (accounted lazily)
      const i = this.line[s]!,
        k = this.iteration[s]!;
      if (!this.noDeps && this.depBlocked(s, i, k, c)) continue;
      this.depWait[s] = 0;
      this.portBlock[s] = 0;
      const ld = this.loaded[s]!;
      if (this.renames && this.zeroLat[s] === 1) {
        if (ld === cp.uops[i]!) {
          this.start[s] = c;
          this.status[s] = ST_DONE;
          this.completed++;
          this.used -= ld;
          keep--;
          this.wake(g, i, k, c);
          continue;
        }
        this.status[s] = ST_LOADING;
        this.rec.onWait(i, 1);
        this.waited[s]!++;
        continue;
      }
      let ok = ld === cp.uops[i]!;
      let blocked = 0;
      for (let u = 0; u < ld; u++) {
        const x = s * maxU + u;
        if (this.uopPort[x]! >= 0) continue;
        const p = this.atIssue ? this.takeAssigned(g, i, u, this.uopQueue[x]!, c) : this.ports.choose(g, i, u, c);
        if (p < 0) {
          ok = false;
          blocked |= this.ports.lastBlocked;
          continue;
        }
        this.uopPort[x] = p;
        this.assigned[s]!++;
        this.rec.onAssigned(i, p);
        this.used--;
      }
      if (ok) {
        keep--;
        this.begin(g, s, i, c);
        continue;
      }
      this.holdBack(g, s, i, blocked, ld === cp.uops[i]!);
    }
    this.waitingLen = keep;
  }

  /** the port assigned at issue, when free (no refusal shortcut) */
  private takeAssigned(g: number, i: number, u: number, q: number, c: number): number {
    const p = this.ports.takePort(g, i, u, q, c);
    if (p >= 0) (this.policy as AssignedAtIssue).queued[p]!--;
    return p;
  }
}

export class EagerScheduler extends Scheduler {
  protected override nextLookAfter(_next: number, _preds: number, c: number): number {
    return c + 1;
  }
}

export class EagerWalkScheduler extends WalkScheduler {
  protected override nextLookAfter(_next: number, _preds: number, c: number): number {
    return c + 1;
  }
}

export class UncachedPorts extends Ports {
  protected override cachedBlame(): number {
    return -1;
  }
  protected override fillBlame(): void {}
}

/** The production scheduler with eager wait accounting. */
export const EAGER: ModelOptions = { units: { scheduler: EagerScheduler } };

const isEager = (model: ModelOptions): boolean => {
  const s = model.units?.scheduler;
  return s === EagerScheduler || s === EagerWalkScheduler;
};

/** `model` with the walk over every waiting instance (its wait accounting kept). */
export function walkOf(model: ModelOptions): ModelOptions {
  return { ...model, units: { ...model.units, scheduler: isEager(model) ? EagerWalkScheduler : WalkScheduler } };
}

/** `model` with the production scheduler (its wait accounting kept). */
export function eventsOf(model: ModelOptions): ModelOptions {
  return { ...model, units: { ...model.units, scheduler: isEager(model) ? EagerScheduler : Scheduler } };
}

/** `model` with the blame cache off. */
export function uncachedOf(model: ModelOptions): ModelOptions {
  return { ...model, units: { ...model.units, ports: UncachedPorts } };
}
