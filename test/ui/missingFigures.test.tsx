// Issue 8: a line without figures cannot be overlooked in the explorer. A real region (an
// AVX-512 add between two general-purpose lines) on Haswell, which cannot run AVX-512: the
// Program pane marks the line `?` (not the `X` of the executing count), the header says the run
// is incomplete, the detail names the reason, and the export says so at the top.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { render, cleanup } from 'ink-testing-library';
import { loadRegion } from '../../src/disasm/index.js';
import { buildExplorerSession, regionAnalysis, sessionLoader } from '../../src/cli/explorerSession.js';
import { loadMachine } from '../../src/data/machines.js';
import type { ArchName } from '../../src/data/types.js';
import { Explorer } from '../../src/ui/components/Explorer.js';
import { KEY, plain, press, until } from './helpers/render.js';

afterEach(() => cleanup());

async function mount(arch: ArchName) {
  // add rax, rbx; vaddps zmm0, zmm1, zmm2; add rbx, rax
  const loaded = await loadRegion({ hex: '4801d8 62f1744858c2 4801c3' });
  const session = await buildExplorerSession(loaded, loadMachine(arch), { inThread: true });
  const exports: string[] = [];
  const r = render(
    <Explorer
      session={session}
      iterations={10}
      archs={[{ arch, name: arch }]}
      loadArch={sessionLoader(regionAnalysis(loaded), { inThread: true })}
      saveExport={async (t) => {
        exports.push(t);
        return '/tmp/uopscope-missing.txt';
      }}
      exportPath={() => 'missing.txt'}
      size={{ columns: 80, rows: 24 }}
      color={false}
    />,
  );
  return { r, frame: () => plain(r.lastFrame()), exports };
}

test('a line no source has figures for is marked ?, the header says INCOMPLETE, the detail and the export say why', async () => {
  const { r, frame, exports } = await mount('HSW');
  const f = frame();
  assert.match(f, /INCOMPLETE: 1 line without figures \(\?\)/);
  assert.match(f, /^\s*>?\s*0 L add rax, rbx/m);
  assert.match(f, /^\s*1 \? vaddps zmm0, zmm1, zmm2/m);
  assert.match(f, /^\s*2 L add rbx, rax/m);
  await press(r, KEY.down, KEY.enter);
  await until(() => /figures: HSW cannot run it \(needs AVX512F\)/.test(frame()), 'the detail names the reason');
  await press(r, KEY.escape);
  await press(r, 'x', KEY.enter);
  await until(() => exports.length === 1, 'the export');
  assert.match(exports[0]!, /^figures: 3 lines: 2 LLVM 19 model, 1 no figures$/m);
  assert.match(
    exports[0]!,
    /^INCOMPLETE: 1 line without figures \(line 1: HSW cannot run it \(needs AVX512F\)\); every throughput leaves them out$/m,
  );
  assert.match(exports[0]!, /^\s+1 {2}\? vaddps zmm0, zmm1, zmm2\s+HSW cannot run it \(needs AVX512F\)$/m);
  assert.match(exports[0]!, /^\s+0 {2}L add rax, rbx\s+LLVM 19\.\d+\.\d+ haswell model \(Add_rm64_r64\)$/m);
});

test('on a core that runs every line, nothing is marked incomplete', async () => {
  const { frame } = await mount('SKX');
  const f = frame();
  assert.doesNotMatch(f, /INCOMPLETE/);
  assert.match(f, /^\s*1 L vaddps zmm0, zmm1, zmm2/m);
});

test('the message says exactly what is done with a line without figures: a placeholder that keeps its dependencies', async () => {
  const loaded = await loadRegion({ hex: '4801d8 62f1744858c2 4801c3' });
  const skip = await buildExplorerSession(loaded, loadMachine('HSW' as ArchName), { inThread: true });
  const note = (skip.notes ?? []).find((n) => n.startsWith('no figures for'));
  assert.match(
    note ?? '',
    /line 1 vaddps .*: each run as a placeholder without µops or ports; its readers still wait 1 cycle for it/,
  );
  assert.doesNotMatch(note ?? '', /not simulated/);
  const alu = await buildExplorerSession(loaded, loadMachine('HSW' as ArchName), { inThread: true, fallback: 'alu' });
  assert.match(
    (alu.notes ?? []).find((n) => n.startsWith('no figures for')) ?? '',
    /each run as one µop on any ALU port, latency 1/,
  );
});
