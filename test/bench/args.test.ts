// `npm run bench`'s arguments, `--against <git-rev>` and `--at <git-rev>` above all: parsed, checked and refused with
// one line and exit 2, and the report bench's comparison cases, all without timing anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BenchArgError, checkAgainst, parseBenchArgs, resolveRevision } from '../../bench/args.js';
import { reportCases } from '../../bench/reportAgainst.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('names pick benchmarks; --against takes the next argument or the one after =', () => {
  assert.deepEqual(parseBenchArgs([]), { filters: [] });
  assert.deepEqual(parseBenchArgs(['data', 'loops']), { filters: ['data', 'loops'] });
  assert.deepEqual(parseBenchArgs(['report', '--against', 'HEAD~1']), { filters: ['report'], against: 'HEAD~1' });
  assert.deepEqual(parseBenchArgs(['--against=abc123', 'report']), { filters: ['report'], against: 'abc123' });
  assert.deepEqual(parseBenchArgs(['report', '--against', 'A', '--at=B']), {
    filters: ['report'],
    against: 'A',
    at: 'B',
  });
});

test('--against without a revision, twice, or an unknown option: a BenchArgError saying what to do', () => {
  for (const argv of [
    ['report', '--against'],
    ['report', '--against='],
    ['--against', '--x'],
  ])
    assert.throws(
      () => parseBenchArgs(argv),
      (e: unknown) => e instanceof BenchArgError && /--against HEAD~1/.test(e.message),
    );
  assert.throws(() => parseBenchArgs(['--against', 'a', '--against', 'b']), /given twice \(a, b\)/);
  assert.throws(() => parseBenchArgs(['--runs', '3']), /unknown option --runs/);
  assert.throws(
    () => parseBenchArgs(['report', '--at', 'HEAD']),
    /--at times a revision against another: give --against/,
  );
  assert.throws(() => parseBenchArgs(['--against', 'A', '--at']), /--at needs a git revision/);
});

test('--against compares the report bench alone', () => {
  checkAgainst(['engine.bench.ts', 'report.bench.ts'], undefined);
  checkAgainst(['report.bench.ts'], 'HEAD~1');
  assert.throws(
    () => checkAgainst(['engine.bench.ts'], 'HEAD~1'),
    /report bench only, and engine\.bench\.ts would run/,
  );
  assert.throws(() => checkAgainst(['engine.bench.ts', 'report.bench.ts'], 'HEAD~1'), /name it alone/);
});

test('a revision resolves to its full commit hash; a name git does not know is refused', () => {
  const head = spawnSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  assert.equal(resolveRevision(ROOT, 'HEAD'), head);
  assert.equal(resolveRevision(ROOT, head.slice(0, 10)), head);
  assert.throws(() => resolveRevision(ROOT, 'no-such-revision-xyz'), /not a commit of the repository/);
});

test('the runner refuses wrong arguments with one line and exit 2, before building anything', () => {
  for (const [argv, msg] of [
    [['report', '--against'], /needs a git revision/],
    [['engine', '--against', 'HEAD'], /report bench only/],
    [['report', '--against', 'no-such-revision-xyz'], /no-such-revision-xyz: not a commit/],
    [['report', '--against', 'HEAD', '--at', 'no-such-revision-xyz'], /no-such-revision-xyz: not a commit/],
    [['no-such-bench'], /no benchmark matches no-such-bench/],
  ] as const) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...argv], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(r.status, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, msg);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.doesNotMatch(r.stdout, /==/, 'no bench started');
  }
});

test("the comparison's cases: start-up, then per loop and count --fast and (up to 100,000) the full report", () => {
  const loops = [
    { name: 'a', file: '/x/a', args: ['--arch', 'IVB'] },
    { name: 'b', file: '/x/b', args: [] },
  ];
  const cases = reportCases('/x/stencil', loops, [1, 1_000_000], (n) => (n >= 1_000_000 ? 3 : 5));
  assert.deepEqual(
    cases.map((c) => [c.what, c.runs]),
    [
      ['report stencil -i 1 (defaults, full report)', 5],
      ['a, --fast, 1', 5],
      ['a, full report, 1', 5],
      ['a, --fast, 1,000,000', 3],
      ['b, --fast, 1', 5],
      ['b, full report, 1', 5],
      ['b, --fast, 1,000,000', 3],
    ],
  );
  assert.deepEqual(cases[3]!.args, ['report', '/x/a', '--arch', 'IVB', '--iterations', '1000000', '--fast', '--json']);
  assert.deepEqual(cases[0]!.args, ['report', '/x/stencil', '--iterations', '1']);
});
