// Start-up: `uopscope --version` answers before yargs, the command modules or
// the disassembler are loaded. A module hook (registered with --import) records every module the
// ES loader loads and prints the list on exit; `--help`, which needs yargs, is the control that
// shows the hook sees what it should.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HOOKS = `let loaded = [];
export async function load(url, context, next) { loaded.push(url); return next(url, context); }
export function initialize({ port }) { port.on('message', () => { port.postMessage(loaded); }); port.unref(); }`;
const REGISTER = `import { register } from 'node:module';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
const { port1, port2 } = new MessageChannel();
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}), { data: { port: port2 }, transferList: [port2] });
process.on('exit', () => {
  port1.postMessage('list');
  const deadline = Date.now() + 2000;
  let m;
  while (!(m = receiveMessageOnPort(port1)) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  process.stderr.write('LOADED ' + JSON.stringify(m ? m.message : null) + '\\n');
});`;

function loadedBy(...args: string[]): { stdout: string; status: number | null; loaded: string[] } {
  return loadedWith({ UOPSCOPE_CACHE_DIR: mkdtempSync(join(tmpdir(), 'uopscope-startup-')) }, ...args);
}

function loadedWith(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): { stdout: string; status: number | null; loaded: string[] } {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(REGISTER)}`,
      '--import',
      'tsx',
      'src/cli/main.cts',
      ...args,
    ],
    { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } },
  );
  const line = /^LOADED (.*)$/m.exec(r.stderr)?.[1];
  assert.ok(line, `no module list printed: ${r.stderr}`);
  const loaded = JSON.parse(line) as string[] | null;
  assert.ok(loaded, 'the module hook did not answer');
  return { stdout: r.stdout, status: r.status, loaded };
}

test("--version prints package.json's version without loading yargs, a command module or the disassembler", () => {
  const { stdout, status, loaded } = loadedBy('--version');
  assert.equal(status, 0);
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  assert.equal(stdout, `${pkg.version}\n`);
  assert.ok(
    loaded.some((u) => u.endsWith('/src/cli/main.cts')),
    'the hook saw main.ts',
  );
  const heavy = loaded.filter((u) =>
    /node_modules\/(yargs|cliui|string-width|iced-x86)\/|\/src\/(cli\/(run|commands\/)|disasm\/)/.test(u),
  );
  assert.deepEqual(heavy, []);
});

test('--help (the control, an empty cache): the same hook sees yargs and the command modules load', () => {
  const { stdout, status, loaded } = loadedBy('--help');
  assert.equal(status, 0);
  assert.match(stdout, /uopscope report/);
  assert.ok(
    loaded.some((u) => /node_modules\/yargs\//.test(u)),
    'yargs is loaded for --help',
  );
  assert.ok(
    loaded.some((u) => /\/src\/cli\/commands\/report\.ts$/.test(u)),
    'the command declarations are loaded for --help',
  );
});

test('a report loads yargs without its help machinery (no platform shim with cliui, string-width, wrap-ansi)', () => {
  const { stdout, status, loaded } = loadedBy('report', '--hex', '4801d8', '--iterations', '1', '--fast');
  assert.equal(status, 0);
  assert.match(stdout, /Iterations: 1/);
  assert.ok(
    loaded.some((u) => /node_modules\/yargs\/build\/lib\/yargs-factory\.js$/.test(u)),
    'yargs is loaded',
  );
  assert.deepEqual(
    loaded.filter((u) =>
      /node_modules\/(cliui|string-width|wrap-ansi|emoji-regex|get-east-asian-width)\/|yargs\/lib\/platform-shims/.test(
        u,
      ),
    ),
    [],
  );
});

const yargsOrCommands = (loaded: string[]) =>
  loaded.filter((u) => /node_modules\/(yargs|cliui|string-width)\/|\/src\/cli\/(run|commands\/)/.test(u));

test('--help a second time: the text yargs printed, from the cache, without loading yargs; a changed locale renders it again', () => {
  const cache = mkdtempSync(join(tmpdir(), 'uopscope-help-'));
  mkdirSync(join(cache, 'v2')); // as the data stage leaves it
  const first = loadedWith({ UOPSCOPE_CACHE_DIR: cache, LANG: 'C.UTF-8' }, '--help');
  assert.equal(first.status, 0);
  assert.ok(yargsOrCommands(first.loaded).length > 0, 'the first --help renders with yargs');
  assert.deepEqual(readdirSync(join(cache, 'v2', 'help')), ['help-80.txt']);
  const again = loadedWith({ UOPSCOPE_CACHE_DIR: cache, LANG: 'C.UTF-8' }, '-h');
  assert.equal(again.status, 0);
  assert.equal(again.stdout, first.stdout);
  assert.deepEqual(yargsOrCommands(again.loaded), []);
  // the locale yargs translates its headings by is part of the key
  const other = loadedWith({ UOPSCOPE_CACHE_DIR: cache, LANG: 'de_DE.UTF-8' }, '--help');
  assert.equal(other.status, 0);
  assert.ok(yargsOrCommands(other.loaded).length > 0, 'another locale: rendered by yargs again');
  assert.match(other.stdout, /Optionen:/);
});

test('--help with an unusable cache directory (under /proc): rendered by yargs, exit 0, nothing on stderr, no hang', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', '--help'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, UOPSCOPE_CACHE_DIR: '/proc/uopscope-no-such-dir' },
  });
  assert.equal(r.status, 0);
  assert.match(r.stdout, /uopscope report/);
  assert.equal(r.stderr, '');
});
