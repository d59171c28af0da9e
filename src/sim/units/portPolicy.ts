// Port selection as a policy: which port a µop asks the ports unit for, and when it is chosen.
//  - LeastUsedAtDispatch (SUACA's model, thesis Algorithm 5): at dispatch, the least used free port
//    the µop may use, ties to the lower port number.
//  - AssignedAtIssue (the refined model's portChoice; uiCA paper, Abel & Reineke 2022, port
//    assignment): each µop is bound, as it enters the station, to the port with the fewest µops
//    assigned and not dispatched yet, and dispatches only there.
// The scheduler asks `assign` as µops enter (policies that assign at dispatch return -1) and
// `dispatch` per µop; the factory (parts.ts) picks the policy.

import type { CompiledProgram } from '../compiled.js';
import type { Ports } from './ports.js';
import { restoreFields, saveFields, shiftFields, writeFieldsKey } from './state.js';
import type { Fields, KeyAt, KeyWriter, Periods, StatefulUnit } from './state.js';

export interface PortPolicyState {
  /** AssignedAtIssue: per port index, µops assigned to it and not dispatched yet */
  queued?: Int32Array;
}

export interface PortPolicy extends StatefulUnit<PortPolicyState> {
  /** ports are chosen as µops enter the station (the scheduler keeps them per µop) */
  readonly atIssue: boolean;
  /** µop u of line i enters the station: its port index (atIssue), else -1 */
  assign(i: number, u: number): number;
  /** µop u of instance g (line i) asks for a port in cycle c (`assigned`: what `assign` gave it):
   *  the port index taken, or -1 (Ports.lastBlocked says which ports refused it) */
  dispatch(g: number, i: number, u: number, assigned: number, c: number): number;
}

/** SUACA's port choice at dispatch (Algorithm 5). */
export class LeastUsedAtDispatch implements PortPolicy {
  readonly atIssue = false;
  // the compiled program's tables this policy reads per µop, as its own fields
  private readonly div: Int32Array;
  private readonly divUop: Int32Array;
  private readonly uopMask: Int32Array;
  private readonly maxU: number;

  constructor(
    cp: CompiledProgram,
    private readonly ports: Ports,
  ) {
    ports.orderKeyed = true;
    this.div = cp.div;
    this.divUop = cp.divUop;
    this.uopMask = cp.uopMask;
    this.maxU = cp.maxU;
  }

  assign(): number {
    return -1;
  }

  dispatch(g: number, i: number, u: number, _assigned: number, c: number): number {
    const ports = this.ports;
    // the divider's µop: Algorithm 5 with the divider's rule
    if (this.div[i]! > 0 && this.divUop[i] === u) return ports.choose(g, i, u, c);
    const m = this.uopMask[i * this.maxU + u]!;
    if ((m & ~ports.heldByOthers(g)) === 0) {
      ports.lastBlocked = m;
      return -1;
    }
    // a port of its mask is free now: choose takes the first in port order
    const free = m & ~ports.full;
    return free !== 0 ? ports.takeFree(g, i, u, free) : ports.choose(g, i, u, c);
  }

  shift(): void {}
  save(): PortPolicyState {
    return {};
  }
  restore(): void {}
  writeKey(): void {}
}

const ISSUE_FIELDS: Fields<AssignedAtIssue, Required<PortPolicyState>> = {
  queued: { move: 'stays', key: 'value' },
};

/** Port choice at issue (the uiCA paper's port assignment). */
export class AssignedAtIssue implements PortPolicy {
  readonly atIssue = true;
  queued: Int32Array;

  constructor(
    private readonly cp: CompiledProgram,
    private readonly ports: Ports,
  ) {
    this.queued = new Int32Array(cp.P);
    // dispatch never reads the port order: it need not repeat for the run to be periodic
    ports.orderKeyed = false;
  }

  /** the port with the fewest µops queued among the µop's, taken; ties go to the lower port
   *  number (docs/engine.md says why) */
  assign(i: number, u: number): number {
    const cp = this.cp;
    const m = cp.uopMask[i * cp.maxU + u]!;
    const q = this.queued;
    let best = -1,
      bestQ = 0;
    // the mask's ports in index order (lowest set bit first); ties keep the lower port
    for (let r = m; r !== 0; r &= r - 1) {
      const p = 31 - Math.clz32(r & -r);
      const qp = q[p]!;
      if (best < 0 || qp < bestQ) {
        best = p;
        bestQ = qp;
      }
    }
    if (best >= 0) q[best]!++;
    return best;
  }

  /** the assigned port when it is free (the oldest ready µop of each port goes first: the
   *  scheduler visits the station in program order) */
  dispatch(g: number, i: number, u: number, assigned: number, c: number): number {
    const cp = this.cp,
      ports = this.ports;
    const isDivUop = cp.div[i]! > 0 && cp.divUop[i] === u;
    if (!isDivUop && assigned >= 0 && (ports.heldByOthers(g) & (1 << assigned)) !== 0) {
      ports.lastBlocked = 1 << assigned;
      return -1;
    }
    const p = ports.takePort(g, i, u, assigned, c);
    if (p >= 0) this.queued[p]!--;
    return p;
  }

  shift(by: Periods): void {
    shiftFields(this, ISSUE_FIELDS, by);
  }
  save(): PortPolicyState {
    return saveFields(this, ISSUE_FIELDS);
  }
  restore(s: PortPolicyState): void {
    restoreFields(this, ISSUE_FIELDS, s as Required<PortPolicyState>);
  }
  writeKey(at: KeyAt, out: KeyWriter): void {
    writeFieldsKey(this, ISSUE_FIELDS, at, out);
  }
}
