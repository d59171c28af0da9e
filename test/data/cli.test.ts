import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { SMALL, smallText, tempDir } from './helpers.js';

function run(args: string[], cacheDir: string) {
  return runCli(args, { env: { UOPSCOPE_CACHE_DIR: cacheDir } });
}

test('data import, then data list shows the imported architectures', () => {
  const cache = tempDir('cli');
  const imp = run(['data', 'import', SMALL], cache);
  assert.equal(imp.code, 0, imp.err);
  assert.match(imp.out, /imported 13 instruction forms \(file dated 2023-07-31\)/);
  assert.equal(imp.err, '', 'no progress bar when stderr is not a terminal');
  const list = run(['data', 'list'], cache);
  assert.equal(list.code, 0, list.err);
  assert.match(
    list.out,
    /^SKL\s+Skylake \(client\)\s+imported\s+measured \(uops\.info\)\s+13\s+2023-07-31\s+\S+small-instructions\.xml$/m,
  );
  assert.match(list.out, /^SKL\s+Skylake \(client\)\s+embedded\s+SUACA thesis\s+6\s/m);
  assert.match(
    list.out,
    /^SKL\s+Skylake \(client\)\s+llvm\s+LLVM model\s+\d{4,} \(\+\d+ placeholders\)\s+\S+ \(LLVM 19\.\d+\.\d+ skylake\)$/m,
  );
  assert.match(list.out, /^KBL\s+Kaby Lake\s+inherited\s+measured \(uops\.info\)\s+13\s+SKL/m);
  assert.match(
    list.out,
    /^Per line, the first of these sources that has figures for the form is used, in the order listed\.$/m,
  );
  const rows = (
    JSON.parse(run(['data', 'list', '--json'], cache).out) as {
      sources: { arch: string; kind: string; forms: number }[];
    }
  ).sources;
  assert.deepEqual(rows.find((r) => r.arch === 'SNB' && r.kind === 'imported')?.forms, 1);
});

test('a corrupt file: one line with file:line:column, exit 2, cache untouched', () => {
  const cache = tempDir('cli');
  const bad = join(tempDir('bad'), 'broken.xml');
  writeFileSync(
    bad,
    smallText().replace(
      '<measurement TP_loop="1.0" TP_unrolled="1.0" ports="1*p1" uops="1">',
      '<measurement TP_loop="1.0" TP_unrolled="1.0" ports="1*p1" uops="1"',
    ),
  );
  const r = run(['data', 'import', bad], cache);
  assert.equal(r.code, 2);
  assert.match(r.err, /^uopscope: \S+broken\.xml:\d+:\d+: .+ — fix or re-download/);
  assert.equal(r.err.trim().split('\n').length, 1);
  assert.doesNotMatch(r.err, /at .*\.ts:\d+/);
  assert.deepEqual(readdirSync(cache), []);
});

// data fetch: test/data/fetch.test.ts (a local HTTP server: success, resume, errors, stalls, offline)

test('disasm --arch: source, µops, ports and latency per line, ? where no source has figures, the fallback stated', () => {
  const bin = join(import.meta.dirname, '..', '..', 'examples', 'bin', 'branch.o');
  const r = run(['disasm', bin, '--arch', 'SKL', '--uops-xml', SMALL, '--fallback', 'alu'], tempDir('cli'));
  assert.equal(r.code, 0, r.err);
  // the file's forms (M), then the embedded thesis forms for those the small file lacks (T)
  assert.match(r.out, /^\s+3\s+1e\s+48 01 c3\s+add rbx, rax\s+M\s+1\s+1\*p0156\s+1\s+ADD \(R64, R64\)/m);
  assert.match(r.out, /^\s+2\s+1c\s+75 05\s+jne 0x23\s+M\s+1\s+1\*p06\s+0\s/m);
  assert.match(r.out, /^\s+0\s+11\s+48 c7 c0 01 00 00 00\s+mov rax, 0x1\s+T\s+1\s+1\*p0156\s+1\s/m);
  assert.match(r.out, /Figures: 7 lines: 4 measured by uops\.info, 3 SUACA thesis .*every instruction has figures$/m);
  // an AVX-512 instruction on Haswell: no source, the reason and the fallback named
  const h = run(['disasm', '--hex', '62f1744858c2 4801d8', '--arch', 'HSW', '--fallback', 'alu'], tempDir('cli'));
  assert.equal(h.code, 0, h.err);
  assert.match(h.out, /^\s+0\s.*vaddps zmm0, zmm1, zmm2\s+\?\s+\?\s+\?\s+\?\s/m);
  assert.match(
    h.out,
    /^\? = no figures for line 0 — counted as 1 µop on an ALU port, latency 1 \(line 0: HSW cannot run it \(needs AVX512F\)\)$/m,
  );
  const j = run(['disasm', bin, '--arch', 'SKL', '--uops-xml', SMALL, '--json'], tempDir('cli'));
  const data = JSON.parse(j.out).data;
  assert.equal(data.arch, 'SKL');
  assert.deepEqual(data.resolved[3], {
    line: 3,
    form: 'ADD_01 (R64, R64)',
    rule: 'iform',
    uops: 1,
    ports: '1*p0156',
    latencyByResource: { RBX: 1, AF: 1, CF: 1, OF: 1, PF: 1, SF: 1, ZF: 1 },
    maxLatency: 1,
    divCycles: 0,
    variant: 'plain',
    unknown: false,
    fallback: null,
    origin: 'uops.info',
  });
  assert.equal(data.resolved[0].origin, 'thesis');
  const hj = JSON.parse(
    run(['disasm', '--hex', '62f1744858c2 4801d8', '--arch', 'HSW', '--json'], tempDir('cli')).out,
  ).data;
  assert.deepEqual([hj.resolved[0].origin, hj.resolved[0].why], ['none', 'HSW cannot run it (needs AVX512F)']);
  assert.deepEqual(
    [hj.resolved[1].origin, hj.resolved[1].rule, hj.resolved[1].llvm.key, hj.resolved[1].llvm.cpu],
    ['llvm', 'code', 'Add_rm64_r64', 'haswell'],
  );
  const bad = run(['disasm', bin, '--arch', 'P4'], tempDir('cli'));
  assert.equal(bad.code, 2);
  assert.match(bad.err, /^uopscope: unknown architecture 'P4' — known: NHM, /);
});
