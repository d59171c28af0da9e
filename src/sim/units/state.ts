// A unit's state declared once. Each field of a unit says how steady.ts moves it forward by whole
// periods (`move`) and what it adds to the steady-state key (`key`); saving, restoring, moving and
// keying a unit are derived from that declaration, so a field cannot be saved but not moved, or
// moved but not keyed, without the declaration saying so (and why, for a field left out of the key).
// The scheduler's per-instance arrays (its ring) are declared the same way in units/scheduler.ts.

/** The numbers a unit's key is relative to: the oldest unfinished instance and the cycle. */
export interface KeyAt {
  head: number;
  cycle: number;
  /** lines of the program */
  n: number;
}

/** Where a key is written: `k[x++] = v`, grown as needed. */
export class KeyWriter {
  k = new Int32Array(1024);
  x = 0;
  put(v: number): void {
    if (this.x === this.k.length) {
      const k = new Int32Array(this.k.length * 2);
      k.set(this.k);
      this.k = k;
    }
    this.k[this.x++] = v;
  }
  /** room for `more` values written directly at k[x..] */
  reserve(more: number): Int32Array {
    if (this.x + more > this.k.length) {
      let len = this.k.length * 2;
      while (len < this.x + more) len *= 2;
      const k = new Int32Array(len);
      k.set(this.k.subarray(0, this.x));
      this.k = k;
    }
    return this.k;
  }
}

/** What a period adds to a value (steady.ts): instances, cycles and iterations. */
export interface Periods {
  dg: number;
  dc: number;
  dk: number;
}

/** How a value moves by whole periods: not at all, or by the instances, cycles or iterations
 *  skipped; `except`: a sentinel value that stays (e.g. -1 for "not started"). */
type Move<U = unknown> =
  | 'stays'
  | { by: 'instance' | 'cycle' | 'iteration'; except?: number }
  | ((unit: U, by: Periods) => void);

/** A field's part of the key: its value, its value relative to the head instance or to the cycle,
 *  a function of the unit, or nothing — `{ omit: why }` (derived from other fields, or not read
 *  by any later cycle). */
type Key<U> = 'value' | 'fromHead' | 'toCycle' | { omit: string } | ((unit: U, at: KeyAt, out: KeyWriter) => void);

interface Field<U> {
  move: Move<U>;
  key: Key<U>;
}

/** Every saved field of a unit with its move and key; the state type is the fields' names. */
export type Fields<U, S> = { readonly [K in keyof S]: Field<U> };

type Num = number | Int32Array | Uint8Array | Float64Array;

function isArray(v: Num): v is Int32Array | Uint8Array | Float64Array {
  return typeof v !== 'number';
}

/** The unit's state by name: numbers copied, arrays copied. */
export function saveFields<U, S>(unit: U, fields: Fields<U, S>): S {
  const out = {} as Record<string, Num>;
  const u = unit as unknown as Record<string, Num>;
  for (const name of Object.keys(fields)) {
    const v = u[name]!;
    out[name] = isArray(v) ? v.slice() : v;
  }
  return out as S;
}

/** Put a saved state back (arrays copied: the saved state stays as it was). */
export function restoreFields<U, S>(unit: U, fields: Fields<U, S>, st: S): void {
  const u = unit as unknown as Record<string, Num>;
  const s = st as unknown as Record<string, Num>;
  for (const name of Object.keys(fields)) {
    const v = s[name]!;
    u[name] = isArray(v) ? v.slice() : v;
  }
}

/** value v moved by `move` over periods `by` */
function moved(v: number, move: Exclude<Move, 'stays' | ((...a: never[]) => void)> | 'stays', by: Periods): number {
  if (move === 'stays' || v === move.except) return v;
  return v + (move.by === 'instance' ? by.dg : move.by === 'cycle' ? by.dc : by.dk);
}

/** Move every field of the unit by whole periods (arrays element by element). */
export function shiftFields<U, S>(unit: U, fields: Fields<U, S>, by: Periods): void {
  const u = unit as unknown as Record<string, Num>;
  for (const [name, f] of Object.entries(fields) as [string, Field<U>][]) {
    const move = f.move;
    if (move === 'stays') continue;
    if (typeof move === 'function') {
      move(unit, by);
      continue;
    }
    const v = u[name]!;
    if (isArray(v)) for (let x = 0; x < v.length; x++) v[x] = moved(v[x]!, move, by);
    else u[name] = moved(v, move, by);
  }
}

/** One value's part of the key. */
function keyOf(v: number, key: 'value' | 'fromHead' | 'toCycle', at: KeyAt): number {
  return key === 'value' ? v : key === 'fromHead' ? v - at.head : v - at.cycle;
}

/** Write the unit's part of the key, field by field in declaration order. */
export function writeFieldsKey<U, S>(unit: U, fields: Fields<U, S>, at: KeyAt, out: KeyWriter): void {
  const u = unit as unknown as Record<string, Num>;
  for (const [name, f] of Object.entries(fields) as [string, Field<U>][]) {
    const key = f.key;
    if (typeof key === 'function') {
      key(unit, at, out);
      continue;
    }
    if (typeof key === 'object') continue;
    const v = u[name]!;
    if (isArray(v)) for (let x = 0; x < v.length; x++) out.put(keyOf(v[x]!, key, at));
    else out.put(keyOf(v, key, at));
  }
}

/** What every unit of the core does with its state (derived from its Fields declaration). */
export interface StatefulUnit<S> {
  save(): S;
  restore(s: S): void;
  /** move forward by whole periods (steady.ts) */
  shift(by: Periods): void;
  /** its part of the steady-state key */
  writeKey(at: KeyAt, out: KeyWriter): void;
}
