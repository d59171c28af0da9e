// The characterization on this machine (the native harness): a handful of figures every x86-64
// core of the last decade shares — add and imul register chains (latency 1 and 3), a load-to-use
// chain (4 or 5 cycles with a simple address) — come out of the same inference the virtual CPU's
// tests check. Skipped, with the reason, where the harness cannot run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHarness } from '../../../src/measure/harness.js';
import { NativeRunner } from '../../../src/measure/characterize/nativeRunner.js';
import { characterizeForm } from '../../../src/measure/characterize/characterize.js';
import { characterizeMachine, DEFAULT_BLOCKERS } from '../../../src/measure/characterize/machine.js';
import { formOf } from '../../../src/measure/characterize/forms.js';
import { decodeRegion } from '../../../src/disasm/decode.js';

const cache = mkdtempSync(join(tmpdir(), 'uopscope-characterize-'));
process.on('exit', () => rmSync(cache, { recursive: true, force: true }));

function why(): string | false {
  if (process.platform !== 'linux' || process.arch !== 'x64') return 'Linux x86-64 only';
  try {
    ensureHarness({ cacheDir: cache });
  } catch (e) {
    return `the harness cannot be built here: ${(e as Error).message}`;
  }
  return false;
}
const skip = why();

test('add, imul and load-to-use chains on this host', { skip }, () => {
  const runner = new NativeRunner({ cacheDir: cache });
  const machine = characterizeMachine(runner, DEFAULT_BLOCKERS);
  const form = (hex: string) => {
    const f = formOf(decodeRegion(Uint8Array.from(Buffer.from(hex, 'hex')), 0, 64, 'test')[0]!);
    assert.ok('form' in f);
    return characterizeForm(runner, f.form, { machine, blockers: DEFAULT_BLOCKERS });
  };
  const self = (hex: string) => form(hex).latencies.find((l) => l.from.startsWith('op0') && l.to.startsWith('op0'))!;
  // loose bounds: a shared machine; the lowest quiet run is kept. A figure every run of which the
  // contention canary dropped is no figure, and says so
  const within = (f: { value: number; inconsistent?: string }, lo: number, hi: number, what: string) => {
    if (Number.isNaN(f.value)) assert.match(f.inconsistent ?? '', /contention canary read high/, what);
    else assert.ok(f.value >= lo && f.value <= hi, `${what}: ${f.value}`);
  };
  within(self('4801d8'), 0.85, 1.3, 'add rax, rbx chain');
  within(self('480fafc3'), 2.7, 3.5, 'imul rax, rbx chain');
  within(machine.loadToUse, 3.6, 5.6, 'mov rax, [rax] chain');
});
