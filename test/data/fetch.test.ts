// `uopscope data fetch` against a real HTTP server on 127.0.0.1 (fetchServer.ts) serving a
// generated file in uops.info's full schema (bench/synthUops.ts): success with progress, resume
// and restart of broken transfers, HTTP errors, stalls, refused and silent connections, bodies
// that are not the file. After every failure the previous import must be byte-identical and no
// temporary file may be left.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeSyntheticXml } from '../../bench/synthUops.js';
import { importUopsXml } from '../../src/data/cache.js';
import { checkDownloadedXml, downloadFile, MIN_BYTES } from '../../src/data/fetch.js';
import { runFetch } from '../../src/cli/commands/dataRun.js';
import { downloadBar } from '../../src/cli/progress.js';
import { UserError } from '../../src/errors.js';
import { closedPort, startFetchServer, startSilentServer, type FetchServer } from './fetchServer.js';
import { SMALL, tempDir } from './helpers.js';

const MAIN = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.cts');
const FORMS = 150;

let file: Buffer;
let server: FetchServer;
/** a cache holding a previous import (the small fixture), copied per test by importing again */
async function previousCache(): Promise<string> {
  const dir = tempDir('fetch-prev');
  await importUopsXml(SMALL, { cacheDir: dir });
  return dir;
}

before(async () => {
  const path = join(tempDir('fetch-src'), 'instructions.xml');
  await writeSyntheticXml(path, { forms: FORMS });
  file = readFileSync(path);
  assert.ok(file.length > MIN_BYTES, `the generated file (${file.length} bytes) is above the sanity minimum`);
  server = await startFetchServer(file);
});
after(async () => {
  await server.close();
});

/** Every file and directory under `dir` with a hash of its content. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const rel = relative(dir, p);
      if (statSync(p).isDirectory()) {
        out[`${rel}/`] = 'dir';
        walk(p);
      } else out[rel] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

function partFiles(cache: string): string[] {
  return existsSync(cache) ? readdirSync(cache).filter((n) => n.endsWith('.part')) : [];
}

/** Where in-process runs of runFetch write their stdout (not into the test's output). */
function sink(): NodeJS.WritableStream & { text: string } {
  const s = {
    text: '',
    write(c: string) {
      s.text += c;
      return true;
    },
  };
  return s as unknown as NodeJS.WritableStream & { text: string };
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

function cli(
  args: string[],
  cache: string,
  env: Record<string, string> = {},
  onSpawn?: (p: ReturnType<typeof spawn>) => void,
): Promise<Run> {
  return new Promise((ok) => {
    const p = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      env: { ...process.env, UOPSCOPE_CACHE_DIR: cache, ...env },
    });
    let out = '',
      err = '';
    p.stdout.on('data', (c) => {
      out += c;
    });
    p.stderr.on('data', (c) => {
      err += c;
    });
    const kill = setTimeout(() => p.kill('SIGKILL'), 60000);
    p.on('close', (code, signal) => {
      clearTimeout(kill);
      ok({ code, signal, out, err });
    });
    onSpawn?.(p);
  });
}

/** A failure from the CLI: exit 2, exactly one line on stderr, matching `re`, nothing on stdout. */
function oneLine(r: Run, re: RegExp): void {
  assert.equal(r.signal, null, 'not killed by the test timeout');
  assert.equal(r.code, 2, r.err);
  const lines = r.err.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, r.err);
  assert.match(lines[0]!, re);
  assert.doesNotMatch(r.err, /at .*\.ts:\d+|internal error/);
}

test('success: download, sanity check, import straight away; data list names the URL; no temporary file', async () => {
  const cache = tempDir('fetch-ok');
  // a temporary file of a fetch that was killed (its process is gone) is cleared away
  writeFileSync(join(cache, 'fetch-999999999-dead.part'), 'left over');
  const url = `${server.base}/full.xml`;
  const r = await cli(['data', 'fetch', '--url', url], cache);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, '', 'no progress output when stderr is not a terminal');
  assert.match(r.out, new RegExp(`^downloaded ${(file.length / 1e6).toFixed(1)} MB from ${url} in \\d+\\.\\d s\\n`));
  assert.match(r.out, new RegExp(`imported ${FORMS} instruction forms \\(file dated 2000-01-01\\) into ${cache}`));
  assert.deepEqual(partFiles(cache), []);
  assert.deepEqual(readdirSync(cache), ['v2'], 'only the cache itself: no downloaded file kept');
  const list = await cli(['data', 'list', '--json'], cache);
  const rows = (
    JSON.parse(list.out) as { sources: { arch: string; kind: string; forms: number; path: string; active: boolean }[] }
  ).sources;
  const skl = rows.find((x) => x.arch === 'SKL' && x.kind === 'imported');
  assert.deepEqual(skl && { forms: skl.forms, path: skl.path, active: skl.active }, {
    forms: FORMS,
    path: url,
    active: true,
  });
});

test('a transfer cut off half way is resumed with Range and If-Range, and the result is whole', async () => {
  const cache = await previousCache();
  const before = server.log.length;
  const r = await cli(['data', 'fetch', '--url', `${server.base}/cut-once.xml`], cache);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^downloaded \S+ MB from \S+ in \S+ s \(resumed once\)$/m);
  assert.match(r.out, new RegExp(`imported ${FORMS} instruction forms`));
  const reqs = server.log.slice(before);
  assert.equal(reqs.length, 2);
  assert.equal(reqs[0]!.range, undefined);
  // the resume starts where the partial file ends: at most the 40 % the server sent (a
  // connection reset can drop bytes the client had not read yet; they are then asked for again)
  const start = Number(/^bytes=(\d+)-$/.exec(reqs[1]!.range ?? '')?.[1] ?? NaN);
  assert.ok(start > 0 && start <= Math.floor(file.length * 0.4), `resumed from ${reqs[1]!.range}`);
  assert.match(reqs[1]!.ifRange ?? '', /^"[0-9a-f]{16}"$/);
  assert.deepEqual(partFiles(cache), []);
});

test('without byte ranges, a cut transfer is started over once; a changed file is taken whole', async () => {
  const dir = tempDir('fetch-dl');
  const a = await downloadFile(`${server.base}/cut-norange.xml`, join(dir, 'a.part'));
  assert.deepEqual(
    { resumed: a.resumed, restarted: a.restarted, bytes: a.bytes },
    { resumed: 0, restarted: true, bytes: file.length },
  );
  assert.ok(readFileSync(join(dir, 'a.part')).equals(file));
  const logged = server.log.filter((l) => l.path === '/cut-norange.xml');
  assert.equal(logged.length, 2);
  assert.equal(logged[1]!.range, undefined, 'a restart asks for the whole file');
  // the resume is refused by If-Range (new ETag): the server's 200 with the new file replaces the part
  const b = await downloadFile(`${server.base}/cut-changed.xml`, join(dir, 'b.part'));
  assert.equal(b.resumed, 0);
  assert.equal(b.restarted, true);
  const got = readFileSync(join(dir, 'b.part'));
  assert.equal(got.length, file.length);
  assert.notDeepEqual(got, file, 'the second version (another date), not a mix');
  assert.match(got.subarray(0, 300).toString(), /date="1111-11-11"/);
  assert.ok(got.subarray(got.length - 1000).equals(file.subarray(file.length - 1000)));
});

test('a transfer that keeps breaking off: one line, exit 2, the previous import byte-identical', async () => {
  const cache = await previousCache();
  const was = snapshot(cache);
  const r = await cli(['data', 'fetch', '--url', `${server.base}/cut-always.xml`], cache);
  const at = (Math.floor(file.length * 0.4) / 1e6).toFixed(1);
  oneLine(
    r,
    new RegExp(
      `^uopscope: download of \\S+/cut-always\\.xml broke off at ${at} MB of ${(file.length / 1e6).toFixed(1)} MB \\(the connection closed before the end, 2 attempts\\) — try again later, or download it on a machine with network access and run 'uopscope data import FILE'$`,
    ),
  );
  assert.equal(r.out, '');
  assert.deepEqual(snapshot(cache), was);
});

test('HTTP errors: one line naming the status, exit 2, the previous import byte-identical', async () => {
  const cache = await previousCache();
  const was = snapshot(cache);
  const r = await cli(['data', 'fetch', '--url', `${server.base}/404.xml`], cache);
  oneLine(
    r,
    /^uopscope: cannot download http:\/\/127\.0\.0\.1:\d+\/404\.xml: HTTP 404 Not Found — check the URL, or download it on a machine with network access and run 'uopscope data import FILE'$/,
  );
  await assert.rejects(
    runFetch(`${server.base}/500.xml`, { cacheDir: cache }),
    (e: Error) =>
      e instanceof UserError &&
      /^cannot download \S+\/500\.xml: HTTP 500 Internal Server Error — try again later, or /.test(e.message),
  );
  assert.deepEqual(snapshot(cache), was);
});

test('a stalled connection (headers, then nothing): the stall timeout ends it with one line', async () => {
  const cache = await previousCache();
  const was = snapshot(cache);
  const r = await cli(['data', 'fetch', '--url', `${server.base}/stall.xml`], cache, {
    UOPSCOPE_FETCH_STALL_TIMEOUT: '0.3',
  });
  oneLine(
    r,
    /^uopscope: download of \S+\/stall\.xml stalled at 0\.0 MB of \S+ MB \(no data for 0\.3 s, 2 attempts\) — try again later, or /,
  );
  assert.deepEqual(snapshot(cache), was);
  // stalled half way (no byte ranges offered): started over once, then given up
  await assert.rejects(
    runFetch(`${server.base}/stall-mid.xml`, { cacheDir: cache, stallTimeout: 0.3 }),
    (e: Error) =>
      e instanceof UserError &&
      /^download of \S+ stalled at \S+ MB of \S+ MB \(no data for 0\.3 s, 2 attempts\)/.test(e.message),
  );
  assert.deepEqual(snapshot(cache), was);
});

test("what is not uops.info's file is refused before the import: HTML, a tiny document, an incomplete one", async () => {
  const cache = await previousCache();
  const was = snapshot(cache);
  const r = await cli(['data', 'fetch', '--url', `${server.base}/html.xml`], cache);
  oneLine(
    r,
    /^uopscope: what arrived from \S+\/html\.xml is not uops\.info's instructions\.xml \(it starts with '<!DOCTYPE html> <html><body>Sorry, this…', not <root\) — check the URL, or /,
  );
  for (const [path, why] of [
    ['/tiny.xml', /\(\d+ bytes, less than the 1\.0 MB the real file has at the least\)/],
    ['/notend.xml', /\(it does not end with <\/root>: incomplete\)/],
  ] as const) {
    await assert.rejects(
      runFetch(`${server.base}${path}`, { cacheDir: cache }),
      (e: Error) => e instanceof UserError && why.test(e.message),
      path,
    );
  }
  assert.deepEqual(snapshot(cache), was);
});

test("a download that passes the sanity check but does not parse: the import's line names the URL; nothing installed", async () => {
  const cache = await previousCache();
  const was = snapshot(cache);
  const url = `${server.base}/broken.xml`;
  await assert.rejects(
    runFetch(url, { cacheDir: cache, stdout: sink() }),
    (e: Error) =>
      e instanceof UserError &&
      e.message.startsWith(`${url}:`) &&
      /:\d+:\d+: .+ — fix or re-download/.test(e.message) &&
      !e.message.includes('.part'),
  );
  assert.deepEqual(snapshot(cache), was);
});

test('offline: a closed port fails at once, a silent host within the connect timeout; one line each', async () => {
  const cache = tempDir('fetch-off');
  const port = await closedPort();
  const r = await cli(['data', 'fetch', '--url', `http://127.0.0.1:${port}/instructions.xml`], cache);
  oneLine(
    r,
    new RegExp(
      `^uopscope: cannot download http://127\\.0\\.0\\.1:${port}/instructions\\.xml: connection refused — download it on a machine with network access and run 'uopscope data import FILE'$`,
    ),
  );
  assert.deepEqual(readdirSync(cache), [], 'the cache directory stays empty');
  const silent = await startSilentServer();
  try {
    const s = await cli(
      ['data', 'fetch', '--url', `https://127.0.0.1:${silent.port}/instructions.xml`, '--connect-timeout', '0.3'],
      join(cache, 'new'),
    );
    oneLine(
      s,
      new RegExp(
        `^uopscope: cannot download https://127\\.0\\.0\\.1:${silent.port}/instructions\\.xml: no connection within 0\\.3 s \\(127\\.0\\.0\\.1:${silent.port}\\) — download it on a machine`,
      ),
    );
    assert.equal(existsSync(join(cache, 'new')), false, 'a cache directory the failed fetch created is removed again');
  } finally {
    await silent.close();
  }
  const bad = await cli(['data', 'fetch', '--url', `${server.base}/full.xml`], cache, {
    UOPSCOPE_FETCH_CONNECT_TIMEOUT: 'soon',
  });
  oneLine(bad, /^uopscope: UOPSCOPE_FETCH_CONNECT_TIMEOUT must be a number of seconds between 0 and 3600, not 'soon'$/);
});

test('redirects are followed (bounded); other schemes are refused', async () => {
  const dir = tempDir('fetch-dl');
  const r = await downloadFile(`${server.base}/redirect.xml`, join(dir, 'r.part'));
  assert.equal(r.finalUrl, `${server.base}/full.xml`);
  assert.ok(readFileSync(join(dir, 'r.part')).equals(file));
  await assert.rejects(
    downloadFile(`${server.base}/loop.xml`, join(dir, 'l.part')),
    /^UserError: cannot download \S+\/loop\.xml: more than 5 redirects — check the URL/,
  );
  assert.equal(server.hits('/loop.xml'), 6);
  await assert.rejects(
    downloadFile('ftp://127.0.0.1/instructions.xml', join(dir, 'f.part')),
    /only http:\/\/ and https:\/\/ are supported/,
  );
});

test('progress on a terminal: bar, bytes of the total and rate; without a total, bytes and rate', async () => {
  const dir = tempDir('fetch-dl');
  const writes: string[] = [];
  const tty = {
    isTTY: true,
    columns: 80,
    write: (s: string) => {
      writes.push(s);
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  const bar = downloadBar('downloading', tty);
  await downloadFile(`${server.base}/slow.xml`, join(dir, 's.part'), { onProgress: (d, t) => bar.update(d, t) });
  bar.done();
  const total = (file.length / 1e6).toFixed(1);
  const draws = writes.filter((w) => w.includes('downloading'));
  assert.ok(draws.length >= 3, `several draws over the slow transfer (${draws.length})`);
  for (const d of draws)
    assert.match(
      d,
      new RegExp(`^\\r\\x1b\\[2Kdownloading \\[[#.]+\\] +\\d+% \\d+\\.\\d/${total} MB(  \\d+\\.\\d MB/s)?$`),
    );
  assert.match(draws.at(-1)!, new RegExp(`100% ${total}/${total} MB  \\d+\\.\\d MB/s$`));
  assert.ok(
    draws.some((d) => / [1-9]\d?% /.test(d)),
    'an intermediate state was drawn',
  );
  assert.equal(writes.at(-1), '\r\x1b[2K', 'the bar is cleared at the end');

  writes.length = 0;
  const bar2 = downloadBar('downloading', tty);
  const r = await downloadFile(`${server.base}/chunked.xml`, join(dir, 'c.part'), {
    onProgress: (d, t) => bar2.update(d, t),
  });
  bar2.done();
  assert.equal(r.bytes, file.length);
  checkDownloadedXml(join(dir, 'c.part'), 'chunked');
  const draws2 = writes.filter((w) => w.includes('downloading'));
  for (const d of draws2) assert.match(d, /^\r\x1b\[2Kdownloading \d+\.\d MB(  \d+\.\d MB\/s)?$/);
  assert.ok(
    draws2.some((d) => /downloading (0\.[1-9]|[1-9])\S* MB  \d+\.\d MB\/s$/.test(d)),
    draws2.join('|'),
  );

  const quiet: string[] = [];
  const pipe = {
    isTTY: false,
    write: (s: string) => {
      quiet.push(s);
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  const b3 = downloadBar('downloading', pipe);
  b3.update(1, 2);
  b3.done();
  assert.deepEqual(quiet, [], 'nothing when stderr is not a terminal');
});

test('Ctrl-C during the download: the temporary file is removed, exit 130, the previous import untouched', async () => {
  const cache = await previousCache();
  const was = snapshot(cache);
  const before = server.hits('/stall.xml');
  const r = await cli(
    ['data', 'fetch', '--url', `${server.base}/stall.xml`, '--stall-timeout', '30'],
    cache,
    {},
    (p) => {
      const poll = setInterval(() => {
        if (server.hits('/stall.xml') > before && partFiles(cache).length === 1) {
          clearInterval(poll);
          p.kill('SIGINT');
        }
      }, 50);
      p.on('close', () => clearInterval(poll));
    },
  );
  assert.equal(r.code, 130, r.err);
  assert.match(r.err, /^uopscope: data fetch interrupted \(SIGINT\); nothing was installed from this download\n$/);
  assert.deepEqual(snapshot(cache), was);
});

test('https (a test certificate trusted with NODE_EXTRA_CA_CERTS), also after a redirect from http; an untrusted certificate is one line', async () => {
  const tlsDir = join(import.meta.dirname, '..', 'fixtures', 'tls');
  const tls = await startFetchServer(file, {
    key: readFileSync(join(tlsDir, 'key.pem')),
    cert: readFileSync(join(tlsDir, 'cert.pem')),
  });
  try {
    const cache = tempDir('fetch-tls');
    const trust = { NODE_EXTRA_CA_CERTS: join(tlsDir, 'cert.pem') };
    const url = `${server.base}/redirect-to/${encodeURIComponent(`${tls.base}/full.xml`)}`;
    const r = await cli(['data', 'fetch', '--url', url], cache, trust);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, new RegExp(`^downloaded \\S+ MB from ${tls.base}/full\\.xml in `));
    assert.match(r.out, new RegExp(`imported ${FORMS} instruction forms`));
    assert.equal(tls.hits('/full.xml'), 1);
    const was = snapshot(cache);
    const u = await cli(['data', 'fetch', '--url', `${tls.base}/full.xml`], cache);
    oneLine(
      u,
      /^uopscope: cannot download https:\/\/127\.0\.0\.1:\d+\/full\.xml: self[- ]signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\) — download it on a machine/,
    );
    assert.deepEqual(snapshot(cache), was);
  } finally {
    await tls.close();
  }
});
