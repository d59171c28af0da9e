// Issue 8, proof (c): where the SUACA thesis prints a figure for a Sandy Bridge or Skylake form
// (assets/uarch/embedded/thesis-forms.xml), the thesis's figure is the one used — the LLVM model
// comes after it — and this test lists every place the LLVM model differs from it, so that a
// change in either shows up here (docs/data.md, "The thesis's forms and the LLVM model").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRegion } from '../../src/disasm/index.js';
import { loadArchData, resolveInstructions } from '../../src/data/index.js';
import { entryLatency } from '../../src/data/resolve.js';
import { formatPorts } from '../../src/data/ports.js';

const EXAMPLES = ['branch', 'six-mov', 'adc-chain'].map((f) =>
  join(import.meta.dirname, '..', '..', 'examples', 'bin', f),
);

test("the thesis's figures win over the LLVM model, and where they differ is exactly this list", async () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'uopscope-thesis-llvm-'));
  const differences = new Set<string>();
  const seen = new Set<string>();
  for (const arch of ['SNB', 'SKL'] as const) {
    const data = await loadArchData(arch, { cacheDir });
    assert.ok(data.llvm, `${arch} has an LLVM model`);
    for (const file of EXAMPLES) {
      const region = await loadRegion({ file });
      const resolved = resolveInstructions(region.instructions, data);
      region.instructions.forEach((d, i) => {
        const r = resolved[i]!;
        if (r.origin !== 'thesis') return;
        const form = r.form!;
        seen.add(`${arch} ${form.string}`);
        const llvm = data.llvm!.lookup(d);
        assert.ok(llvm && !llvm.placeholder, `LLVM has ${d.intel} on ${arch}`);
        // what the engine would use from LLVM instead, through the same resolver
        const alone = resolveInstructions([d], {
          arch,
          source: { kind: 'none', path: '', forms: 0 },
          forms: [],
          llvm: data.llvm!,
        })[0]!;
        assert.equal(alone.origin, 'llvm');
        const stated = form.m.latencies.length
          ? Math.max(...form.m.latencies.map((e) => entryLatency(e, false, false)))
          : null;
        const diff = (what: string, a: unknown, b: unknown) => {
          if (JSON.stringify(a) !== JSON.stringify(b))
            differences.add(`${arch} ${form.string}: ${what} thesis ${JSON.stringify(a)}, LLVM ${JSON.stringify(b)}`);
        };
        diff('µops', r.uops, llvm.uops);
        diff('ports', formatPorts(r.ports), llvm.portString);
        diff('latency stated', stated, llvm.latency);
        const sorted = (o: Record<string, number>) => Object.entries(o).sort(([a], [b]) => a.localeCompare(b));
        diff('latency per written register/flag', sorted(r.latencyByResource), sorted(alone.latencyByResource));
      });
    }
  }
  // every thesis form of the embedded file occurs in the examples on the cores it is given for
  assert.deepEqual([...seen].sort(), [
    'SKL ADC (R64, I8)',
    'SKL ADD_01 (R64, R64)',
    'SKL CMP (R64, I8)',
    'SKL JMP (Rel8)',
    'SKL JNZ (Rel8)',
    'SKL MOV (R64, I32)',
    'SNB ADD_01 (R64, R64)',
    'SNB CMP (R64, I8)',
    'SNB JMP (Rel8)',
    'SNB JNZ (Rel8)',
    'SNB MOV (R64, I32)',
  ]);
  // The thesis states no latency for the jumps and the move of an immediate (it prints none);
  // LLVM gives the jumps a latency of 1 although they write no register, and the move 1. None
  // of these changes what the engine uses: every other figure agrees.
  assert.deepEqual([...differences].sort(), [
    'SKL JMP (Rel8): latency stated thesis null, LLVM 1',
    'SKL JNZ (Rel8): latency stated thesis null, LLVM 1',
    'SKL MOV (R64, I32): latency stated thesis null, LLVM 1',
    'SNB JMP (Rel8): latency stated thesis null, LLVM 1',
    'SNB JNZ (Rel8): latency stated thesis null, LLVM 1',
    'SNB MOV (R64, I32): latency stated thesis null, LLVM 1',
  ]);
});
