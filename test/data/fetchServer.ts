// A real HTTP server on 127.0.0.1 standing in for uops.info in the `data fetch` tests. Each path
// is one behaviour of a server or a network; every request is logged (path and the headers that
// matter) so that tests can check what the client asked for. With `tls`, the same over https.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { createHash } from 'node:crypto';

export interface Logged {
  path: string;
  range?: string;
  ifRange?: string;
}

export interface FetchServer {
  base: string;
  port: number;
  log: Logged[];
  /** how many requests a path got */
  hits(path: string): number;
  close(): Promise<void>;
}

/** Sends `body`, honouring `Range` with `If-Range` (strong ETag) as a real server does. */
function sendRanged(req: IncomingMessage, res: ServerResponse, body: Buffer, etag: string, cut?: number): void {
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const ifRange = req.headers['if-range'];
  const head = { 'accept-ranges': 'bytes', etag, 'content-type': 'application/xml' };
  if (range && (ifRange === undefined || ifRange === etag)) {
    const start = Number(range[1]);
    if (start >= body.length) {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    res.writeHead(206, {
      ...head,
      'content-length': body.length - start,
      'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
    });
    res.end(body.subarray(start));
    return;
  }
  res.writeHead(200, { ...head, 'content-length': body.length });
  if (cut === undefined) {
    res.end(body);
    return;
  }
  // announce the whole length, send a part, then close the connection
  res.write(body.subarray(0, cut), () => setTimeout(() => res.socket?.destroy(), 20));
}

/**
 * Paths:
 *   /full.xml            the file, with Accept-Ranges and an ETag
 *   /slow.xml            the file in 16 pieces, 40 ms apart (progress output)
 *   /chunked.xml         the same without Content-Length (chunked)
 *   /cut-once.xml        first answer: Content-Length of the whole, 40% sent, connection closed;
 *                        Range requests with the right If-Range get the rest (206)
 *   /cut-norange.xml     the same without Accept-Ranges or validators: the first answer is cut,
 *                        the second whole
 *   /cut-always.xml      every answer cut at 40% (no ranges)
 *   /cut-changed.xml     first answer cut; by the resume the file has a new ETag, so the Range
 *                        request gets the whole new file (200)
 *   /stall.xml           headers (Content-Length), then nothing
 *   /stall-mid.xml       headers and 30% of the file, then nothing
 *   /html.xml            a 200 with an HTML page
 *   /tiny.xml            a well-formed but small `<root>` document
 *   /notend.xml          `<root` at the start, big enough, but no `</root>` at the end
 *   /redirect.xml        302 to /full.xml (relative Location)
 *   /loop.xml            redirects to itself
 *   /redirect-to/<URL>   302 to the (percent-encoded) URL
 *   /broken.xml          passes the sanity check, but an element inside is broken (the import fails)
 *   /404.xml, /500.xml   HTTP errors
 */
export async function startFetchServer(file: Buffer, tls?: { key: Buffer; cert: Buffer }): Promise<FetchServer> {
  const log: Logged[] = [];
  const etag = `"${createHash('sha1').update(file).digest('hex').slice(0, 16)}"`;
  const hits = new Map<string, number>();
  const stalled = new Set<ServerResponse>();
  const text = file.toString('latin1');
  const at = text.indexOf('<measurement ', text.length >> 1);
  const broken = Buffer.from(`${text.slice(0, at)}<measurement <${text.slice(at + 13)}`, 'latin1');
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    const n = (hits.get(path) ?? 0) + 1;
    hits.set(path, n);
    const entry: Logged = { path };
    if (req.headers.range) entry.range = req.headers.range;
    if (typeof req.headers['if-range'] === 'string') entry.ifRange = req.headers['if-range'];
    log.push(entry);
    const cut = Math.floor(file.length * 0.4);
    switch (path) {
      case '/full.xml':
        sendRanged(req, res, file, etag);
        return;
      case '/slow.xml':
      case '/chunked.xml': {
        // 16 pieces 40 ms apart; /chunked.xml without Content-Length
        res.writeHead(200, path === '/slow.xml' ? { 'content-length': file.length } : {});
        const piece = Math.ceil(file.length / 16);
        let i = 0;
        const next = () => {
          if (res.destroyed) return;
          const part = file.subarray(i * piece, (i + 1) * piece);
          i++;
          if (i >= 16) {
            res.end(part);
            return;
          }
          res.write(part);
          setTimeout(next, 40);
        };
        next();
        return;
      }
      case '/cut-once.xml':
        sendRanged(req, res, file, etag, n === 1 ? cut : undefined);
        return;
      case '/cut-norange.xml':
        res.writeHead(200, { 'content-length': file.length });
        if (n === 1) res.write(file.subarray(0, cut), () => setTimeout(() => res.socket?.destroy(), 20));
        else res.end(file);
        return;
      case '/cut-always.xml':
        res.writeHead(200, { 'content-length': file.length });
        res.write(file.subarray(0, cut), () => setTimeout(() => res.socket?.destroy(), 20));
        return;
      case '/cut-changed.xml': {
        // the second version differs in its date (same size, another ETag)
        const v2 = Buffer.from(
          file.toString('latin1').replace(/date="[^"]*"/, (d) => d.replace(/\d/g, '1')),
          'latin1',
        );
        sendRanged(req, res, n === 1 ? file : v2, n === 1 ? etag : '"second-version"', n === 1 ? cut : undefined);
        return;
      }
      case '/stall.xml':
        res.writeHead(200, { 'content-length': file.length });
        res.flushHeaders();
        stalled.add(res);
        return;
      case '/stall-mid.xml':
        res.writeHead(200, { 'content-length': file.length });
        res.write(file.subarray(0, Math.floor(file.length * 0.3)));
        stalled.add(res);
        return;
      case '/html.xml':
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<!DOCTYPE html>\n<html><body>${'Sorry, this page is not available. '.repeat(40000)}</body></html>\n`);
        return;
      case '/tiny.xml':
        res.writeHead(200).end('<?xml version="1.0" ?>\n<root date="2024-01-01">\n</root>\n');
        return;
      case '/notend.xml':
        res.writeHead(200).end(file.subarray(0, file.length - 20));
        return;
      case '/redirect.xml':
        res.writeHead(302, { location: 'full.xml' }).end();
        return;
      case '/loop.xml':
        res.writeHead(301, { location: '/loop.xml' }).end();
        return;
      case '/500.xml':
        res.writeHead(500).end('oops');
        return;
      case '/broken.xml':
        res.writeHead(200).end(broken);
        return;
      default:
        if (path.startsWith('/redirect-to/')) {
          res.writeHead(302, { location: decodeURIComponent(path.slice(13)) }).end();
          return;
        }
        res.writeHead(404).end('not here');
    }
  };
  const server: Server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }, handler) : createServer(handler);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    base: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    log,
    hits: (p) => hits.get(p) ?? 0,
    close: async () => {
      for (const r of stalled) r.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/** A TCP server that accepts connections and never says a word (an https:// URL to it never
 *  completes the TLS handshake: the client's connect timeout must end it). */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: TcpServer = createTcpServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = createTcpServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}
