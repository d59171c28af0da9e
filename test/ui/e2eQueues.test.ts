// A Zen core's scheduler queues in a real terminal (tmux), on the scheduler-capacity loop of the
// Zen microbenchmark (test/fixtures/zen/sched.o: a vmulsd chain, then 32 imul waiting on its
// result): the waiting imuls fill the one integer queue with a multiplier and the front end stops
// on it while the other integer queues are empty. The cycle and the figures expected are the
// engine's own (its snapshot, computed here in process): the screen must show that stall and that
// full queue at the cycle the model has them, at 80×24, and hide nothing without a sign.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasTmux, tmuxServer } from './helpers/tmux.js';
import { loadRegion } from '../../src/disasm/index.js';
import { buildExplorerSession, regionAnalysis } from '../../src/cli/explorerSession.js';
import { loadMachine } from '../../src/data/machines.js';
import { DEFAULT_MODEL_NAME, mechanismsOf } from '../../src/sim/mechanisms.js';
import { BASELINE, type Snapshot } from '../../src/sim/types.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCHED = 'test/fixtures/zen/sched.o';
const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-queues', 30_000);
const SKIP = hasTmux ? false : 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run';

/** The engine's snapshots of the loop on ZEN4 (the explorer's default model), cycles 1 … n. */
async function modelSnapshots(n: number): Promise<Snapshot[]> {
  const base = regionAnalysis(await loadRegion({ file: `${ROOT}${SCHED}` }));
  const session = await buildExplorerSession(base, loadMachine('ZEN4'));
  const e = session.makeEngine(BASELINE, 200, mechanismsOf(DEFAULT_MODEL_NAME));
  return Array.from({ length: n }, () => e.step());
}

const OUT = mkdtempSync(join(tmpdir(), 'uopscope-queues-'));

/** Opens the explorer on the loop at ZEN4, goes to cycle c and shows the Reservation tab. */
async function at(session: string, c: number, cols = 80, rows = 24): Promise<string> {
  newSession(
    session,
    ROOT,
    `node --import tsx src/cli/main.cts ${SCHED} --arch ZEN4 --iterations 200 --export-dir ${OUT}; sleep 60`,
    { cols, rows },
  );
  await waitFor(session, /cycle 0 of/, 'the explorer');
  tmux('send-keys', '-t', session, 'g', String(c), 'Enter');
  await waitFor(session, new RegExp(`cycle ${c} of`), `cycle ${c}`);
  tmux('send-keys', '-t', session, '2');
  return waitFor(session, /^Scheduler: \d+ queues/m, 'the queues');
}

after(() => rmSync(OUT, { recursive: true, force: true }));

test('ZEN4, sched loop, 80×24: the dispatch stall and the full queue at the cycle the model has them', {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  const snaps = await modelSnapshots(200);
  const k = snaps.findIndex((s) => s.queues?.stalledOn);
  assert.ok(k >= 0, 'the model stalls dispatch on a queue within 200 cycles');
  const snap = snaps[k]!;
  const q = snap.queues!;
  const full = q.list.find((x) => x.name === q.stalledOn)!;
  assert.equal(full.used, full.size, 'the queue the front end stopped on is full');
  // the other integer queues of its size are empty: what the loop is built to show
  const others = q.list.filter((x) => x !== full && x.size === full.size && x.feeds === undefined);
  assert.ok(others.length > 0 && others.every((x) => x.used < x.size));
  try {
    // the cycle before: no stall
    const before = await at('before', k);
    assert.match(before, /dispatch: no queue stopped it this cycle/);
    await stopServer();
    const s = await at('stall', k + 1);
    for (const line of s.split('\n')) assert.ok(line.length <= 80, `cut at 80 columns: ${line}`);
    const lo = Math.min(...others.map((x) => x.used));
    const hi = Math.max(...others.map((x) => x.used));
    const range = lo === hi ? `${lo}` : `${lo}–${hi}`;
    assert.match(
      s,
      new RegExp(
        `dispatch stalled: ${full.name} queue full \\(${full.size}/${full.size}\\), ${others.length} other queues ${range}/${full.size}`,
      ),
    );
    // every queue with its occupancy, or a sign for those hidden
    const shown = q.list.filter((x) => s.includes(`${x.name} ${x.used}/${x.size}`));
    const more = /… (\d+) more\b(?! entries)/.exec(s);
    assert.equal(shown.length + (more ? Number(more[1]) : 0), q.list.length, s);
    assert.ok(shown.includes(full), 'the full queue is shown');
    // the instances in flight: those shown and the count of those hidden add up to the model's
    const rows = s.split('\n').filter((l) => /^[+◌○▶✓] L\d+#\d+/.test(l));
    const hidden = /… (\d+) more entries/.exec(s) ?? /… (\d+) above, (\d+) below/.exec(s);
    const n = hidden ? hidden.slice(1).reduce((a, x) => a + Number(x), 0) : 0;
    assert.equal(rows.length + n, snap.rs.length, s);
    // what waits in the full queue and on what: each row names its queue and the model's reason
    for (const row of rows) {
      const [, line, it] = /L(\d+)#(\d+)/.exec(row)!;
      const e = snap.rs.find((x) => x.line === Number(line) && x.iteration === Number(it))!;
      for (const name of e.queues ?? []) assert.match(row, new RegExp(`µ ${name}\\b`), row);
      if (e.state.kind === 'waiting-dep')
        assert.match(row, new RegExp(`waits on L${e.state.on[0]!.line}#${e.state.on[0]!.iteration}`), row);
    }
    // the full queue's oldest entry and what it waits on, as the model has it
    const inFull = snap.rs.filter((e) => e.queues?.includes(full.name));
    const oldest = inFull[0]!;
    assert.equal(oldest.state.kind, 'waiting-dep');
    if (oldest.state.kind === 'waiting-dep') {
      const on = oldest.state.on[0]!;
      assert.match(
        s,
        new RegExp(
          `^${full.name} holds ${inFull.length}: oldest L${oldest.line}#${oldest.iteration} waits on L${on.line}#${on.iteration} \\(${on.resource}\\)`,
          'm',
        ),
      );
    }
    // the export holds the same stall line, queues and entries as the screen
    tmux('send-keys', '-t', 'stall', 'x');
    await waitFor('stall', /export to: \S+/, 'the export prompt');
    tmux('send-keys', '-t', 'stall', 'Enter');
    await waitFor('stall', /exported to \S+/, 'the export');
    const file = readdirSync(OUT).find((f) => f.endsWith('.txt'))!;
    const text = readFileSync(join(OUT, file), 'utf8');
    const stallLine = /^dispatch stalled: .*$/m.exec(s)![0];
    assert.ok(text.includes(`\n  ${stallLine}\n`), `the export's stall line is the screen's: ${stallLine}`);
    for (const x of shown) assert.match(text, new RegExp(`\n  ${x.name} ${x.used}/${x.size}\\b`));
    for (const row of rows) {
      const [, who, q2, why] = /^[+◌○▶✓] (L\d+#\d+)\s+\d+µ (\S*)\s+(.*)$/.exec(row)!;
      const line = text.split('\n').find((l) => l.startsWith(`  ${who} `))!;
      assert.ok(line?.includes(q2!) && line.includes(why!.replace(/…$/, '')), `${row} | ${line}`);
    }
    // the ports by the record's pipe names: the ports row, the Statistics columns, the export
    const { names } = await zen4Ports();
    tmux('send-keys', '-t', 'stall', '3');
    const ports = await waitFor('stall', /^Ports:/m, 'the Ports tab');
    const heads = ports
      .split('\n')
      .filter((l) => /^ [A-Z]+\d/.test(l))
      .flatMap((l) => l.trim().split(/\s+/));
    assert.deepEqual(heads, names, 'every pipe by its name, in order');
    assert.doesNotMatch(ports, /\bp\d+\b/, 'no port by number');
    tmux('send-keys', '-t', 'stall', '4');
    const stats = await waitFor('stall', /^ ln instruc/m, 'the Statistics tab');
    const cols = /^ ln instruc\S* +µops +wait +caused +(.*)$/m.exec(stats)![1]!.trim().split(/\s+/);
    assert.ok(cols.length > 0 && cols.every((c) => names.includes(c)), cols.join(' '));
    assert.match(text, new RegExp(`ports ${names.join(' ')}\\n`));
  } finally {
    await stopServer();
  }
});

/** ZEN4's pipe names, in the record's order of ports. */
async function zen4Ports(): Promise<{ names: string[] }> {
  const m = loadMachine('ZEN4');
  return { names: m.ports.map((p) => m.portNames![m.ports.indexOf(p)]!) };
}

test('ZEN4, sched loop, 120×40: a row per queue with its bar and what its entries do', {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  const snaps = await modelSnapshots(60);
  const snap = snaps[59]!;
  try {
    const s = await at('wide', 60, 120, 40);
    for (const x of snap.queues!.list) {
      // what its entries do, as the model has them (a non-scheduling queue: what it feeds)
      const held = snap.rs.filter((e) => e.queues?.includes(x.name) && e.state.kind === 'waiting-dep').length;
      const what = x.feeds ? ` in front of ${x.feeds.join(' ')}` : held ? ` ${held} waiting` : '';
      assert.match(s, new RegExp(`^${x.name}\\s+${x.used}/${x.size} [█░]+${what}`, 'm'), s);
    }
  } finally {
    await stopServer();
  }
});
