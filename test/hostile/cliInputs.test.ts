// Issue 10, defects 7–10 and the minor ones, through the real CLI: outputs keep their mode and
// hard links and may be `-` or /dev/stdout; .S includes are found next to the source; assembled
// files do not leak through messages; the config file is read only when it is a small regular
// file; and a few option mistakes are refused instead of being accepted silently.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assertOneLine, cli, ROOT, SMALL, tempDir } from './helpers.js';

const STENCIL = join(ROOT, 'examples', 'bin', 'stencil.o');

test('defect 7: replacing an output keeps its mode and writes through its hard links', () => {
  const dir = tempDir('out');
  const priv = join(dir, 'priv.dot');
  const hard = join(dir, 'hard.dot');
  writeFileSync(priv, 'old\n');
  chmodSync(priv, 0o600);
  linkSync(priv, hard);
  const ino = statSync(priv).ino;
  const r = cli(['graph', STENCIL, '--cfg', priv]);
  assert.equal(r.code, 0, r.err);
  const st = statSync(priv);
  assert.equal(st.mode & 0o777, 0o600, `mode ${(st.mode & 0o777).toString(8)}`);
  assert.equal(st.ino, ino, 'the same file (inode)');
  assert.match(readFileSync(hard, 'utf8'), /^digraph "cfg"/, 'the other link sees the new graph');
  // a file with one link is still replaced atomically, and keeps its mode too
  const solo = join(dir, 'solo.dot');
  writeFileSync(solo, 'old\n');
  chmodSync(solo, 0o640);
  assert.equal(cli(['graph', STENCIL, '--dg', solo]).code, 0);
  assert.equal(statSync(solo).mode & 0o777, 0o640);
  assert.match(readFileSync(solo, 'utf8'), /^digraph "dg"/);
});

test('defect 7: /dev/stdout as a pipe and `-` are written directly', () => {
  const a = cli(['graph', STENCIL, '--cfg', '/dev/stdout']);
  assert.equal(a.code, 0, a.err);
  assert.match(a.out, /^digraph "cfg"/);
  const b = cli(['graph', STENCIL, '--cfg=-']); // (yargs reads a bare '-' as a positional)
  assert.equal(b.code, 0, b.err);
  assert.match(b.out, /^digraph "cfg"/);
});

test('defect 8: #include "x.h" in a .S file and .include "x.s" in a .s file are found next to the source', () => {
  const dir = tempDir('inc');
  writeFileSync(join(dir, 'defs.h'), '#define STEP 8\n');
  writeFileSync(join(dir, 'body.inc'), 'add rax, rbx\n');
  writeFileSync(
    join(dir, 'loop.S'),
    '#include "defs.h"\n.intel_syntax noprefix\n.text\nf:\n1: add rax, STEP\n dec rcx\n jnz 1b\n ret\n',
  );
  writeFileSync(
    join(dir, 'loop.s'),
    '.intel_syntax noprefix\n.text\nf:\n1: .include "body.inc"\n dec rcx\n jnz 1b\n ret\n',
  );
  const other = tempDir('cwd'); // run from elsewhere: the source's directory, not the cwd, is searched
  const S = cli(['regions', join(dir, 'loop.S')], { cwd: other });
  assert.equal(S.code, 0, S.err);
  assert.match(S.out, /loop at 0x0 in f/);
  const s = cli(['disasm', join(dir, 'loop.s')], { cwd: other });
  assert.equal(s.code, 0, s.err);
  assert.match(s.out, /add rax, rbx/);
});

test('defect 9: bytes an assembly file pulls in (.incbin) are echoed 4 at most', () => {
  const dir = tempDir('incbin');
  const secret = join(dir, 'shadow');
  writeFileSync(secret, '7:::\ndaemon:*:19000:0:99999:7:::\nbin:*:19000:0:99999:7:::\nsys:*:19000:0:99999:7:::\n');
  writeFileSync(join(dir, 'leak.s'), `.text\n.globl f\nf:\n.incbin "${secret}", 0, 64\n`);
  const r = cli(['disasm', join(dir, 'leak.s'), '--function', 'f']);
  assertOneLine(r, /undecodable bytes at 0x0 \(37 ?3a ?3a ?3a…\)/);
  assert.doesNotMatch(r.err.replace(/\s/g, ''), /3a3a3a0a|0a646165/i);
});

test('defect 9: a line of an included file is quoted as a short excerpt only', () => {
  const dir = tempDir('include');
  const passwd = join(dir, 'passwd');
  writeFileSync(passwd, 'root:x:0:0:SECRET-LINE-CONTENT-WHICH-MUST-NOT-APPEAR:/root:/bin/bash\n');
  writeFileSync(join(dir, 'leak.s'), `.text\n.include "${passwd}"\n`);
  const r = cli(['disasm', join(dir, 'leak.s')]);
  assertOneLine(r, /the assembler \(as\) rejected the source/);
  assert.doesNotMatch(r.err, /MUST-NOT-APPEAR/);
});

test('defect 10: a config file that is /dev/zero, a FIFO or huge is refused in one line', () => {
  const zero = tempDir('cfg');
  symlinkSync('/dev/zero', join(zero, 'config.json'));
  assertOneLine(
    cli(['config'], { env: { UOPSCOPE_CONFIG_DIR: zero }, timeout: 20_000 }),
    /config file .* is not a regular file/,
  );
  const fifo = tempDir('cfg');
  execFileSync('mkfifo', [join(fifo, 'config.json')]);
  assertOneLine(
    cli(['config'], { env: { UOPSCOPE_CONFIG_DIR: fifo }, timeout: 20_000 }),
    /config file .* is not a regular file/,
  );
  const big = tempDir('cfg');
  writeFileSync(join(big, 'config.json'), `{"arch":"SKL",${' '.repeat(1 << 20)}"iterations":10}`);
  assertOneLine(cli(['config'], { env: { UOPSCOPE_CONFIG_DIR: big } }), /config file .* is larger than 64 KiB/);
  const ok = tempDir('cfg');
  writeFileSync(join(ok, 'config.json'), '{"arch":"SNB"}');
  const shown = cli(['config'], { env: { UOPSCOPE_CONFIG_DIR: ok } });
  assert.equal(shown.code, 0, shown.err);
  assert.match(shown.out, /SNB/);
});

test('minor: `regions -- -leading.s` reads the file after --', () => {
  const dir = tempDir('dash');
  writeFileSync(join(dir, '-leading.s'), '.intel_syntax noprefix\n.text\n1: add rax, rbx\n dec rcx\n jnz 1b\n');
  const r = cli(['regions', '--', '-leading.s'], { cwd: dir });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^-leading\.s \(asm, x86-64\): 1 region/);
  // also for the default command (the explorer, which prints the report when not on a terminal)
  const d = cli(['-i', '3', '--', '-leading.s'], { cwd: dir });
  assert.equal(d.code, 0, d.err);
  assert.match(d.out, /^Region: loop at 0x0 .* in -leading\.s/m);
});

test('minor: --rs-size 99999999999999999999 and a repeated --hex are refused', () => {
  assertOneLine(
    cli(['report', '--hex', '4801c0', '--rs-size', '99999999999999999999', '--iterations', '1']),
    /--rs-size 99999999999999999999: give a whole number from 1 to 4096/,
  );
  assertOneLine(cli(['regions', '--hex', '90', '--hex', 'c3']), /--hex is given more than once/);
});

test("minor: a binary XML file's control characters are escaped in the error line", () => {
  const p = join(tempDir('bin'), 'binary.xml');
  writeFileSync(
    p,
    Buffer.concat([
      Buffer.from('<root>\x1b[31mRED\x07\x00\x1b]0;title\x07'),
      Buffer.from(readFileSync(SMALL)).subarray(0, 50),
    ]),
  );
  const r = cli(['data', 'import', p]);
  assertOneLine(r, /binary\.xml:1:7: unexpected text "\\x1b\[31mRED\\x07\\x00/);
});

test('minor: a file name with control characters is escaped too', () => {
  const dir = tempDir('name');
  mkdirSync(join(dir, 'd'));
  const r = cli(['regions', join(dir, 'd', 'evil\x1b[2Jname.o')]);
  assertOneLine(r, /evil\\x1b\[2Jname\.o: no such file/);
});

test('a cache directory whose parent answers ENOENT to mkdir (/proc/…): no hang — the report runs, data fetch and measure say so in one line', () => {
  // Node 20's mkdirSync(…, { recursive: true }) loops forever there (src/mkdirs.ts)
  const cache = '/proc/uopscope-cache-test';
  const r = cli(['report', 'examples/bin/stencil', '--iterations', '1', '--fast'], { cache, timeout: 30_000 });
  assert.equal(r.signal, null, 'report hung');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Block Throughput/i);
  assertOneLine(
    cli(['data', 'fetch', '--url', 'http://127.0.0.1:9/x'], { cache, timeout: 30_000 }),
    /cannot create the cache directory \/proc\/uopscope-cache-test: ENOENT/,
  );
});
