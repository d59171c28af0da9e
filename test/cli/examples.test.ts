// Every example uopscope shows a user runs as written: those of every command's --help, and the
// command lines in the fenced code blocks of README.md and docs/*.md. Each runs in a fresh
// environment (empty data cache, no config, an empty scratch working directory: the examples are
// found in the package, wherever the user is) through a `uopscope` on the PATH, as a user who
// followed the README has it. Synopsis lines (with a placeholder such as FILE, N, A or an optional part in [ ]) describe
// syntax and are not run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** A placeholder or an optional part: a synopsis, not an example. */
const SYNOPSIS = /\[|\b(FILE|SYMBOL|DIR|KEY|LINE|START|END|N|A|U|X)\b/;

/** `uopscope …` lines of the fenced code blocks of a Markdown file ($ prompts and # comments off),
 *  and `uopscope …` commands in the cells of its tables. */
export function markdownExamples(text: string): string[] {
  const out: string[] = [];
  let inBlock = false;
  for (const raw of text.split('\n')) {
    if (/^\s*```/.test(raw)) {
      inBlock = !inBlock;
      continue;
    }
    if (!inBlock) {
      // a table cell that is a command (`uopscope …` alone; not a name in a sentence)
      if (raw.startsWith('|')) {
        for (const m of raw.matchAll(/\|\s*`(uopscope [^`]+)`\s*(?=\|)/g)) if (!SYNOPSIS.test(m[1]!)) out.push(m[1]!);
      }
      continue;
    }
    // a command starts the line (output shown below a command is indented or starts otherwise)
    if (!/^(\$\s+)?uopscope(\s|$)/.test(raw)) continue;
    const line = raw
      .replace(/^\$\s+/, '')
      .replace(/\s+#\s.*$/, '')
      .trim();
    if (SYNOPSIS.test(line)) continue;
    out.push(line);
  }
  return out;
}

/** The Examples: section of one --help text; a wrapped example is an error (it cannot be copied). */
export function helpExamples(help: string): { examples: string[]; wrapped: string[] } {
  const examples: string[] = [];
  const wrapped: string[] = [];
  const at = help.indexOf('\nExamples:\n');
  if (at < 0) return { examples, wrapped };
  for (const line of help.slice(at + 11).split('\n')) {
    if (line.trim() === '') break;
    const m = /^ {2}(uopscope\b.*?)(?: {2,}.*)?$/.exec(line);
    if (m) examples.push(m[1]!.trim());
    else if (/^ {2}\S/.test(line)) wrapped.push(line.trim());
  }
  return { examples, wrapped };
}

function scratch(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-example-'));
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'uopscope'), `#!/bin/sh\nexec node --import ${TSX} ${join(ROOT, 'src/cli/main.cts')} "$@"\n`);
  chmodSync(join(bin, 'uopscope'), 0o755);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    UOPSCOPE_CACHE_DIR: join(dir, '.cache'),
    UOPSCOPE_CONFIG_DIR: join(dir, '.config'),
  };
  delete env.NODE_OPTIONS;
  return { dir, env };
}

function run(line: string): { status: number | null; out: string; err: string } {
  const { dir, env } = scratch();
  try {
    const r = spawnSync('bash', ['-o', 'pipefail', '-c', line], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
    return { status: r.status, out: r.stdout, err: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function check(where: string, line: string): void {
  const r = run(line);
  assert.equal(r.status, 0, `${where}: \`${line}\` exited with ${r.status}: ${r.err.trim()}`);
  assert.doesNotMatch(r.out, /no data for /, `${where}: \`${line}\` runs on instructions without data`);
}

test('the markdown example finder and the --help parser', () => {
  assert.deepEqual(
    markdownExamples(
      '```sh\n$ uopscope a b   # c\nuopscope FILE [x]\nnpm start\n  uopscope out\n```\nuopscope x\n| `uopscope t` | `uopscope report` on | `uopscope u` |\n',
    ),
    ['uopscope a b', 'uopscope t', 'uopscope u'],
  );
  const h = helpExamples(
    'x\n\nExamples:\n  uopscope a b   what\n                 more\n  uopscope c --arch IVB  not a\n  -i 3 | less\n',
  );
  assert.deepEqual(h.examples, ['uopscope a b', 'uopscope c --arch IVB']);
  assert.deepEqual(h.wrapped, ['-i 3 | less']);
});

test("every example of every command's --help runs as written", { timeout: 300_000 }, () => {
  const { env } = scratch();
  const help = (args: string[]) =>
    execFileSync('uopscope', [...args, '--help'], { env: { ...env, COLUMNS: '80' }, encoding: 'utf8' });
  const top = help([]);
  const commands = [...top.matchAll(/^ {2}uopscope (\w+)/gm)].map((m) => m[1]!);
  assert.ok(commands.includes('report') && commands.includes('config'), top);
  const seen = new Set<string>();
  for (const args of [[], ...commands.map((c) => [c])]) {
    const { examples, wrapped } = helpExamples(help(args));
    assert.deepEqual(wrapped, [], `uopscope ${args.join(' ')} --help: an example wraps onto another line`);
    for (const e of examples) seen.add(e);
  }
  assert.ok(seen.size >= 4, [...seen].join('\n'));
  for (const e of seen) check('--help', e);
});

test('every command line in the fenced code blocks of README.md and docs/ runs as written', {
  timeout: 600_000,
}, () => {
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  let n = 0;
  for (const f of files) {
    for (const e of markdownExamples(readFileSync(join(ROOT, f), 'utf8'))) {
      check(f, e);
      n++;
    }
  }
  assert.ok(n >= 8, `only ${n} examples found`);
});
