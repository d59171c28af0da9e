// Work that grew faster than the input: the detail of every line scanned every line's
// dependency edges once per line (quadratic in the region), and tables and line lists were built
// with a spread of one argument per row, which overflows the call stack from ~125,000 rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINE, simulate, type SimInstruction, type SimProgram } from '../../src/sim/index.js';
import { MACHINES } from '../sim/thesisPrograms.js';
import { cli, tempDir } from './helpers.js';
import { layoutTable } from '../../src/report/format.js';

test('the detail of every line of a 40,000-line region costs the edges once, not once per line', () => {
  const n = 40_000;
  // a chain: each line reads the one before, so every line has partners
  const instructions: SimInstruction[] = Array.from({ length: n }, (_, line) => ({
    line,
    asm: `i${line}`,
    uops: [[0, 1]],
    latency: 1,
    latencyByResource: {},
    divCycles: 0,
    unknown: false,
  }));
  const program: SimProgram = {
    instructions,
    deps: Array.from({ length: n - 1 }, (_, k) => ({ from: k, to: k + 1, resource: 'RAX', loopCarried: false })),
  };
  const t0 = process.cpuUsage();
  const r = simulate(program, MACHINES.SNB!, { iterations: 1, variant: BASELINE });
  const cpu = process.cpuUsage(t0);
  const seconds = (cpu.user + cpu.system) / 1e6;
  assert.equal(r.details.length, n);
  assert.deepEqual(
    r.details[5]!.latencies.map((l) => l.line),
    [4, 6],
  );
  // linear: well under a second of CPU; one scan per line took 1.6 billion steps
  assert.ok(seconds < 4, `${seconds.toFixed(1)} s of CPU for ${n} lines`);
});

test('disasm of 130,000 instructions prints, not "Maximum call stack size exceeded"', { timeout: 600_000 }, () => {
  const dir = tempDir('growth');
  const file = join(dir, 'nops.s');
  writeFileSync(file, '.rept 130000\nnop\n.endr\n');
  const d = cli(['disasm', file, '--max-instructions', '200000'], { timeout: 300_000 });
  assert.equal(d.code, 0, d.err);
  assert.equal(d.out.trim().split('\n').length, 130_000 + 2);
});

test("a table of 200,000 rows (the text report's line table) lays out", () => {
  const rows = Array.from({ length: 200_000 }, (_, k) => [String(k), 'x'.repeat(k % 7)]);
  const lines = layoutTable(
    [
      { header: ['Line'], align: 'right' },
      { header: ['text'], align: 'left' },
    ],
    rows,
  );
  assert.equal(lines.length, 200_001);
  assert.equal(lines[1], '     0');
});
