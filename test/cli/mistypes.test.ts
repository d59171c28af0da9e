// What a mistyped command line gets: one line that names what the user typed and what to do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { ALL_OPTIONS, checkFirstWord, editDistance } from '../../src/cli/run.js';

function uopscope(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('a mistyped command is called one and the nearest command suggested (not "Unknown argument: FILE")', () => {
  const r = uopscope(['reprot', 'examples/bin/branch']);
  assert.equal(r.status, 2);
  assert.equal(
    r.stderr,
    "uopscope: 'reprot' is not a uopscope command (nor an existing file): did you mean 'uopscope report'? (see 'uopscope --help')\n",
  );
  const alone = uopscope(['disam']);
  assert.equal(alone.status, 2);
  assert.match(alone.stderr, /'disam' is not a uopscope command .*did you mean 'uopscope disasm'\?/);
  const far = uopscope(['frobnicate', 'examples/bin/branch']);
  assert.match(far.stderr, /'frobnicate' is not a uopscope command .*the commands are report, disasm/);
  // a file that does not exist and looks like no command: the input stage says so
  assert.match(uopscope(['kern.o']).stderr, /kern\.o: no such file/);
});

test('a word that is an existing file or a command is left alone', () => {
  assert.doesNotThrow(() => checkFirstWord(['report', 'x']));
  assert.doesNotThrow(() => checkFirstWord(['reprot', 'x'], () => true));
  assert.doesNotThrow(() => checkFirstWord(['--arch', 'SNB', 'x']));
  assert.doesNotThrow(() => checkFirstWord(['-']));
  assert.equal(editDistance('reprot', 'report'), 1);
  assert.equal(editDistance('graph', 'graph'), 0);
});

test('--region quotes what was typed', () => {
  for (const args of [
    ['report', 'examples/bin/branch', '--region', 'abc'],
    ['examples/bin/branch', '--region', '1x'],
  ]) {
    const r = uopscope(args);
    assert.equal(r.status, 2);
    const typed = args[args.length - 1]!;
    assert.equal(
      r.stderr,
      `uopscope: --region '${typed}': not a region number (1, 2, …); see 'uopscope regions FILE'\n`,
    );
  }
  const ok = uopscope(['report', 'examples/bin/two-regions.o', '--region', '2', '--fast']);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /IACA region 2/);
});

test('a mistyped data command or option gets the nearest one', () => {
  const d = uopscope(['data', 'imprt', 'x.xml']);
  assert.equal(d.status, 2);
  assert.equal(
    d.stderr,
    "uopscope: 'data imprt' is not a uopscope command: did you mean 'uopscope data import'? (see 'uopscope data --help')\n",
  );
  const o = uopscope(['report', 'examples/bin/branch', '--arhc', 'SNB']);
  assert.equal(o.status, 2);
  assert.equal(o.stderr, "uopscope: unknown argument: 'arhc' (did you mean --arch?) (see 'uopscope --help')\n");
});

test('the option list for suggestions holds every option a command declares', () => {
  const declared = new Set<string>();
  for (const f of readdirSync('src/cli/commands')
    .map((x) => `src/cli/commands/${x}`)
    .concat('src/cli/regionOptions.ts')) {
    for (const m of readFileSync(f, 'utf8').matchAll(/\.option\('([a-z-]+)'/g)) declared.add(m[1]!);
  }
  assert.ok(declared.size > 15);
  for (const o of declared) assert.ok(ALL_OPTIONS.includes(o), `ALL_OPTIONS lacks ${o}`);
});

test('every command that --help lists is a command name the typo hints and the input options know', async () => {
  const { COMMAND_NAMES } = await import('../../src/cli/commandNames.js');
  const help = uopscope(['--help']);
  assert.equal(help.status, 0);
  const commands = help.stdout.slice(help.stdout.indexOf('Commands:'), help.stdout.indexOf('Options:'));
  const listed = [...commands.matchAll(/^ {2}uopscope (\w+)/gm)].map((m) => m[1]!).sort();
  assert.ok(listed.length >= 6, help.stdout);
  assert.deepEqual(listed, [...COMMAND_NAMES].sort());
});

test('a named command is never taken for an input file (measure with a file)', () => {
  const r = uopscope(['measure', 'examples/bin/no-such-file']);
  assert.equal(r.status, 2);
  assert.doesNotMatch(r.stderr, /more than one input/);
  assert.match(r.stderr, /no-such-file/);
});
