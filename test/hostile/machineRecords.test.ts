// Machine records ($UOPSCOPE_MACHINES_DIR) are input: a FIFO or a link to /dev/zero in place of a
// record hung every command or read without end, a directory that is not one was an internal
// error, too many ports or an unbounded station size reached the engine, and a record's name
// drove the terminal. Now each is one line naming the file, and free text is escaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { assertOneLine, cli, tempDir } from './helpers.js';

/** A record of a made-up core that takes everything else from Skylake's. */
function record(fields: Record<string, unknown> = {}): string {
  return JSON.stringify({
    arch: 'HOSTILE',
    name: 'Hostile Lake',
    inherits: 'SKL',
    inheritsDataFrom: 'SKL',
    sources: ['a test'],
    ...fields,
  });
}

function recordsDir(write: (dir: string) => void): string {
  const dir = tempDir('machines');
  write(dir);
  return dir;
}

const list = (dir: string) => cli(['data', 'list'], { env: { UOPSCOPE_MACHINES_DIR: dir }, timeout: 20_000 });

test('a valid extra record is listed (the baseline of the tests below)', () => {
  const r = list(recordsDir((d) => writeFileSync(join(d, 'HOSTILE.json'), record())));
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Hostile Lake/);
});

test('a FIFO named X.json is refused at once, not waited on', () => {
  const dir = recordsDir((d) => execFileSync('mkfifo', [join(d, 'X.json')]));
  const t0 = Date.now();
  assertOneLine(list(dir), /machine model .*X\.json is not a regular file/);
  assert.ok(Date.now() - t0 < 15_000);
});

test('a link to /dev/zero is refused without being read', () => {
  const dir = recordsDir((d) => symlinkSync('/dev/zero', join(d, 'X.json')));
  assertOneLine(list(dir), /machine model .*X\.json is not a regular file/);
});

test('a 1 GiB record is refused by its size, not parsed', () => {
  const dir = recordsDir((d) => {
    const fd = openSync(join(d, 'X.json'), 'w');
    ftruncateSync(fd, 2 ** 30);
    closeSync(fd);
  });
  const t0 = Date.now();
  assertOneLine(list(dir), /machine model .*X\.json is larger than 1 MiB/);
  assert.ok(Date.now() - t0 < 15_000);
});

test('a records "directory" that is not one is one line, not an internal error', () => {
  assertOneLine(list('/dev/zero'), /machine models: \/dev\/zero is not a directory/);
});

test("more than 30 ports, or a port number of 30 or more, is the loader's one line", () => {
  const many = Array.from({ length: 31 }, (_, i) => i);
  assertOneLine(
    list(recordsDir((d) => writeFileSync(join(d, 'HOSTILE.json'), record({ ports: many })))),
    /HOSTILE\.json has bad fields: ports \(distinct numbers below 30\)/,
  );
  assertOneLine(
    list(recordsDir((d) => writeFileSync(join(d, 'HOSTILE.json'), record({ ports: [0, 1, 5, 6, 2, 3, 4, 7, 31] })))),
    /HOSTILE\.json has bad fields: ports/,
  );
});

test("rsSize and issueWidth have the command line's bounds", () => {
  assertOneLine(
    list(recordsDir((d) => writeFileSync(join(d, 'HOSTILE.json'), record({ rsSize: 2147483647 })))),
    /bad fields: rsSize \(1 to 4096\)/,
  );
  assertOneLine(
    list(recordsDir((d) => writeFileSync(join(d, 'HOSTILE.json'), record({ issueWidth: 5000 })))),
    /bad fields: issueWidth \(1 to 1024\)/,
  );
});

test("a record's name and notes cannot drive the terminal", () => {
  const name = '\x1b]0;owned\x07\x1b[31mRed Lake';
  const dir = recordsDir((d) =>
    writeFileSync(
      join(d, 'HOSTILE.json'),
      record({ name, frontEnd: { notModelled: 'front end \x1b[2J cleared' }, notes: ['\x1b]0;t\x07'] }),
    ),
  );
  const r = list(dir);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /\\x1b\]0;owned\\x07\\x1b\[31mRed Lake/);
  assert.doesNotMatch(r.out + r.err, /\x1b/);
  const rep = cli(['report', 'examples/bin/branch', '--arch', 'HOSTILE', '--iterations', '5'], {
    env: { UOPSCOPE_MACHINES_DIR: dir },
  });
  assert.equal(rep.code, 0, rep.err);
  assert.doesNotMatch(rep.out + rep.err, /\x1b/);
});
