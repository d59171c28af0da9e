// The figures uopscope measured for a core (src/data/providers/measured.ts), from the hand-written
// fixture test/fixtures/measured/SKL.json put where `data measure` writes: asked after an
// imported uops.info file and before the thesis's facts and the LLVM model, shown in every output,
// listed and removed by `data list` / `data remove`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyse } from '../../src/cli/pipeline.js';
import { importUopsXml } from '../../src/data/cache.js';
import { resetArchDataMemo } from '../../src/data/archData.js';
import { userMeasuredPath } from '../../src/data/measuredFormat.js';
import { listDataSources } from '../../src/data/sources.js';
import { dataFootnote, resolvedJson } from '../../src/report/listing.js';
import { UserError } from '../../src/errors.js';
import { runCli } from '../helpers/cli.js';
import { SMALL, tempDir } from './helpers.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'measured', 'SKL.json');

const ASM =
  '.intel_syntax noprefix\n.globl f\nf:\n  add rax, rbx\n  imul rax, rbx\n  xor eax, eax\n  xor eax, ebx\n  popcnt rax, rbx\n  mov rax, 6\n  ret\n';

function setup(): { cacheDir: string; file: string } {
  const cacheDir = tempDir('measured-provider');
  const file = join(cacheDir, 'k.s');
  writeFileSync(file, ASM);
  mkdirSync(join(cacheDir, 'measured'));
  copyFileSync(FIXTURE, userMeasuredPath('SKL', cacheDir));
  resetArchDataMemo();
  return { cacheDir, file };
}

test('measured figures come before the thesis and the LLVM model; a failed check is not used', async () => {
  const { cacheDir, file } = setup();
  try {
    const a = await analyse({ file, arch: 'SKL', cacheDir });
    const by = (asm: string) => a.resolved[a.region.instructions.findIndex((i) => i.intel === asm)]!;
    assert.deepEqual(
      a.resolved.map((r) => r.origin),
      ['measured', 'measured', 'measured', 'measured', 'llvm', 'thesis', 'llvm'],
    );
    // the fixture's figures, as the fixture gives them
    const imul = by('imul rax, rbx');
    assert.deepEqual(
      [imul.uops, imul.ports, imul.latencyByResource.RAX, imul.latencyByResource.CF, imul.form?.m.retireSlots],
      [1, [{ count: 1, ports: [1] }], 3, 3, 1],
    );
    assert.match(
      imul.provenance!.text,
      /^measured by uopscope on TEST FIXTURE .*, microcode unknown, 2026-11-27, uopscope 0\.1\.0 \(IMUL \(R64, R64\)\)$/,
    );
    // xor eax, eax takes the same-register figures: no port, latency 0
    const zero = by('xor eax, eax');
    assert.deepEqual([zero.variant, zero.uops, zero.ports, zero.latencyByResource.RAX], ['same_reg', 0, [], 0]);
    assert.deepEqual([by('xor eax, ebx').uops, by('xor eax, ebx').latencyByResource.RAX], [1, 1]);
    // popcnt's check failed in the fixture: the next source (LLVM) has it
    assert.equal(by('popcnt rax, rbx').origin, 'llvm');
    // the listing names the file and what it was measured on; the JSON carries the detail
    assert.match(
      dataFootnote(a.data, a.resolved),
      /^SKL: figures measured by uopscope \(.*measured\/SKL\.json: TEST FIXTURE.*, 3 forms\), then embedded data \(.*Figures: 7 lines: 4 measured by uopscope, 1 SUACA thesis, 2 LLVM 19 model \(src: M measured by uops\.info, U measured by uopscope, T SUACA thesis/,
    );
    const json = resolvedJson(a.data, a.resolved) as { resolved: Record<string, unknown>[] };
    assert.deepEqual((json.resolved[1]!.measured as Record<string, unknown>).form, 'IMUL (R64, R64)');
    assert.equal((json.resolved[1]!.measured as Record<string, unknown>).shipped, false);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    resetArchDataMemo();
  }
});

test('an imported uops.info file comes before the measured figures', async () => {
  const { cacheDir, file } = setup();
  try {
    await importUopsXml(SMALL, { cacheDir });
    resetArchDataMemo();
    const a = await analyse({ file, arch: 'SKL', cacheDir });
    // the small file has ADD, IMUL and XOR (R64/R32) for SKL; the measured figures fill in nothing
    // else here (popcnt's failed), the thesis gives mov
    assert.deepEqual(
      a.resolved.map((r) => r.origin),
      ['uops.info', 'uops.info', 'uops.info', 'uops.info', 'llvm', 'thesis', 'llvm'],
    );
    const rows = listDataSources({ cacheDir }).filter((r) => r.arch === 'SKL');
    assert.deepEqual(
      rows.map((r) => [r.kind, r.origin]),
      [
        ['imported', 'uops.info'],
        ['measured', 'measured'],
        ['embedded', 'thesis'],
        ['corrections', 'cited'],
        ['llvm', 'llvm'],
      ],
    );
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    resetArchDataMemo();
  }
});

test('data list shows the measured file with its provenance and the forms it does not use', () => {
  const { cacheDir } = setup();
  try {
    const row = listDataSources({ cacheDir }).find((r) => r.arch === 'SKL' && r.kind === 'measured')!;
    assert.equal(row.origin, 'measured');
    assert.equal(row.path, userMeasuredPath('SKL', cacheDir));
    assert.deepEqual([row.forms, row.unused, row.date], [3, 1, '2026-11-27T11:00:00Z']);
    assert.match(String(row.provenance!.cpu), /TEST FIXTURE/);
    assert.equal(row.provenance!.microcode, 'unknown');
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test('a damaged measured file is one line naming it and how to remove it', async () => {
  const { cacheDir, file } = setup();
  try {
    writeFileSync(userMeasuredPath('SKL', cacheDir), '{"format": "uopscope-measured", "version": 1}');
    resetArchDataMemo();
    await assert.rejects(analyse({ file, arch: 'SKL', cacheDir }), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.match(
        e.message,
        /^measured figures .*measured\/SKL\.json: arch: must be a non-empty string — measure again with 'uopscope data measure', or remove it with 'uopscope data remove measured'$/,
      );
      return true;
    });
    assert.ok(existsSync(userMeasuredPath('SKL', cacheDir)));
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    resetArchDataMemo();
  }
});

test('the command line: report and JSON show U, data list its provenance, data remove the files (never the shipped ones)', async () => {
  const { cacheDir, file } = setup();
  const run = (...args: string[]) => runCli(args, { env: { UOPSCOPE_CACHE_DIR: cacheDir } });
  try {
    const rep = run('report', file, '--arch', 'SKL', '--fast');
    assert.equal(rep.code, 0, rep.err);
    assert.match(rep.out, /^Figures: 7 lines: 4 measured by uopscope, 1 SUACA thesis, 2 LLVM 19 model$/m);
    assert.match(rep.out, /\|\| U imul rax, rbx$/m);
    assert.match(
      rep.out,
      /^Source: M measured by uops\.info, U measured by uopscope, T SUACA thesis, L LLVM 19 model, \? no figures$/m,
    );
    const json = JSON.parse(run('report', file, '--arch', 'SKL', '--fast', '--json').out) as { origins: string[] };
    assert.deepEqual(json.origins, ['measured', 'measured', 'measured', 'measured', 'llvm', 'thesis', 'llvm']);
    const list = run('data', 'list');
    assert.match(
      list.out,
      /^SKL\s+Skylake \(client\)\s+measured\s+measured \(uopscope\)\s+3 \(\+1 failed checks, not used\)\s+2026-11-27T11:00:00Z\s+\S+measured\/SKL\.json$/m,
    );
    assert.match(
      list.out,
      /^SKL measured: measured on TEST FIXTURE .* \(microcode unknown, test fixture, uopscope 0\.1\.0\) by: \(written by hand: test\/fixtures\/measured\/SKL\.json\)$/m,
    );
    const listed = (
      JSON.parse(run('data', 'list', '--json').out) as {
        sources: { arch: string; kind: string; provenance?: { cpu: string } }[];
      }
    ).sources;
    assert.match(listed.find((r) => r.arch === 'SKL' && r.kind === 'measured')!.provenance!.cpu, /TEST FIXTURE/);
    // remove: the named core's file; a name that is none is one line, exit 2
    const bad = run('data', 'remove', 'measured', '../x');
    assert.deepEqual([bad.code, bad.err.trim().split('\n').length], [2, 1]);
    const rm = run('data', 'remove', 'measured', 'SKL');
    assert.equal(rm.code, 0, rm.err);
    assert.match(rm.out, /^removed \S+measured\/SKL\.json\n$/);
    assert.ok(!existsSync(userMeasuredPath('SKL', cacheDir)));
    assert.match(run('data', 'remove', 'measured').out, /^no measured figures in \S+: nothing to remove\n$/);
    assert.equal(JSON.parse(run('report', file, '--arch', 'SKL', '--fast', '--json').out).origins[1], 'llvm');
    // remove imported: the import's index and files go; the layers below answer again
    assert.equal(run('data', 'import', SMALL).code, 0);
    assert.equal(JSON.parse(run('report', file, '--arch', 'SKL', '--fast', '--json').out).origins[1], 'uops.info');
    const ri = run('data', 'remove', 'imported');
    assert.match(ri.out, /^removed the imported uops\.info data \(\S+small-instructions\.xml, 13 forms\) from /);
    assert.equal(JSON.parse(run('report', file, '--arch', 'SKL', '--fast', '--json').out).origins[1], 'llvm');
    assert.doesNotMatch(run('data', 'list').out, /imported/);
    assert.match(run('data', 'remove', 'imported').out, /^no imported uops\.info data in \S+: nothing to remove\n$/);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test("the user's measured file is asked first, the shipped one for the forms it lacks", async () => {
  const { measuredLayer } = await import('../../src/data/providers/measured.js');
  const { loadRegion } = await import('../../src/disasm/index.js');
  const { measuredText, parseMeasured } = await import('../../src/data/measuredFormat.js');
  const { readFileSync } = await import('node:fs');
  const dir = tempDir('measured-shipped');
  try {
    const fixture = parseMeasured(readFileSync(FIXTURE, 'utf8'), FIXTURE);
    // the user measured imul only (with another latency); the shipped file has add and imul
    const user = {
      ...fixture,
      forms: {
        'IMUL (R64, R64)': { ...fixture.forms['IMUL (R64, R64)']!, latencies: [{ from: 'o1', to: 'o0', cycles: 4 }] },
      },
    };
    const shipped = {
      ...fixture,
      forms: {
        'ADD (R64, R64)': fixture.forms['ADD (R64, R64)']!,
        'IMUL (R64, R64)': fixture.forms['IMUL (R64, R64)']!,
      },
    };
    writeFileSync(join(dir, 'user.json'), measuredText(user));
    writeFileSync(join(dir, 'shipped.json'), measuredText(shipped));
    const file = join(dir, 'k.s');
    writeFileSync(file, ASM);
    const [add, imul, , , popcnt] = (await loadRegion({ file })).instructions;
    const both = measuredLayer({ user: join(dir, 'user.json'), shipped: join(dir, 'shipped.json') })!;
    const hit = (l: typeof both, d: typeof add) =>
      l.lookup(d!) as {
        latencyByResource: Record<string, number>;
        provenance: { detail: { shipped: boolean } };
      } | null;
    assert.deepEqual([hit(both, imul)!.latencyByResource.RAX, hit(both, imul)!.provenance.detail.shipped], [4, false]);
    assert.deepEqual([hit(both, add)!.latencyByResource.RAX, hit(both, add)!.provenance.detail.shipped], [1, true]);
    assert.equal(hit(both, popcnt), null);
    assert.match(
      both.describe!,
      /^figures measured by uopscope \(\S+user\.json: .*, 1 forms\), then figures measured by uopscope \(shipped\) \(\S+shipped\.json: .*, 2 forms\)$/,
    );
    // a shipped file alone is used; no file at all is no layer
    const alone = measuredLayer({ user: join(dir, 'none.json'), shipped: join(dir, 'shipped.json') })!;
    assert.equal(hit(alone, imul)!.latencyByResource.RAX, 3);
    assert.equal(measuredLayer({ user: join(dir, 'none.json'), shipped: join(dir, 'none2.json') }), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
