// Every example of `--help` runs as printed from an empty working directory (the examples name
// the shipped example programs by their absolute path), and a region note names a command the
// user can run (not `uopscope regions <stdin>`). Runs the built CLI (npm run build first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'dist', 'cli', 'main.cjs');
const empty = mkdtempSync(join(tmpdir(), 'uopscope-empty-'));
process.on('exit', () => rmSync(empty, { recursive: true, force: true }));

function uopscope(args: string[], input?: Buffer) {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd: empty,
    encoding: 'utf8',
    env: { ...process.env, UOPSCOPE_CONFIG_DIR: join(empty, '.config'), COLUMNS: '100' },
    ...(input !== undefined ? { input } : {}),
  });
}

/** The examples a command's help prints, as argument lists (without the program's name). */
function examples(command: string[]): string[][] {
  const help = uopscope([...command, '--help']).stdout;
  const at = help.indexOf('Examples:');
  assert.ok(at >= 0, `${command.join(' ')} --help has examples`);
  // one example a line, or continued on the next (a long one is wrapped); its description after 2+ spaces
  const out: string[][] = [];
  for (const l of help.slice(at).split('\n').slice(1)) {
    const t = l.trim();
    if (t === '') continue;
    const words = t.split(/\s{2,}/)[0]!.split(/\s+/);
    if (words[0] === 'uopscope') out.push(words.slice(1));
    else out.at(-1)?.push(...words);
  }
  return out.map((a) => (a.at(-2) === '|' ? a.slice(0, -2) : a));
}

for (const command of [['report'], ['measure'], []])
  test(`uopscope ${command.join(' ') || '(explore)'} --help: every example runs from an empty directory`, () => {
    const ex = examples(command);
    assert.ok(ex.length > 0);
    for (const args of ex) {
      const r = uopscope(args);
      assert.equal(r.status, 0, `uopscope ${args.join(' ')}: ${r.stderr}`);
      assert.ok(r.stdout.length > 0, args.join(' '));
    }
  });

test('the note on standard input names a runnable command', () => {
  const r = uopscope(
    ['report', '-', '--arch', 'SKL', '--fast'],
    readFileSync(join(ROOT, 'examples', 'bin', 'two-regions')),
  );
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /regions <stdin>/);
  assert.match(r.stderr, /'uopscope regions -' with the same standard input/);
});
