// Every JSON output carries the layout version first (src/report/schemaVersion.ts), and a report
// with nothing simulated gives null for each figure it did not compute.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSON_SCHEMA_VERSION } from '../../src/report/schemaVersion.js';

const dir = mkdtempSync(join(tmpdir(), 'uopscope-json-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

function json(args: string[]): Record<string, unknown> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, UOPSCOPE_CONFIG_DIR: join(dir, 'config') },
  });
  assert.ok(r.status === 0 || r.status === 2, `${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const OUTPUTS: string[][] = [
  ['report', 'examples/bin/branch', '--arch', 'SKL', '--fast', '--json'],
  ['disasm', 'examples/bin/branch', '--json'],
  ['disasm', 'examples/bin/branch', '--arch', 'SKL', '--json'],
  ['regions', 'examples/bin/branch', '--json'],
  ['data', 'list', '--json'],
];

for (const args of OUTPUTS)
  test(`${args.join(' ')}: the layout version comes first`, () => {
    const j = json(args);
    assert.equal(Object.keys(j)[0], 'schemaVersion');
    assert.equal(j.schemaVersion, JSON_SCHEMA_VERSION);
  });

test("report --json with nothing simulated: null for every figure not computed, and each line's address", () => {
  const j = json(['report', '--hex', '0f0b', '--arch', 'SKL', '--json']) as {
    simulated: boolean;
    blockThroughput: unknown;
    uopsPerCycle: unknown;
    lines: { address: number; hadToWait: unknown }[];
  };
  assert.equal(j.simulated, false);
  assert.equal(j.blockThroughput, null);
  assert.equal(j.uopsPerCycle, null);
  assert.equal(j.lines[0]!.hadToWait, null);
  assert.equal(j.lines[0]!.address, 0);
});

test("report --json: each line's address is the listing's", () => {
  const r = json(['report', 'examples/bin/branch', '--arch', 'SKL', '--fast', '--json']) as {
    lines: { line: number; address: number }[];
  };
  const d = json(['disasm', 'examples/bin/branch', '--json']) as { instructions: { address: number }[] };
  const listed = new Set(d.instructions.map((i) => i.address));
  assert.ok(r.lines.length > 0 && r.lines.every((l) => listed.has(l.address)), JSON.stringify(r.lines));
  assert.ok(r.lines.every((l, i) => i === 0 || l.address > r.lines[i - 1]!.address));
});
