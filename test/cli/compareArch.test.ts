// --compare-arch: `report` prints the region's report on --arch, then on the other core with the
// same settings, then the two compared; the explorer without a terminal prints the same. Each
// core's figures are its own report's, and a bad core name is one line and status 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STENCIL = 'examples/bin/stencil';

function run(...args: string[]) {
  const r = runCli(args, { cwd: ROOT });
  return { ...r, status: r.code };
}

const throughput = (text: string) => /^Block throughput: ([\d.]+) cycles/m.exec(text)![1]!;

test('report --compare-arch: both reports, each as alone, then the comparison', () => {
  const both = run('report', STENCIL, '--arch', 'SKL', '--compare-arch', 'ZEN4');
  assert.equal(both.status, 0, both.err);
  const [, a, b, cmp] = both.out.split(/^== .*$/m);
  assert.match(both.out, /^== SKL$[\s\S]*^== ZEN4$[\s\S]*^== SKL and ZEN4$/m);
  const skl = run('report', STENCIL, '--arch', 'SKL').out;
  const zen = run('report', STENCIL, '--arch', 'ZEN4').out;
  assert.equal(a!.trim(), skl.trim(), "the first part is SKL's report");
  assert.equal(b!.trim(), zen.trim(), "the second part is ZEN4's report");
  const x = Number(throughput(skl));
  const y = Number(throughput(zen));
  assert.match(cmp!, new RegExp(`Block throughput: SKL ${throughput(skl)}, ZEN4 ${throughput(zen)} cycles/iteration`));
  assert.match(cmp!, new RegExp(`ZEN4 takes ${(y / x).toFixed(2)}× SKL's cycles`));
  // not on a terminal, the explorer prints the same
  const explorer = run(STENCIL, '--arch', 'SKL', '--compare-arch', 'ZEN4');
  assert.equal(explorer.out, both.out);
});

test('report --compare-arch --json: { reports: [A, B], comparison }', () => {
  const r = run('report', STENCIL, '--arch', 'SKL', '--compare-arch', 'znver4', '--json');
  assert.equal(r.status, 0, r.err);
  const j = JSON.parse(r.out);
  assert.deepEqual(
    j.reports.map((x: { arch: string }) => x.arch),
    ['SKL', 'ZEN4'],
  );
  assert.deepEqual(j.comparison.archs, ['SKL', 'ZEN4']);
  assert.equal(j.comparison.ratio, j.reports[1].blockThroughput / j.reports[0].blockThroughput);
  assert.ok(Array.isArray(j.reports[1].queues), "Zen 4's report has its queues");
  // the model's notes on Zen 4 say what its queues are and what the what-ifs do on them; none on SKL
  const notes: string[] = j.reports[1].model.notes;
  const q = j.reports[1].queues.filter((x: { name: string }) => !x.name.startsWith('NSQ'));
  assert.ok(
    notes.some(
      (n) => n.startsWith(`scheduler: ${q.length} queues of macro-op entries (`) && n.includes('steering stall'),
    ),
    notes.join('\n'),
  );
  assert.ok(notes.some((n) => n.startsWith('what-ifs on the queues: the station size (--rs-size) is their total')));
  assert.ok(
    !(j.reports[0].model.notes ?? []).some((n: string) => /^(scheduler|what-ifs on the queues):/.test(n)),
    'none on SKL',
  );
});

test('a line without figures on one core is named in the comparison; a bad core is one line, status 2', () => {
  const asm = '.intel_syntax noprefix\n1:\nvpaddq zmm0, zmm0, zmm1\nadd rax, rbx\ndec rcx\njnz 1b\n';
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-compare-'));
  try {
    const file = join(dir, 'avx512.s');
    writeFileSync(file, asm);
    const r = run('report', file, '--arch', 'SKL', '--compare-arch', 'ZEN4');
    assert.equal(r.status, 0, r.err);
    assert.match(r.out, /Block throughput: SKL [\d.]+ \(incomplete\), ZEN4 [\d.]+ cycles/);
    assert.match(r.out, /Lines without figures .*: SKL: line 0 \(vpaddq zmm0, zmm0, zmm1\); ZEN4: none/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const bad = run('report', STENCIL, '--arch', 'SKL', '--compare-arch', 'NOPE');
  assert.equal(bad.status, 2);
  assert.equal(bad.err.trim().split('\n').length, 1, bad.err);
  assert.match(bad.err, /unknown architecture 'NOPE'/);
});
