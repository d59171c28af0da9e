// Numbers tell the truth about their origin: each embedded architecture is credited to the file
// that holds its figures; a division with a measured throughput but no divider figure is never
// simulated faster than measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listDataSources } from '../../src/data/sources.js';
import { loadArchData } from '../../src/data/index.js';
import { dividerCycles } from '../../src/data/resolve.js';
import { analyse } from '../../src/cli/pipeline.js';
import { simulate } from '../../src/sim/index.js';
import { BASELINE } from '../../src/sim/types.js';

test('data list credits ADL-P to the uops.info pages and SNB/SKL to the thesis, each with its file', async () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'uopscope-origins-'));
  try {
    const rows = listDataSources({ cacheDir });
    const adl = rows.find((r) => r.arch === 'ADL-P' && r.kind === 'embedded')!;
    assert.match(adl.date ?? '', /uops\.info pages/);
    assert.match(adl.path, /div\.xml$/);
    const skl = rows.find((r) => r.arch === 'SKL' && r.kind === 'embedded')!;
    assert.match(skl.date ?? '', /SUACA thesis/);
    assert.match(skl.path, /thesis-forms\.xml$/);
    const data = await loadArchData('ADL-P', { cacheDir });
    assert.match(data.source.date ?? '', /uops\.info pages/);
    assert.match(data.source.path, /div\.xml$/);
    // the compiled summary is shared by every install with the same files: it keeps file names
    // only, and the path shown is this install's (a clone elsewhere once showed another's path)
    const { embeddedDir, embeddedSummary } = await import('../../src/data/embedded.js');
    assert.deepEqual(embeddedSummary(cacheDir).origins['ADL-P']!.files, ['div.xml']);
    assert.equal(adl.path, join(embeddedDir(), 'div.xml'));
    assert.equal(data.source.path, join(embeddedDir(), 'div.xml'));
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test('a division with TP_loop but no div_cycles occupies the divider for its measured throughput', async () => {
  assert.deepEqual(dividerCycles('DIV', { tpLoop: 10 }), { cycles: 10, from: 'TP_loop' });
  assert.deepEqual(dividerCycles('DIV', { tpLoop: 10, divCycles: 6 }), { cycles: 6, from: 'div_cycles' });
  assert.deepEqual(dividerCycles('VDIVSD', { tpUnrolled: 4.5 }), { cycles: 5, from: 'TP_unrolled' });
  assert.deepEqual(dividerCycles('ADD', { tpLoop: 0.25 }), { cycles: 0, from: 'div_cycles' });
  // independent divisions (the dividend is set anew each iteration): ADL-P's DIV R64, TP_loop 10
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-div-'));
  try {
    const file = join(dir, 'div.s');
    writeFileSync(
      file,
      '.intel_syntax noprefix\n.globl f\nf:\n  mov ecx, 7\n.L:\n  mov eax, 100\n  xor edx, edx\n  div rcx\n  dec r8\n  jnz .L\n  ret\n',
    );
    const a = await analyse({ file, arch: 'ADL-P', fallback: 'alu' });
    const div = a.resolved.find((r) => r.form?.asm === 'DIV')!;
    assert.equal(div.divCycles, 10);
    assert.equal(div.divCyclesFrom, 'TP_loop');
    const st = simulate(a.program, a.params, { iterations: 200, variant: BASELINE }).stats;
    assert.ok(st.blockThroughput >= 10, `${st.blockThroughput} c/iter is faster than the measured 10`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
