// The divider unit (thesis §3.6): one instance at a time occupies it for the instruction's divider
// cycles; the port it sits on stays usable by other µops.

/** Bit of a station entry's port-block mask (Scheduler.portBlock) that means "blocked by the
 *  divider" (port indices use the bits below it). */
export const DIVIDER_BLOCK_BIT = 1 << 30;

export interface DividerState {
  /** last cycle it is busy */
  busyUntil: number;
  /** instance number occupying it, or -1 */
  owner: number;
}

export class Divider implements DividerState {
  busyUntil = 0;
  owner = -1;

  /** does the divider keep instance g from starting its divider µop in cycle c? */
  blocks(g: number, c: number): boolean {
    return this.busyUntil >= c && this.owner !== g;
  }

  /** instance g takes the divider in cycle c for `cycles` cycles */
  occupy(g: number, c: number, cycles: number): void {
    this.busyUntil = c + cycles - 1;
    this.owner = g;
  }

  /** busy in cycle c (c > 0: nothing runs before the first cycle) */
  busyAt(c: number): boolean {
    return this.owner >= 0 && this.busyUntil >= c && c > 0;
  }

  /** move forward by dg instances and dc cycles (steady.ts) */
  shift(dg: number, dc: number): void {
    this.busyUntil += dc;
    if (this.owner >= 0) this.owner += dg;
  }

  save(): DividerState { return { busyUntil: this.busyUntil, owner: this.owner }; }
  restore(s: DividerState): void { this.busyUntil = s.busyUntil; this.owner = s.owner; }
}
