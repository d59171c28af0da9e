import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reportJson } from '../../src/report/json.js';
import { JSON_SCHEMA_VERSION } from '../../src/report/schemaVersion.js';
import { figures, latencyExample, line, stats, thesisDetail } from './fixtures.js';

const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

function checkSection(s: any, ports: number[], where: string): void {
  for (const k of ['cycles', 'blockThroughput', 'uopsPerCycle', 'totalUops']) assert.ok(isNum(s[k]), `${where}.${k}`);
  assert.ok(Array.isArray(s.lines), `${where}.lines`);
  for (const l of s.lines) {
    assert.ok(Number.isInteger(l.line) && typeof l.asm === 'string' && Number.isInteger(l.uops), `${where} line`);
    assert.ok(isNum(l.hadToWait) && isNum(l.causedToWait) && typeof l.unknown === 'boolean');
    assert.deepEqual(Object.keys(l.ports), ports.map(String), 'one entry per port of the machine');
    for (const v of Object.values(l.ports)) assert.ok(isNum(v));
  }
}

test('the JSON report has the agreed keys with the figures of the engine', () => {
  const m = latencyExample();
  const j = JSON.parse(JSON.stringify(reportJson(m)));
  assert.equal(j.arch, 'SNB');
  assert.equal(j.iterations, 1);
  assert.equal(j.cycles, 3);
  assert.equal(j.blockThroughput, 3);
  assert.equal(j.uopsPerCycle, 7 / 3);
  assert.equal(j.totalUops, 7);
  checkSection(j, m.ports, 'report');
  assert.deepEqual(j.variants.perfectFrontEnd, { cycles: 3, blockThroughput: 3, uopsPerCycle: 7 / 3 });
  assert.ok(isNum(j.variants.infinitePorts.blockThroughput) && isNum(j.variants.noDependencies.blockThroughput));
  assert.equal(j.variants.combinations, undefined);
  assert.equal(j.lines[0].ports['1'], 1);
  assert.equal(j.lines[0].ports['0'], 0);
  assert.equal(j.lines[0].divider, undefined, 'no divider key when the divider is unused');
  assert.equal(j.branch, undefined);
  assert.equal(j.detail, undefined);
  assert.deepEqual(j.unknown, []);
});

test('combinations, branch, detail, unknown and divider appear when asked', () => {
  const m = latencyExample();
  const runs = [];
  for (const pf of [false, true])
    for (const ip of [false, true]) for (const nd of [false, true]) runs.push(figures(pf, ip, nd, 3, 1, 7));
  m.main.combinations = runs;
  m.main.stats = stats(
    [
      line(0, 'div rcx', { ports: { '0': 1 }, divider: 20, unknown: true }),
      line(1, 'add rax, rcx', { ports: { '1': 1 } }),
    ],
    25,
    1,
  );
  m.unknown = [{ line: 0, asm: 'div rcx', fallback: 'skip' }];
  m.branch = {
    branchLine: 2,
    left: { ...m.main, combinations: null },
    right: { ...m.main, whatIf: null, combinations: null },
  };
  m.detail = thesisDetail;
  const j = JSON.parse(JSON.stringify(reportJson(m)));
  assert.equal(j.variants.combinations.length, 8);
  assert.deepEqual(Object.keys(j.variants.combinations[7]).sort(), [
    'blockThroughput',
    'cycles',
    'infinitePorts',
    'noDependencies',
    'perfectFrontEnd',
    'uopsPerCycle',
  ]);
  assert.equal(j.lines[0].divider, 20);
  assert.equal(j.lines[0].unknown, true);
  assert.deepEqual(j.unknown, [{ line: 0, asm: 'div rcx', fallback: 'skip' }]);
  assert.equal(j.branch.branchLine, 2);
  checkSection(j.branch.left, m.ports, 'left');
  checkSection(j.branch.right, m.ports, 'right');
  assert.equal(j.branch.right.variants, null);
  assert.deepEqual(j.detail.dependencies[0], {
    line: 3,
    latencyFromThis: 1,
    latencyToThis: null,
    otherDelayedByThis: 15.2,
    thisDelayedByOther: 0,
  });
  assert.deepEqual(j.detail.ports[1], { port: 1, othersDelayedByThis: 13.5, thisDelayedByPort: 15.1 });
  m.branch = null;
  assert.equal(reportJson(m).branch, null);
});

test("every figure of a report with nothing simulated is null, not the placeholders' figures", () => {
  const m = latencyExample();
  m.main.stats = stats([line(0, 'ud2', { ports: { '0': 1 }, hadToWait: 2, unknown: true })], 5, 1);
  m.unknown = [{ line: 0, asm: 'ud2', fallback: 'alu' }];
  const j = JSON.parse(JSON.stringify(reportJson(m)));
  assert.equal(j.simulated, false);
  for (const k of ['cycles', 'blockThroughput', 'uopsPerCycle']) assert.equal(j[k], null, k);
  assert.equal(j.variants, null);
  assert.equal(j.lines[0].hadToWait, null);
  assert.ok(Object.values(j.lines[0].ports).every((v) => v === null));
  assert.ok(Object.values(j.portTotals).every((v) => v === null));
});

test("the JSON report carries the layout version first and each line's address", () => {
  const m = latencyExample();
  m.addresses = m.main.stats.lines.map((l) => 0x401000 + 4 * l.line);
  const j = JSON.parse(JSON.stringify(reportJson(m)));
  assert.equal(Object.keys(j)[0], 'schemaVersion');
  assert.equal(j.schemaVersion, JSON_SCHEMA_VERSION);
  assert.deepEqual(
    j.lines.map((l: { address: number }) => l.address),
    m.addresses,
  );
});
