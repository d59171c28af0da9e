// Issue 10, defect 6, in the engine: a figure that does not fit its Int32Array is refused, never
// wrapped (2^32 cycles used to become 0, and `add rax, rax` twice then ran at 0.50 cycles).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CompiledProgram } from '../../src/sim/compiled.js';
import type { SimInstruction, SimProgram } from '../../src/sim/index.js';
import { MACHINES } from '../sim/thesisPrograms.js';

const I = (line: number, latency: number, divCycles = 0): SimInstruction => ({
  line,
  asm: `i${line}`,
  uops: [[0, 1]],
  latency,
  latencyByResource: {},
  divCycles,
  unknown: false,
});

test('defect 6: latencies and divider cycles beyond 2^31 − 1 are refused by the engine, not wrapped', () => {
  const SNB = MACHINES.SNB!;
  const prog = (ins: SimInstruction[]): SimProgram =>
    ({
      instructions: ins,
      deps: [
        { from: 0, to: 1, resource: 'RAX', loopCarried: false },
        { from: 1, to: 0, resource: 'RAX', loopCarried: true },
      ],
    }) as unknown as SimProgram;
  assert.doesNotThrow(() => new CompiledProgram(prog([I(0, 3), I(1, 3)]), SNB));
  assert.throws(() => new CompiledProgram(prog([I(0, 2 ** 32), I(1, 1)]), SNB), RangeError);
  assert.throws(() => new CompiledProgram(prog([I(0, 1, 2 ** 32), I(1, 1)]), SNB), /does not fit/);
  // before the check, 2^32 was stored as 0 (then counted as the engine's minimum of 1 cycle)
  assert.equal(new Int32Array([2 ** 32])[0], 0);
});
