// Outputs (--cfg, --dg, the explorer's export, the config file) were written by renaming a new
// file over the old one: a read-only file lost its content, another user's file in a shared
// non-sticky directory was replaced and changed owner (where the shell's `>` refuses), and
// `graph in.o --cfg in.o` overwrote its input. Now a file the user could not write is refused, and
// so is an output that is an input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, TSX, assertOneLine, cli, tempDir, userReaches } from './helpers.js';

const BIN = join(ROOT, 'examples', 'bin', 'branch');
const NOBODY = 65534;
const root = process.getuid?.() === 0;
const canSwitch = root && spawnSync('setpriv', ['--help']).status === 0;
/** nobody can read the CLI and tsx: not so when the clone is under a directory only root may
 *  enter (/root, `mktemp -d`), where running the command as nobody fails with "module not found" */
const nobodyReaches = canSwitch && userReaches(NOBODY, [join(ROOT, 'src', 'cli', 'main.cts'), fileURLToPath(TSX)]);
const asAnotherUser =
  (!canSwitch && 'needs root to act as another user') ||
  (!nobodyReaches &&
    `nobody (uid ${NOBODY}) cannot reach the clone at ${ROOT}: it lies under a directory only its owner may enter`);

/** The CLI as another user (nobody), in a shared directory everyone may write (not sticky). */
function asNobody(args: string[], shared: string) {
  const r = spawnSync(
    'setpriv',
    [
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      '--clear-groups',
      '--',
      process.execPath,
      '--import',
      TSX,
      join(ROOT, 'src', 'cli', 'main.cts'),
      ...args,
    ],
    {
      encoding: 'utf8',
      cwd: shared,
      timeout: 120_000,
      env: {
        ...process.env,
        HOME: shared,
        TMPDIR: shared,
        UOPSCOPE_CACHE_DIR: join(shared, 'cache'),
        UOPSCOPE_CONFIG_DIR: join(shared, 'config'),
      },
    },
  );
  return { code: r.status, out: r.stdout, err: r.stderr, signal: r.signal };
}

function sharedDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'uopscope-shared-'));
  chmodSync(d, 0o777); // writable by all, no sticky bit: anyone may rename over anyone's file
  return d;
}

test("graph --cfg onto another user's file in a shared directory is refused; the file keeps its content and owner", {
  skip: asAnotherUser,
}, () => {
  const shared = sharedDir();
  const theirs = join(shared, 'theirs.dot');
  writeFileSync(theirs, 'precious\n');
  chmodSync(theirs, 0o644); // root's, readable by all, writable by root only
  const r = asNobody(['graph', BIN, '--cfg', theirs], shared);
  assertOneLine(r, /you cannot write this file.*another file name/);
  assert.equal(readFileSync(theirs, 'utf8'), 'precious\n');
  assert.equal(statSync(theirs).uid, 0);
});

test("graph --dg onto one's own read-only (0444) file is refused, as the shell's > refuses it", {
  skip: asAnotherUser,
}, () => {
  const shared = sharedDir();
  const mine = join(shared, 'mine.dot');
  writeFileSync(mine, 'keep me\n');
  chownSync(mine, NOBODY, NOBODY);
  chmodSync(mine, 0o444);
  assertOneLine(asNobody(['graph', BIN, '--dg', mine], shared), /you cannot write this file/);
  assert.equal(readFileSync(mine, 'utf8'), 'keep me\n');
});

test('graph in.o --cfg in.o refuses to overwrite its input', () => {
  const dir = tempDir('outputs');
  const input = join(dir, 'in.o');
  copyFileSync(BIN, input);
  const before = readFileSync(input);
  assertOneLine(cli(['graph', input, '--cfg', input]), /is the input .*another file name/);
  assert.deepEqual(readFileSync(input), before);
  // through another name (a symbolic link) too
  const r = spawnSync('ln', ['-s', input, join(dir, 'alias.o')]);
  assert.equal(r.status, 0);
  assertOneLine(cli(['graph', input, '--dg', join(dir, 'alias.o')]), /is the input/);
  assert.deepEqual(readFileSync(input), before);
});
