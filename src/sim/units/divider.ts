// The divider unit (thesis §3.6): one instance at a time occupies it for the instruction's divider
// cycles; the port it sits on stays usable by other µops.

import { restoreFields, saveFields, shiftFields, writeFieldsKey } from './state.js';
import type { Fields, KeyAt, KeyWriter, Periods, StatefulUnit } from './state.js';

/** Bit of a station entry's port-block mask (Scheduler.portBlock) that means "blocked by the
 *  divider" (port indices use the bits below it). */
export const DIVIDER_BLOCK_BIT = 1 << 30;

export interface DividerState {
  /** last cycle it is busy */
  busyUntil: number;
  /** instance number occupying it, or -1 */
  owner: number;
}

const FIELDS: Fields<Divider, DividerState> = {
  // busy in the next cycle when busyUntil − cycle ≥ 1; the owner matters only then
  busyUntil: {
    move: { by: 'cycle' },
    key: (d, at, out) => {
      const b = d.busyUntil - at.cycle;
      out.put(b > 0 ? b : 0);
    },
  },
  owner: {
    move: { by: 'instance', except: -1 },
    key: (d, at, out) => out.put(d.busyUntil - at.cycle > 0 ? d.owner - at.head : 0),
  },
};

export class Divider implements DividerState, StatefulUnit<DividerState> {
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

  shift(by: Periods): void {
    shiftFields(this, FIELDS, by);
  }
  save(): DividerState {
    return saveFields(this, FIELDS);
  }
  restore(s: DividerState): void {
    restoreFields(this, FIELDS, s);
  }
  writeKey(at: KeyAt, out: KeyWriter): void {
    writeFieldsKey(this, FIELDS, at, out);
  }
}
