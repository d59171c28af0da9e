// `data fetch` had a stall timeout but no overall bound: a server that sends a byte just before
// each stall kept it running for ever. The whole download now has a deadline (2 h by default,
// --total-timeout / UOPSCOPE_FETCH_TOTAL_TIMEOUT).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { downloadFile } from '../../src/data/fetch.js';
import { UserError } from '../../src/errors.js';
import { tempDir } from './helpers.js';

test('a server trickling one byte every 200 ms (stall timeout 1 s) is stopped by the overall deadline', async () => {
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': 10_000_000, 'content-type': 'application/xml' });
    const t = setInterval(() => res.write('<'), 200);
    timers.add(t);
    res.on('close', () => {
      clearInterval(t);
      timers.delete(t);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const file = join(tempDir('fetch'), 'part');
  const t0 = Date.now();
  try {
    const outcome = await Promise.race([
      downloadFile(`http://127.0.0.1:${port}/trickle.xml`, file, {
        connectTimeoutS: 2,
        stallTimeoutS: 1,
        totalTimeoutS: 3,
      }).then(
        () => 'finished',
        (e: unknown) => e,
      ),
      new Promise((r) => setTimeout(() => r('still running after 30 s'), 30_000).unref()),
    ]);
    assert.ok(outcome instanceof UserError, String(outcome));
    assert.match(outcome.message, /took longer than 3 s in all/);
    assert.ok(Date.now() - t0 < 15_000);
  } finally {
    for (const t of timers) clearInterval(t);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
