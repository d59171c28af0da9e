// The file format of figures measured on a host (src/data/measuredFormat.ts): the hand-written
// fixture parses, the writer's output reads back the same, and every kind of damage is one line
// naming the place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  MEASURED_MAX_BYTES,
  emptyMeasured,
  measuredFormKey,
  measuredPortGroups,
  measuredText,
  parseMeasured,
  readMeasured,
  removeMeasured,
  shippedMeasuredPath,
  splitMeasuredKey,
  userMeasuredPath,
  validateMeasured,
  writeMeasured,
} from '../../src/data/measuredFormat.js';
import { UserError } from '../../src/errors.js';
import { tempDir } from './helpers.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'measured', 'SKL.json');
const fixtureText = () => readFileSync(FIXTURE, 'utf8');
const fixtureJson = () => JSON.parse(fixtureText()) as Record<string, any>;

test('the hand-written fixture parses with every kind of figure', () => {
  const f = parseMeasured(fixtureText(), FIXTURE);
  assert.equal(f.arch, 'SKL');
  assert.match(f.provenance.cpu, /TEST FIXTURE/);
  assert.deepEqual(Object.keys(f.forms).sort(), [
    'ADD (R64, R64)',
    'IMUL (R64, R64)',
    'POPCNT (R64, R64)',
    'XOR (R32, R32)',
  ]);
  const imul = f.forms['IMUL (R64, R64)']!;
  assert.deepEqual(imul.latencies[2], { from: 'o1', to: 'flags', cycles: 3, upperBound: true });
  assert.deepEqual(imul.ports, [{ uops: 1, ports: 'p1', from: 'measured' }]);
  assert.deepEqual(f.forms['XOR (R32, R32)']!.sameReg!.uops, { fused: 1, unfused: 0 });
  assert.equal(f.forms['POPCNT (R64, R64)']!.check.status, 'failed');
  assert.equal(f.machine.renameWidth!.value, 4);
  assert.equal(f.machine.eliminations!.zeroIdioms!.eliminated, true);
});

test('written and read back, a file is the same; forms come out in key order', () => {
  const dir = tempDir('measured');
  try {
    const f = parseMeasured(fixtureText(), FIXTURE);
    const path = join(dir, 'deep', 'SKL.json');
    writeMeasured(path, f);
    const back = readMeasured(path)!;
    assert.deepEqual(back, f);
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(path, 'utf8')).forms), Object.keys(f.forms).sort());
    assert.equal(measuredText(back), readFileSync(path, 'utf8'));
    assert.equal(removeMeasured(path), true);
    assert.equal(removeMeasured(path), false);
    assert.equal(readMeasured(path), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a producer starts from emptyMeasured and adds forms under measuredFormKey', () => {
  const prov = parseMeasured(fixtureText(), FIXTURE).provenance;
  const f = emptyMeasured(prov);
  f.forms[measuredFormKey('ADD (R64, I8)', { immzero: '0' })] = {
    latencies: [{ from: 'o0', to: 'o0', cycles: 1 }],
    ports: [{ uops: 1, ports: 'p0156', from: 'measured' }],
    uops: { unfused: 1 },
    check: { status: 'unchecked' },
  };
  const back = parseMeasured(measuredText(f), 'x.json');
  assert.deepEqual(Object.keys(back.forms), ['ADD (R64, I8)|immzero=0']);
  assert.deepEqual(splitMeasuredKey('ADD (R64, I8)|immzero=0'), {
    signature: 'ADD (R64, I8)',
    attributes: { immzero: '0' },
  });
  // a file that does not validate is the producer's bug, not written
  f.forms['ADD (R64, I8)|immzero=0']!.uops.unfused = 0;
  assert.throws(() => measuredText(f), /1 µops on ports, more than the 0 unfused µops/);
});

test("port combinations become the engine's port groups, the same combination added up", () => {
  assert.deepEqual(
    measuredPortGroups([
      { uops: 1, ports: 'p0156', from: 'measured' },
      { uops: 1, ports: 'p23', from: 'llvm' },
      { uops: 2, ports: 'p6510', from: 'llvm' },
    ]),
    [
      { count: 3, ports: [0, 1, 5, 6] },
      { count: 1, ports: [2, 3] },
    ],
  );
  assert.deepEqual(measuredPortGroups([{ uops: 1, ports: 'pAB', from: 'measured' }]), [{ count: 1, ports: [10, 11] }]);
});

/** Each damage, and the one line it must give (the place, then what is wrong). */
const DAMAGE: [string, (j: Record<string, any>) => void, RegExp][] = [
  [
    'not this format',
    (j) => {
      j.format = 'uops.info';
    },
    /^measured figures x\.json: format: must be 'uopscope-measured'/,
  ],
  [
    'a newer version',
    (j) => {
      j.version = 99;
    },
    /version: 99 is newer than this uopscope reads \(1\): update uopscope/,
  ],
  [
    'an unknown field',
    (j) => {
      j.forms['ADD (R64, R64)'].latency = 1;
    },
    /forms\["ADD \(R64, R64\)"\]: unknown field 'latency'/,
  ],
  [
    'a negative latency',
    (j) => {
      j.forms['IMUL (R64, R64)'].latencies[1].cycles = -3;
    },
    /forms\["IMUL \(R64, R64\)"\]\.latencies\[1\]\.cycles: must be a non-negative number, not -3/,
  ],
  [
    'an operand that is none',
    (j) => {
      j.forms['IMUL (R64, R64)'].latencies[0].from = 'rax';
    },
    /latencies\[0\]\.from: 'rax' is not an operand/,
  ],
  [
    'a port that is none',
    (j) => {
      j.forms['IMUL (R64, R64)'].ports[0].ports = 'p1x';
    },
    /ports\[0\]\.ports: 'p1x' is not a port combination/,
  ],
  [
    'ports without their marker',
    (j) => {
      delete j.forms['IMUL (R64, R64)'].ports[0].from;
    },
    /ports\[0\]\.from: must be 'measured', 'record' or 'llvm'/,
  ],
  [
    'fractional µops',
    (j) => {
      j.forms['ADD (R64, R64)'].uops.unfused = 1.5;
    },
    /uops\.unfused: must be a whole number, not 1\.5/,
  ],
  [
    'more port µops than µops',
    (j) => {
      j.forms['ADD (R64, R64)'].ports[0].uops = 2;
    },
    /\.ports: 2 µops on ports, more than the 1 unfused µops/,
  ],
  [
    'a failed check that says nothing',
    (j) => {
      j.forms['POPCNT (R64, R64)'].check.notes = [];
    },
    /check\.notes: a failed check must say what failed/,
  ],
  [
    'a key with unsorted attributes',
    (j) => {
      j.forms['ADD (R64, I8)|rep=0,immzero=1'] = j.forms['ADD (R64, R64)'];
    },
    /the key must list its attributes sorted: 'ADD \(R64, I8\)\|immzero=1,rep=0'/,
  ],
  [
    'a key that is no signature',
    (j) => {
      j.forms['add rax, 1'] = j.forms['ADD (R64, R64)'];
    },
    /the key must be a form's signature/,
  ],
  [
    'another core in the provenance',
    (j) => {
      j.provenance.core.arch = 'SPR';
    },
    /provenance\.core\.arch: SPR is not the file's arch SKL/,
  ],
  [
    'a lower-case arch',
    (j) => {
      j.arch = 'skl';
    },
    /x\.json: arch: 'skl' must be written as SKL/,
  ],
  [
    'a date that is none',
    (j) => {
      j.provenance.date = 'yesterday';
    },
    /provenance\.date: 'yesterday' is not an ISO 8601 UTC time/,
  ],
  [
    'no microcode field',
    (j) => {
      delete j.provenance.microcode;
    },
    /provenance\.microcode: must be a non-empty string/,
  ],
  [
    'a parameter without its benchmark',
    (j) => {
      delete j.machine.renameWidth.benchmark;
    },
    /machine\.renameWidth\.benchmark: must be a non-empty string/,
  ],
  [
    'an elimination that is no name',
    (j) => {
      j.machine.eliminations['../x'] = j.machine.eliminations.moves;
    },
    /machine\.eliminations: '\.\.\/x' is not a name/,
  ],
];

for (const [name, damage, want] of DAMAGE) {
  test(`damage gives one line: ${name}`, () => {
    const j = fixtureJson();
    damage(j);
    assert.throws(
      () => parseMeasured(JSON.stringify(j), 'x.json'),
      (e: unknown) => {
        assert.ok(e instanceof UserError, String(e));
        assert.equal(e.exitCode, 2);
        assert.doesNotMatch(e.message, /\n/);
        assert.match(e.message, want);
        assert.match(e.message, / — measure again with 'uopscope data measure', or remove the file$/);
        return true;
      },
    );
  });
}

test('unreadable files: not JSON, a directory, too large', () => {
  const dir = tempDir('measured');
  try {
    assert.throws(() => parseMeasured('{', 'x.json'), /measured figures x\.json are not valid JSON \(/);
    assert.throws(() => readMeasured(dir), /is not a regular file/);
    const big = join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, MEASURED_MAX_BYTES + 1);
    assert.throws(() => readMeasured(big), /is larger than 64 MiB/);
    assert.ok('error' in validateMeasured([]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("locations: the cache root's measured/ and the shipped assets/uarch/measured/", () => {
  assert.equal(userMeasuredPath('SPR', '/tmp/c'), '/tmp/c/measured/SPR.json');
  assert.match(shippedMeasuredPath('ADL-P'), /assets\/uarch\/measured\/ADL-P\.json$/);
  assert.throws(() => userMeasuredPath('../x' as never, '/tmp/c'), /is not an architecture name/);
});
