// The scheduler's state is declared once (SLOT_FIELDS in src/sim/units/scheduler.ts; the other
// units' Fields): enter() resets every declared slot field it does not set to the declared value,
// save() holds every field, and a keyed field changes the steady-state key while an omitted one
// does not.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Core } from '../../src/sim/core.js';
import { SLOT_FIELDS, ST_DONE, ST_LOADING } from '../../src/sim/units/scheduler.js';
import type { SlotArrays } from '../../src/sim/units/scheduler.js';
import { KeyWriter } from '../../src/sim/units/state.js';
import { REFINED_MECHANISMS, SUACA_MECHANISMS } from '../../src/sim/index.js';
import type { MechanismSet } from '../../src/sim/index.js';
import { SKL, variants, withRefinedFacts } from './generated.js';
import { refinedProgram } from './generatedRefined.js';
import type { SimProgram } from '../../src/sim/types.js';

const NAMES = Object.keys(SLOT_FIELDS) as (keyof SlotArrays)[];

/** The execution side's random facts with the front end's on the same lines (as runKey.test.ts). */
function programOf(seed: number): SimProgram {
  const be = refinedProgram(seed);
  const fe = withRefinedFacts(be, seed, SKL.arch);
  return {
    deps: be.deps,
    instructions: fe.instructions.map((x, i) => {
      const b = be.instructions[i]!.refined!;
      return { ...x, refined: { ...x.refined!, idiom: b.idiom, moveElimination: b.moveElimination, memory: b.memory } };
    }),
  };
}

function coreAt(mechanisms: MechanismSet, cycles: number): Core {
  const core = new Core(
    programOf(3),
    SKL,
    { iterations: 200, variant: { ...variants[0]!, perfectFrontEnd: true } },
    { mechanisms },
  );
  for (let c = 0; c < cycles; c++) core.step();
  // a moment with several instances in flight
  while (core.frontEnd.next - core.scheduler.head < 4) core.step();
  return core;
}

function keyOf(core: Core): number[] {
  const out = new KeyWriter();
  core.writeKey(out);
  return Array.from(out.k.subarray(0, out.x));
}

test("enter() gives a slot every declared field's value (garbage left before)", () => {
  for (const mechanisms of [SUACA_MECHANISMS, REFINED_MECHANISMS]) {
    const core = coreAt(mechanisms, 30);
    const rs = core.scheduler,
      maxU = core.cp.maxU;
    const g = core.frontEnd.next + 1,
      s = g & rs.mask;
    const arrays = rs as unknown as Record<keyof SlotArrays, Int32Array | Uint8Array>;
    for (const name of NAMES) {
      const w = SLOT_FIELDS[name].perUop ? maxU : 1;
      for (let u = 0; u < w; u++) arrays[name][s * w + u] = 77;
    }
    rs.enter(g, g % core.cp.n, Math.floor(g / core.cp.n));
    let checked = 0;
    for (const name of NAMES) {
      const f = SLOT_FIELDS[name];
      if (f.when !== undefined && !f.when(rs)) continue;
      const w = f.perUop ? maxU : 1;
      for (let u = 0; u < w; u++) {
        const v = arrays[name][s * w + u];
        if (name === 'line') assert.equal(v, g % core.cp.n);
        else if (name === 'iteration') assert.equal(v, Math.floor(g / core.cp.n));
        else if (name === 'status') assert.equal(v, ST_LOADING);
        else if (name === 'zeroLat') assert.ok(v === 0 || v === 1, `zeroLat ${v}`);
        else assert.equal(v, f.fill, `${name} after enter`);
        checked++;
      }
    }
    // every field but those keyed only when their part is in use (SLOT_FIELDS' `when`)
    const conditional = NAMES.filter((n) => SLOT_FIELDS[n].when !== undefined).length;
    assert.ok(checked >= NAMES.length - conditional, `${checked} values checked`);
  }
});

test('save() holds every declared field; a keyed slot field changes the key, an omitted one does not', () => {
  const core = coreAt({ ...REFINED_MECHANISMS }, 40);
  const rs = core.scheduler;
  const saved = core.save().scheduler as unknown as Record<string, unknown>;
  for (const name of NAMES) assert.ok(saved[name] instanceof Int32Array || saved[name] instanceof Uint8Array, name);
  // an instance in flight that is not done
  let g = rs.head;
  while (rs.status[g & rs.mask] === ST_DONE) g++;
  const s = g & rs.mask;
  const base = keyOf(core);
  const arrays = rs as unknown as Record<keyof SlotArrays, Int32Array | Uint8Array>;
  let keyed = 0;
  for (const name of NAMES) {
    const f = SLOT_FIELDS[name];
    const w = f.perUop ? core.cp.maxU : 1;
    const old = arrays[name][s * w]!;
    // a value the key tells apart from the old one (nextLook and accounted only while waiting on a
    // dependency, start only while executing: those keep their key here)
    arrays[name][s * w] = old + 3;
    const changed = keyOf(core).join() !== base.join();
    arrays[name][s * w] = old;
    if (typeof f.key === 'object' || (f.when !== undefined && !f.when(rs)))
      assert.equal(changed, false, `${name} is not keyed`);
    else if (typeof f.key !== 'function') {
      assert.equal(changed, true, `${name} is keyed`);
      keyed++;
    }
  }
  assert.ok(keyed >= 6, `${keyed} keyed fields checked`);
  assert.deepEqual(keyOf(core), base);
});
