// Output files and bad data found by a review: links and devices as output paths, ports a machine
// does not have, yargs's own multi-line messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, lstatSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeOutputFile } from '../../src/cli/outputFile.js';
import { UserError } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'uopscope-hardening-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

function uopscope(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, UOPSCOPE_CONFIG_DIR: join(dir, 'cfg'), UOPSCOPE_CACHE_DIR: join(dir, 'cache') },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('writing through a symbolic link replaces the target and keeps the link', () => {
  const real = join(dir, 'real.dot');
  const link = join(dir, 'link.dot');
  writeFileSync(real, 'old');
  symlinkSync(real, link);
  writeOutputFile(link, 'new');
  assert.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
  assert.equal(readFileSync(real, 'utf8'), 'new');
});

test('a device is written directly, never renamed over; a full device is one clear error', () => {
  if (!existsSync('/dev/full') || !lstatSync('/dev/full').isCharacterDevice()) return;
  assert.throws(
    () => writeOutputFile('/dev/full', 'x', 'graph'),
    (e: unknown) => e instanceof UserError && /\/dev\/full: cannot write the graph \(ENOSPC\)/.test(e.message),
  );
  assert.ok(lstatSync('/dev/full').isCharacterDevice(), '/dev/full is still a device');
  writeOutputFile('/dev/null', 'x');
  assert.ok(lstatSync('/dev/null').isCharacterDevice());
});

test('a directory as the output path is refused with one line', () => {
  assert.throws(
    () => writeOutputFile(dir, 'x', 'export'),
    (e: unknown) => e instanceof UserError && /is a directory/.test(e.message),
  );
});

test('data that puts a µop on a port the machine does not have is refused, naming form and port', () => {
  const xml = readFileSync('test/fixtures/data/small-instructions.xml', 'utf8');
  const m = /<instruction [^>]*string="ADD[^"]*\(R64, R64\)"[\s\S]*?<\/instruction>/.exec(xml);
  assert.ok(m, 'the fixture has ADD (R64, R64)');
  const bad = xml.replace(m[0], m[0].replace(/(<architecture name="SKL">[\s\S]*?ports=")[^"]*"/, '$11*p9"'));
  assert.notEqual(bad, xml, 'the SKL block of ADD was changed');
  const file = join(dir, 'p9.xml');
  writeFileSync(file, bad);
  const r = uopscope(['report', '--hex', '4801d8', '--arch', 'SKL', '--uops-xml', file]);
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /uses port 9 on SKL, which its machine model does not have/);
});

test("yargs's own validation messages come out as one line", () => {
  const r = uopscope(['report', 'examples/bin/branch', '--assembler', 'nasm']);
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /assembler/);
});
