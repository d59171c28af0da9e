// Two cores side by side in a real terminal (tmux): the stencil example on Skylake beside Zen 4
// (--compare-arch, and the c key). Both panes show the cycle each engine has at that cycle
// (their W R E D counts are the engines' own, computed here in process), they step forward and
// back together, a far seek then a step back draws the same screen as stepping there, and the
// export holds what the screen shows. A line without figures on one core is marked on its side.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasTmux, tmuxServer } from './helpers/tmux.js';
import { loadRegion } from '../../src/disasm/index.js';
import { buildExplorerSession, regionAnalysis } from '../../src/cli/explorerSession.js';
import { loadMachine } from '../../src/data/machines.js';
import { DEFAULT_MODEL_NAME, mechanismsOf } from '../../src/sim/mechanisms.js';
import { BASELINE, type Engine } from '../../src/sim/types.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STENCIL = 'examples/bin/stencil';
const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-cores', 60_000);
const SKIP = hasTmux ? false : 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run';
const OUT = mkdtempSync(join(tmpdir(), 'uopscope-cores-'));
after(() => rmSync(OUT, { recursive: true, force: true }));

async function engineOn(file: string, arch: 'SKL' | 'ZEN4', iterations: number): Promise<Engine> {
  const base = regionAnalysis(await loadRegion({ file: join(ROOT, file) }));
  const session = await buildExplorerSession(base, loadMachine(arch));
  return session.makeEngine(BASELINE, iterations, mechanismsOf(DEFAULT_MODEL_NAME));
}

function open(session: string, args: string, cols = 120, rows = 40): void {
  newSession(session, ROOT, `node --import tsx src/cli/main.cts ${args} --export-dir ${OUT}; sleep 120`, {
    cols,
    rows,
    env: [`UOPSCOPE_CACHE_DIR=${join(OUT, 'cache')}`],
  });
}

const keys = (session: string, ...k: string[]) => tmux('send-keys', '-t', session, ...k);

/** The Program rows of both panes: per line, the left and the right pane's W R E D. */
function programCounts(screen: string): Map<number, [number[], number[]]> {
  const out = new Map<number, [number[], number[]]>();
  for (const row of screen.split('\n')) {
    const sides = [...row.matchAll(/[> ]\s*(\d+) [A-Z?] .*?[ ▸]W(\d+)[ ▸]R(\d+)[ ▸]E(\d+)[ ▸]D(\d+)/g)];
    if (sides.length !== 2) continue;
    const [a, b] = sides.map((m) => m.slice(2, 6).map(Number)) as [number[], number[]];
    out.set(Number(sides[0]![1]), [a, b]);
  }
  return out;
}

/** The whole screen at cycle c, and that both panes' counts are the engines' at c. */
async function checkAt(session: string, c: number, skl: Engine, zen: Engine): Promise<string> {
  const s = await waitFor(session, new RegExp(`cycle ${c} of \\d+`), `cycle ${c}`);
  const counts = programCounts(s);
  assert.ok(counts.size >= 5, s);
  const [a, b] = [skl.seek(c), zen.seek(c)];
  for (const [line, [left, right]] of counts) {
    const l = a.lineCounts.find((x) => x.line === line)!;
    const r = b.lineCounts.find((x) => x.line === line)!;
    assert.deepEqual(left, [l.waiting, l.ready, l.executing, l.done], `SKL line ${line} at ${c}`);
    assert.deepEqual(right, [r.waiting, r.ready, r.executing, r.done], `ZEN4 line ${line} at ${c}`);
  }
  return s;
}

test('SKL beside ZEN4 on the stencil: lockstep forward and back, far seek then back = stepping, export = screen', {
  skip: SKIP,
  timeout: 300_000,
}, async () => {
  const skl = await engineOn(STENCIL, 'SKL', 2000);
  const zen = await engineOn(STENCIL, 'ZEN4', 2000);
  try {
    open('cores', `${STENCIL} --arch SKL --compare-arch ZEN4 --iterations 2000`);
    let s = await waitFor('cores', /cycle 0 of \d+/, 'the explorer with both run lengths');
    assert.match(s, /SKL \(Skylake \(client\)\) beside ZEN4 \(AMD Zen 4\)/, 'the header names both cores');
    // the divergence and each pane's c/iter for the whole run, once the worker and the scan know
    s = await waitFor(
      'cores',
      /diverge at cycle \d+ │ c\/iter done\/run: SKL [^│]*\/\d[^│]*│ ZEN4 [^│]*\/\d/,
      'the comparison line',
    );
    const total = [skl.wholeRun().stats.blockThroughput, zen.wholeRun().stats.blockThroughput];
    assert.match(s, new RegExp(`SKL –/${total[0]!.toFixed(2)} │ ZEN4 –/${total[1]!.toFixed(2)}`), s);
    // forward and back one cycle at a time, in lockstep: each pane its engine's cycle
    for (let c = 1; c <= 6; c++) {
      keys('cores', 'l');
      await checkAt('cores', c, skl, zen);
    }
    for (let c = 5; c >= 3; c--) {
      keys('cores', 'h');
      await checkAt('cores', c, skl, zen);
    }
    // stepping to 421 (100s, 10s, ones) vs seeking far (5000) and going back to it
    keys('cores', '}', '}', '}', '}', ']', ']');
    await waitFor('cores', /cycle 423 of/, 'cycle 423');
    keys('cores', 'h', 'h');
    const stepped = await checkAt('cores', 421, skl, zen);
    keys('cores', 'g', '5000', 'Enter');
    await waitFor('cores', /cycle 5000 of/, 'cycle 5000');
    keys('cores', 'g', '422', 'Enter');
    await waitFor('cores', /cycle 422 of/, 'cycle 422');
    keys('cores', 'h');
    const sought = await checkAt('cores', 421, skl, zen);
    const body = (x: string) => x.split('\n').slice(0, -2).join('\n'); // the message and footer aside
    assert.equal(body(sought), body(stepped), 'a far seek and a step back show what stepping there shows');
    // the export: both panes, each core's counts as on the screen
    keys('cores', 'x');
    await waitFor('cores', /export to: \S+/, 'the export prompt');
    keys('cores', 'Enter');
    await waitFor('cores', /exported to \S+/, 'the export');
    const file = readdirSync(OUT).find((f) => f.endsWith('.txt'))!;
    const text = readFileSync(join(OUT, file), 'utf8');
    assert.match(text, /\ncurrent cycle: 421\n/);
    assert.match(text, /\ncore comparison: on \(beside ZEN4 \(AMD Zen 4\), ports ALU0 ALU1 /);
    const panes = text.split('\n== Pane: ').slice(1);
    assert.equal(panes.length, 2);
    assert.match(panes[0]!, /^SKL \(SKL, Skylake \(client\)\)/);
    assert.match(panes[1]!, /^ZEN4 \(ZEN4, AMD Zen 4\)/);
    for (const [line, sides] of programCounts(stepped))
      for (const [i, [w, r, e, d]] of sides.entries())
        assert.match(
          panes[i]!,
          new RegExp(`\\n +${line}  .* W${w} R${r} E${e} D${d} N\\d+\\n`),
          `pane ${i} line ${line}`,
        );
    assert.match(
      panes[1]!,
      /scheduler queues \(an entry is a macro-op, steering even\)/,
      'the Zen side has its queues',
    );
  } finally {
    await stopServer();
  }
});

test('c opens the core split from the architecture list; a line without figures on one core is marked on that side', {
  skip: SKIP,
  timeout: 180_000,
}, async () => {
  // vpaddq zmm: Skylake (client) has no AVX-512, no source gives it figures; Zen 4 has them
  const asm = join(OUT, 'avx512.s');
  writeFileSync(asm, '.intel_syntax noprefix\n1:\nvpaddq zmm0, zmm0, zmm1\nadd rax, rbx\ndec rcx\njnz 1b\n');
  try {
    open('pick', `${asm} --arch SKL --iterations 50`, 120, 40);
    await waitFor('pick', /cycle 0 of \d+/, 'the explorer');
    keys('pick', 'c');
    const menu = await waitFor('pick', /Compare with another core/, 'the architecture list');
    // move to ZEN4 in the list
    const names = [...menu.matchAll(/^[❯ ] ([A-Z][A-Z0-9-]*) /gm)].map((m) => m[1]!);
    const from = names.indexOf(/^❯ ([A-Z][A-Z0-9-]*) /m.exec(menu)?.[1] ?? '');
    const to = names.indexOf('ZEN4');
    assert.ok(from >= 0 && to >= 0, menu);
    for (let k = from; k < to; k++) keys('pick', 'j');
    keys('pick', 'Enter');
    const s = await waitFor('pick', /SKL (\(Skylake \(client\)\) )?beside ZEN4.*\n.*cycle 0 of \d+/, 'the core split');
    assert.match(s, /INCOMPLETE: 1 line without figures on SKL \(\?\)/);
    // line 0 has no figures on SKL: `?` on the left pane's row, its source letter on the right
    const row = s.split('\n').find((l) => /^[> ]\s*0 \?\s+vpaddq/.test(l))!;
    assert.ok(row, s);
    assert.match(row.slice(row.indexOf('vpaddq') + 6), /\s0 [A-Z]\s+vpaddq/, 'ZEN4 has figures for it');
    keys('pick', 'c');
    await waitFor('pick', /core comparison off/, 'the split closed');
  } finally {
    await stopServer();
  }
});
