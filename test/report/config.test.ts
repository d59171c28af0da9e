import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { runConfig } from '../../src/cli/commands/config.js';
import { configPath, effectiveSettings, readConfig } from '../../src/cli/config.js';
import { UserError } from '../../src/errors.js';

function tempEnv(): { env: NodeJS.ProcessEnv; dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-config-'));
  return {
    env: { UOPSCOPE_CONFIG_DIR: join(dir, 'cfg') },
    dir,
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

test('config set / show / unset round-trips through the file', (t) => {
  const { env, done } = tempEnv();
  t.after(done);
  assert.match(
    runConfig('show', undefined, undefined, undefined, env),
    /^arch: SKL \(built-in default\)\niterations: 200 \(built-in default\)\n/,
  );
  assert.match(runConfig('set', 'arch', 'snb', undefined, env), /^arch = SNB \(saved in /);
  runConfig('set', 'iterations', '500', undefined, env);
  assert.deepEqual(JSON.parse(readFileSync(configPath(env), 'utf8')), { arch: 'SNB', iterations: 500 });
  assert.deepEqual(readConfig(env), { arch: 'SNB', iterations: 500 });
  assert.match(
    runConfig('show', undefined, undefined, undefined, env),
    /^arch: SNB \(config file\)\niterations: 500 \(config file\)\n/,
  );
  // a flag beats the file
  const eff = effectiveSettings({ iterations: 7 }, env);
  assert.deepEqual(
    [eff.arch, eff.iterations],
    [
      { value: 'SNB', from: 'config' },
      { value: 7, from: 'flag' },
    ],
  );
  runConfig('unset', 'arch', undefined, undefined, env);
  assert.deepEqual(readConfig(env), { iterations: 500 });
  // no temp file is left behind
  assert.deepEqual(readdirSync(env.UOPSCOPE_CONFIG_DIR!), ['config.json']);
});

test('bad settings are refused with one clear line and the file is left alone', (t) => {
  const { env, done } = tempEnv();
  t.after(done);
  runConfig('set', 'iterations', '300', undefined, env);
  const before = readFileSync(configPath(env), 'utf8');
  assert.throws(
    () => runConfig('set', 'iterations', '0', undefined, env),
    (e: unknown) => e instanceof UserError && /whole number from 1/.test(e.message),
  );
  assert.throws(() => runConfig('set', 'iterations', '2.5', undefined, env), UserError);
  assert.throws(() => runConfig('set', 'colour', 'red', undefined, env), /unknown setting 'colour'/);
  assert.throws(
    () =>
      runConfig(
        'set',
        'arch',
        'XYZ',
        (a) => {
          throw new UserError(`unknown architecture ${a}`);
        },
        env,
      ),
    /unknown architecture XYZ/,
  );
  assert.throws(() => runConfig('set', 'arch', undefined, undefined, env), /give a value/);
  assert.equal(readFileSync(configPath(env), 'utf8'), before);
});

test('a broken config file is named in the error', (t) => {
  const { env, done } = tempEnv();
  t.after(done);
  mkdirSync(env.UOPSCOPE_CONFIG_DIR!, { recursive: true });
  writeFileSync(configPath(env), '{"arch": ');
  assert.throws(
    () => readConfig(env),
    (e: unknown) => e instanceof UserError && e.message.includes(configPath(env)) && /not valid JSON/.test(e.message),
  );
  writeFileSync(configPath(env), '{"iterations": -3}');
  assert.throws(() => readConfig(env), /"iterations" in .*config\.json/);
});

test('the XDG config directory is used when no override is set', () => {
  assert.equal(configPath({ XDG_CONFIG_HOME: '/x/cfg' }), '/x/cfg/uopscope/config.json');
  assert.equal(configPath({ XDG_CONFIG_HOME: '/x/cfg', UOPSCOPE_CONFIG_DIR: '/o' }), '/o/config.json');
  assert.match(configPath({}), /\.config\/uopscope\/config\.json$/);
});

test('uopscope config works as a command: output, exit codes, one-line errors', (t) => {
  const { env, done } = tempEnv();
  t.after(done);
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', ...args], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
  const ok = run('config', 'set', 'iterations', '1000');
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /^iterations = 1000 \(saved in .*config\.json\)\n$/);
  const show = run('config');
  assert.match(show.stdout, /iterations: 1000 \(config file\)/);
  const badAction = run('config', 'frob');
  assert.equal(badAction.status, 2);
  assert.equal(badAction.stderr, "uopscope: config: unknown action 'frob'; use show, set or unset\n");
  const bad = run('config', 'set', 'iterations', 'lots');
  assert.equal(bad.status, 2);
  assert.equal(bad.stdout, '');
  assert.match(
    bad.stderr,
    /^uopscope: iterations: 'lots' is not an iteration count; give a whole number from 1 to \d+\n$/,
  );
});

test("config set export-dir: the explorer's export proposes it; show lists it", (t) => {
  const { env, dir, done } = tempEnv();
  t.after(done);
  assert.match(
    runConfig('show', undefined, undefined, undefined, env),
    /\nexport-dir: the current directory \(built-in default\)\n/,
  );
  runConfig('set', 'export-dir', join(dir, 'exports'), undefined, env);
  assert.deepEqual(readConfig(env), { 'export-dir': join(dir, 'exports') });
  assert.equal(effectiveSettings({}, env)['export-dir'].value, join(dir, 'exports'));
  assert.deepEqual(effectiveSettings({ 'export-dir': '/x' }, env)['export-dir'], { value: '/x', from: 'flag' });
  assert.throws(() => runConfig('set', 'export-dir', '  ', undefined, env), UserError);
});
