// Concurrent writers lost data silently: two `data measure` runs on one core both said
// "Written" and the file kept one run's forms; two `config set` of different keys lost one;
// `data remove imported` took no lock and removed a running import's directory; and an import
// behind a lock whose pid had been reused by another program waited 10 minutes, saying nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../../src/data/paths.js';
import { ROOT, SMALL, TSX, cli, tempDir } from './helpers.js';

const MAIN = join(ROOT, 'src', 'cli', 'main.cts');

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; err: string }> {
  return new Promise((res) => {
    const c = spawn(process.execPath, ['--import', TSX, MAIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    c.stderr!.on('data', (d) => (err += d));
    c.on('exit', (code) => res({ code, err }));
  });
}

test('two writers of one measured file, form by form, keep every form', { timeout: 120_000 }, async () => {
  const dir = tempDir('measuredlock');
  const out = join(dir, 'ZEN4.json');
  const shipped = JSON.parse(readFileSync(join(ROOT, 'assets', 'uarch', 'measured', 'ZEN4.json'), 'utf8'));
  const keys = Object.keys(shipped.forms).slice(0, 16);
  // each writer starts from an empty file and writes after each form, as a measuring session does
  const writer = (mine: string[]) => `
    import { readFileSync } from 'node:fs';
    import { writeMeasured } from ${JSON.stringify(join(ROOT, 'src', 'data', 'measuredFormat.ts'))};
    const all = JSON.parse(readFileSync(${JSON.stringify(join(ROOT, 'assets', 'uarch', 'measured', 'ZEN4.json'))}, 'utf8'));
    const file = { ...all, forms: {} };
    for (const k of ${JSON.stringify(mine)}) {
      file.forms[k] = all.forms[k];
      writeMeasured(${JSON.stringify(out)}, file);
      const t = Date.now(); while (Date.now() - t < 20) {}
    }`;
  const children = [keys.filter((_, i) => i % 2 === 0), keys.filter((_, i) => i % 2 === 1)].map(
    (mine) =>
      new Promise<number | null>((res) => {
        const c = spawn(process.execPath, ['--import', TSX, '--input-type=module', '-e', writer(mine)], {
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        c.on('exit', (code) => res(code));
      }),
  );
  assert.deepEqual(await Promise.all(children), [0, 0]);
  const written = JSON.parse(readFileSync(out, 'utf8'));
  assert.deepEqual(Object.keys(written.forms).sort(), [...keys].sort());
  assert.equal(existsSync(`${out}.lock`), false);
});

test('concurrent config set of different keys keep both keys', { timeout: 180_000 }, async () => {
  for (let round = 0; round < 3; round++) {
    const config = tempDir('configlock');
    const env = { UOPSCOPE_CONFIG_DIR: config, UOPSCOPE_CACHE_DIR: tempDir('cache') };
    const rs = await Promise.all([
      run(['config', 'set', 'iterations', '321'], env),
      run(['config', 'set', 'model', 'refined'], env),
      run(['config', 'set', 'export-dir', '/tmp'], env),
    ]);
    for (const r of rs) assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')), {
      iterations: 321,
      model: 'refined',
      'export-dir': '/tmp',
    });
  }
});

/** A cache with an import published and another one mid-publish: its directory and its lock,
 *  held by a live process. */
function busyCache(lockText: (pid: number) => string): { cache: string; writing: string; other: ChildProcess } {
  const cache = tempDir('removelock');
  assert.equal(cli(['data', 'import', SMALL], { cache }).code, 0);
  const base = cacheDir(cache);
  const other = spawn('sleep', ['60'], { stdio: 'ignore' });
  const writing = join(base, `import-2026-01-01T00-00-00-000Z-${other.pid}.tmp-1-x`);
  mkdirSync(writing);
  writeFileSync(join(writing, 'SKL.json'), '{}');
  writeFileSync(join(base, '.import.lock'), lockText(other.pid!));
  return { cache, writing, other };
}

test('data remove imported waits for a running import, says so, and leaves its directory', {
  timeout: 120_000,
}, async () => {
  const b = busyCache((pid) => String(pid));
  const removal = run(['data', 'remove', 'imported'], { UOPSCOPE_CACHE_DIR: b.cache });
  try {
    const early = await Promise.race([removal, new Promise((r) => setTimeout(() => r('waiting'), 8_000))]);
    assert.equal(early, 'waiting', 'the removal did not wait for the import');
    assert.ok(existsSync(b.writing), "the running import's directory was removed");
  } finally {
    b.other.kill('SIGKILL');
  }
  const r = await removal;
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, new RegExp(`waiting for pid ${b.other.pid}\\b.*\\.import\\.lock`));
});

/** A lock as uopscope writes it: pid, the kernel's start time of that process, what it does. */
function lockOf(pid: number, what: string): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return `${pid} ${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]} ${what}`;
}

test('config set waits while another process holds the config lock, then keeps both keys', {
  timeout: 60_000,
}, async () => {
  const config = tempDir('configheld');
  writeFileSync(join(config, 'config.json'), '{"iterations": 300}');
  const other = spawn('sleep', ['60'], { stdio: 'ignore' });
  writeFileSync(join(config, 'config.json.lock'), lockOf(other.pid!, 'uopscope config'));
  const set = run(['config', 'set', 'model', 'refined'], { UOPSCOPE_CONFIG_DIR: config });
  try {
    const early = await Promise.race([set, new Promise((r) => setTimeout(() => r('waiting'), 5_000))]);
    assert.equal(early, 'waiting', 'config set did not wait for the lock');
    // what the holder writes meanwhile is kept
    writeFileSync(join(config, 'config.json'), '{"iterations": 300, "arch": "SNB"}');
  } finally {
    other.kill('SIGKILL');
  }
  const r = await set;
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')), {
    iterations: 300,
    arch: 'SNB',
    model: 'refined',
  });
});

test('a live holder (its start time matches) is waited for; a pid given to another program is not', {
  timeout: 60_000,
}, () => {
  const live = busyCache((pid) => lockOf(pid, 'uopscope importing into the cache'));
  try {
    const r = spawnSync(process.execPath, ['--import', TSX, MAIN, 'data', 'import', SMALL], {
      encoding: 'utf8',
      timeout: 6_000,
      env: { ...process.env, UOPSCOPE_CACHE_DIR: live.cache },
    });
    assert.equal(r.status, null, 'the import did not wait for a live holder');
    assert.match(r.stderr, new RegExp(`waiting for pid ${live.other.pid} \\(uopscope importing into the cache\\)`));
  } finally {
    live.other.kill('SIGKILL');
  }
  const b = busyCache((pid) => `${pid} 1 uopscope importing into the cache`);
  try {
    const t0 = Date.now();
    const r = spawnSync(process.execPath, ['--import', TSX, MAIN, 'data', 'import', SMALL], {
      encoding: 'utf8',
      timeout: 40_000,
      env: { ...process.env, UOPSCOPE_CACHE_DIR: b.cache },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(Date.now() - t0 < 30_000);
  } finally {
    b.other.kill('SIGKILL');
  }
});

// the lock's file appears with its holder written: one created empty and written after was,
// for a moment, an empty lock that another process took for stale and removed
test('many processes counting under one lock lose no count', { timeout: 120_000 }, async () => {
  const dir = tempDir('lockstress');
  const counter = join(dir, 'count');
  writeFileSync(counter, '0');
  const worker = `
    import { readFileSync, writeFileSync } from 'node:fs';
    import { withLockSync } from ${JSON.stringify(join(ROOT, 'src', 'lock.ts'))};
    for (let i = 0; i < 40; i++)
      withLockSync(${JSON.stringify(`${counter}.lock`)}, { what: 'count', waitMs: 60_000 }, () => {
        const n = Number(readFileSync(${JSON.stringify(counter)}, 'utf8'));
        writeFileSync(${JSON.stringify(counter)}, String(n + 1));
      });`;
  const codes = await Promise.all(
    Array.from(
      { length: 6 },
      () =>
        new Promise<number | null>((res) => {
          const c = spawn(process.execPath, ['--import', TSX, '--input-type=module', '-e', worker], {
            stdio: ['ignore', 'inherit', 'inherit'],
          });
          c.on('exit', (code) => res(code));
        }),
    ),
  );
  assert.deepEqual(codes, [0, 0, 0, 0, 0, 0]);
  assert.equal(Number(readFileSync(counter, 'utf8')), 240);
});
