// Downloading uops.info's instructions.xml for `uopscope data fetch` (see docs/data.md, "data
// fetch"): node's http/https with a connect timeout and a stall timeout, a bounded number of
// redirects, a temporary file inside the cache directory, resumption of a broken transfer with an
// HTTP Range request (If-Range guards against a file that changed meanwhile) or one clean
// restart, and a sanity check of what arrived. Importing it is the caller's (src/cli) business.
// Every failure is a UserError of one line; the temporary file is removed by the caller.
import { createWriteStream, existsSync, openSync, readSync, closeSync, readdirSync, rmSync, statSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UserError } from '../errors.js';

export const DEFAULT_CONNECT_TIMEOUT_S = 5;
export const DEFAULT_STALL_TIMEOUT_S = 30;
/** The whole download, all attempts: a server that sends a byte just before each stall timeout
 *  would otherwise keep it running for ever. uops.info's ~150 MB take minutes on a slow link. */
export const DEFAULT_TOTAL_TIMEOUT_S = 2 * 3600;
const MAX_REDIRECTS = 5;
/** Attempts of one transfer (the first plus resumptions / the one restart). */
const MAX_ATTEMPTS = 4;
/** uops.info's file is well over 100 MB; anything under this is not it (an error page, a stub). */
export const MIN_BYTES = 1 << 20;
/** More than this is not uops.info's file either; the download stops there (bounded disk use). */
const MAX_BYTES = 2 ** 31;

const OFFLINE_HINT = "download it on a machine with network access and run 'uopscope data import FILE'";

interface DownloadOptions {
  connectTimeoutS?: number;
  stallTimeoutS?: number;
  /** seconds for the whole download, every attempt included */
  totalTimeoutS?: number;
  /** bytes in the file so far; total when known (Content-Length / Content-Range) */
  onProgress?: (done: number, total: number | null) => void;
}

export interface DownloadResult {
  bytes: number;
  /** the URL the file finally came from (after redirects) */
  finalUrl: string;
  /** transfers continued with a Range request */
  resumed: number;
  /** whether the transfer was started over from the first byte after breaking off */
  restarted: boolean;
}

/** The name of a download's temporary file in the cache root: `fetch-<pid>-<random>.part`. */
export function tempDownloadPath(root: string): string {
  return join(root, `fetch-${process.pid}-${Math.random().toString(36).slice(2, 10)}.part`);
}

/** Removes temporary files of fetches whose process is gone (killed before it could clean up). */
export function removeStaleDownloads(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^fetch-(\d+)-[a-z0-9]+\.part$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || alive(pid)) continue;
    rmSync(join(root, name), { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const seconds = (s: number) => `${Number(s.toFixed(2))} s`;

/** A failure of one transfer attempt: `retry` when another attempt may get further. */
class AttemptError extends Error {
  constructor(
    message: string,
    public readonly retry: boolean,
  ) {
    super(message);
  }
}

interface Validators {
  etag?: string;
  lastModified?: string;
  ranges: boolean;
}

interface Attempt {
  res: http.IncomingMessage;
  req: http.ClientRequest;
  url: URL;
  /** re-arms the stall watchdog; `stop` disarms everything */
  touch(): void;
  stop(): void;
  /** set when the watchdog fired (the response then errors) */
  stalled(): boolean;
}

function connectWhy(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
      return 'host not found (ENOTFOUND)';
    case 'EAI_AGAIN':
      return 'name lookup failed (EAI_AGAIN)';
    case 'ENETUNREACH':
      return 'network unreachable (ENETUNREACH)';
    case 'EHOSTUNREACH':
      return 'host unreachable (EHOSTUNREACH)';
    case 'ECONNRESET':
      return 'connection reset (ECONNRESET)';
    default:
      return e.code
        ? `${e.message.replace(/\s+/g, ' ')}${e.message.includes(e.code) ? '' : ` (${e.code})`}`
        : e.message.replace(/\s+/g, ' ');
  }
}

/**
 * Sends one GET and follows redirects (at most MAX_REDIRECTS, http and https only). Resolves with
 * the final response once its headers arrived; the stall watchdog stays armed for the body.
 */
async function open(
  url: string,
  headers: Record<string, string>,
  opts: Required<Pick<DownloadOptions, 'connectTimeoutS' | 'stallTimeoutS'>>,
  shown: string,
): Promise<Attempt> {
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new UserError(`cannot download ${shown}: not a URL — give an http:// or https:// address`);
  }
  for (let hop = 0; ; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') {
      throw new UserError(
        `cannot download ${shown}: ${hop ? `redirected to ${current.href}, ` : ''}only http:// and https:// are supported — ${OFFLINE_HINT}`,
      );
    }
    const a = await request(current, headers, opts, shown);
    const { statusCode = 0 } = a.res;
    if ([301, 302, 303, 307, 308].includes(statusCode)) {
      const loc = a.res.headers.location;
      a.stop();
      a.req.destroy();
      if (!loc)
        throw new UserError(
          `cannot download ${shown}: HTTP ${statusCode} without a Location — check the URL, or ${OFFLINE_HINT}`,
        );
      if (hop >= MAX_REDIRECTS)
        throw new UserError(
          `cannot download ${shown}: more than ${MAX_REDIRECTS} redirects — check the URL, or ${OFFLINE_HINT}`,
        );
      current = new URL(loc, current);
      continue;
    }
    return a;
  }
}

function request(
  url: URL,
  headers: Record<string, string>,
  opts: Required<Pick<DownloadOptions, 'connectTimeoutS' | 'stallTimeoutS'>>,
  shown: string,
): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    let stalled = false;
    let timer: NodeJS.Timeout | undefined;
    let phase: 'connect' | 'stall' | 'off' = 'connect';
    const clear = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    };
    const stop = () => {
      phase = 'off';
      clear();
    };
    const arm = () => {
      clear();
      if (phase === 'off') return;
      const s = phase === 'connect' ? opts.connectTimeoutS : opts.stallTimeoutS;
      timer = setTimeout(() => {
        if (phase === 'connect') {
          req.destroy(
            new UserError(
              `cannot download ${shown}: no connection within ${seconds(s)} (${url.host}) — ${OFFLINE_HINT}`,
            ),
          );
        } else {
          stalled = true;
          req.destroy(new AttemptError(`no data for ${seconds(s)}`, true));
        }
      }, s * 1000);
      timer.unref?.();
    };
    const req = mod.get(url, { headers, agent: false });
    arm();
    req.on('socket', (sock) => {
      const connected = () => {
        phase = 'stall';
        arm();
      };
      if (!sock.connecting) {
        connected();
        return;
      }
      sock.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', connected);
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      stop();
      if (e instanceof UserError || e instanceof AttemptError) {
        reject(e);
        return;
      }
      reject(new UserError(`cannot download ${shown}: ${connectWhy(e)} — ${OFFLINE_HINT}`));
    });
    req.on('response', (res) => {
      arm();
      resolve({ res, req, url, touch: arm, stop, stalled: () => stalled });
    });
  });
}

function validators(res: http.IncomingMessage): Validators {
  const etag = res.headers.etag;
  const v: Validators = { ranges: /\bbytes\b/i.test(String(res.headers['accept-ranges'] ?? '')) };
  // If-Range needs a strong validator: a weak ETag (W/"…") cannot be used
  if (etag && !etag.startsWith('W/')) v.etag = etag;
  if (res.headers['last-modified']) v.lastModified = res.headers['last-modified'];
  return v;
}

/** One download's state across its attempts. */
interface Transfer {
  url: string;
  file: string;
  opts: DownloadOptions;
  timeouts: Required<Pick<DownloadOptions, 'connectTimeoutS' | 'stallTimeoutS'>>;
  totalS: number;
  deadline: number;
  /** bytes in the file so far */
  size: number;
  total: number | null;
  v: Validators | null;
  resumed: number;
  restarted: boolean;
  finalUrl: string;
}

/** What one attempt ended with: the whole file, or a failure another attempt may get past. */
type AttemptOutcome = { done: DownloadResult } | { failed: AttemptError; progressed: boolean };

/**
 * Downloads `url` into `file` (created or truncated; the caller removes it on failure). A transfer
 * that breaks off (connection closed or reset early, or no data for the stall timeout) is resumed
 * with `Range: bytes=N-` and `If-Range` when the server offered byte ranges and a validator
 * (strong ETag or Last-Modified) and the attempt made progress; otherwise it is started over once.
 */
export async function downloadFile(url: string, file: string, opts: DownloadOptions = {}): Promise<DownloadResult> {
  const totalS = opts.totalTimeoutS ?? DEFAULT_TOTAL_TIMEOUT_S;
  const t: Transfer = {
    url,
    file,
    opts,
    timeouts: {
      connectTimeoutS: opts.connectTimeoutS ?? DEFAULT_CONNECT_TIMEOUT_S,
      stallTimeoutS: opts.stallTimeoutS ?? DEFAULT_STALL_TIMEOUT_S,
    },
    totalS,
    deadline: Date.now() + totalS * 1000,
    size: 0,
    total: null,
    v: null,
    resumed: 0,
    restarted: false,
    finalUrl: url,
  };
  for (let attempt = 1; ; attempt++) {
    const resume = canResume(t);
    if (t.size > 0 && !resume) t.size = 0;
    if (Date.now() > t.deadline) throw tooLong(t);
    const outcome = await attemptTransfer(t, resume);
    if ('done' in outcome) return outcome.done;
    if (outcome.failed.retry && attempt < MAX_ATTEMPTS && outcome.progressed && canResume(t)) continue;
    if (attempt < MAX_ATTEMPTS && !t.restarted) {
      t.restarted = true;
      t.size = 0;
      continue;
    }
    const where = `at ${mb(t.size)}${t.total !== null ? ` of ${mb(t.total)}` : ''}`;
    const tries = attempt > 1 ? `, ${attempt} attempts` : '';
    const e = outcome.failed;
    const what = e.message.startsWith('no data') ? 'stalled' : 'broke off';
    throw new UserError(
      `download of ${url} ${what} ${where} (${e.message}${tries}) — try again later, or ${OFFLINE_HINT}`,
    );
  }
}

/** Whether the bytes so far can be continued: the server offered byte ranges and a validator. */
function canResume(t: Transfer): boolean {
  return t.size > 0 && t.v !== null && t.v.ranges && (t.v.etag ?? t.v.lastModified) !== undefined;
}

function tooLong(t: Transfer): UserError {
  return new UserError(
    `cannot download ${t.url}: it took longer than ${seconds(t.totalS)} in all — try again later, or ${OFFLINE_HINT}`,
  );
}

function sizeOnDisk(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

/** One GET of the file (a Range request when `resume`), its body written to the file. */
async function attemptTransfer(t: Transfer, resume: boolean): Promise<AttemptOutcome> {
  const headers: Record<string, string> = { 'accept-encoding': 'identity', 'user-agent': 'uopscope (data fetch)' };
  if (resume) {
    headers.range = `bytes=${t.size}-`;
    headers['if-range'] = (t.v!.etag ?? t.v!.lastModified)!;
  }
  let before = t.size;
  let a: Attempt | undefined;
  // the file is measured only once its stream has closed: a write in flight when the connection
  // broke lands after the pipeline rejects, and a resume from a size measured before it would
  // append those bytes twice (seen as a corrupt file under load)
  let closed: Promise<void> | null = null;
  try {
    const cur = await open(t.url, headers, t.timeouts, t.url);
    a = cur;
    t.finalUrl = cur.url.href;
    const append = acceptResponse(t, cur, resume);
    before = t.size;
    checkAnnounced(t, cur);
    const count = countingStream(t, cur);
    t.opts.onProgress?.(t.size, t.total);
    const sink = createWriteStream(t.file, { flags: append ? 'a' : 'w' });
    closed = settled(sink);
    try {
      await pipeline(cur.res, count, sink);
    } catch (e) {
      throw bodyFailure(t, cur, e);
    } finally {
      cur.stop();
    }
    await closed;
    t.size = sizeOnDisk(t.file);
    if (t.total !== null && t.size < t.total) throw new AttemptError('the connection closed before the end', true);
    return { done: { bytes: t.size, finalUrl: t.finalUrl, resumed: t.resumed, restarted: t.restarted } };
  } catch (e) {
    a?.stop();
    a?.req.destroy();
    if (closed) await closed;
    if (!(e instanceof AttemptError)) throw e;
    // what reached the disk is what counts (a write in flight may have been dropped)
    t.size = sizeOnDisk(t.file);
    return { failed: e, progressed: t.size > before };
  }
}

/**
 * Reads the response's status: a resumed part (206, at the right place) is appended, a whole file
 * (200) starts over; anything else fails. Returns whether the body is appended to the file.
 */
function acceptResponse(t: Transfer, cur: Attempt, resume: boolean): boolean {
  const status = cur.res.statusCode ?? 0;
  if (status === 206 && resume) {
    const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(String(cur.res.headers['content-range'] ?? ''));
    if (!m || Number(m[1]) !== t.size)
      throw new AttemptError(
        `the server resumed at the wrong place (Content-Range ${cur.res.headers['content-range'] ?? 'missing'})`,
        false,
      );
    if (m[3] !== '*') t.total = Number(m[3]);
    t.resumed++;
    return true;
  }
  if (status === 200) {
    // a fresh whole file (also the answer to a Range request when the file changed)
    if (t.size > 0) t.restarted = true;
    t.size = 0;
    t.v = validators(cur.res);
    const len = cur.res.headers['content-length'];
    t.total = len !== undefined && /^\d+$/.test(len) ? Number(len) : null;
    return false;
  }
  if (status === 416 && resume) throw new AttemptError('the server refused to resume (HTTP 416)', false);
  cur.stop();
  cur.req.destroy();
  const hint = status === 404 || status === 410 ? 'check the URL, or ' : status >= 500 ? 'try again later, or ' : '';
  throw new UserError(
    `cannot download ${t.url}: HTTP ${status}${cur.res.statusMessage ? ` ${cur.res.statusMessage}` : ''} — ${hint}${OFFLINE_HINT}`,
  );
}

/** Refuses an encoded body and one announced larger than any uops.info file. */
function checkAnnounced(t: Transfer, cur: Attempt): void {
  const enc = cur.res.headers['content-encoding'];
  if (enc && enc !== 'identity')
    throw new UserError(
      `cannot download ${t.url}: the server sent it ${enc}-encoded although uopscope asked for the plain file — ${OFFLINE_HINT}`,
    );
  if (t.total !== null && t.total > MAX_BYTES)
    throw new UserError(
      `cannot download ${t.url}: it is ${mb(t.total)}, larger than any uops.info file (limit ${mb(MAX_BYTES)}) — check the URL`,
    );
}

/** Passes the body through, re-arming the stall watchdog, counting bytes against the limits. */
function countingStream(t: Transfer, cur: Attempt): Transform {
  let got = t.size;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      cur.touch();
      if (Date.now() > t.deadline) {
        cb(tooLong(t));
        return;
      }
      got += chunk.length;
      if (got > MAX_BYTES) {
        cb(
          new UserError(
            `cannot download ${t.url}: more than ${mb(MAX_BYTES)} arrived, larger than any uops.info file — check the URL`,
          ),
        );
        return;
      }
      if (t.total !== null && got > t.total) {
        cb(
          new UserError(
            `cannot download ${t.url}: the server sent more than the ${t.total} bytes it announced — try again later, or ${OFFLINE_HINT}`,
          ),
        );
        return;
      }
      t.opts.onProgress?.(got, t.total);
      cb(null, chunk);
    },
  });
}

/** What a failed body transfer means: the user's to fix (a full disk), or another attempt's. */
function bodyFailure(t: Transfer, cur: Attempt, e: unknown): Error {
  if (e instanceof UserError) return e;
  if (cur.stalled()) return new AttemptError(`no data for ${seconds(t.timeouts.stallTimeoutS)}`, true);
  const code = (e as NodeJS.ErrnoException).code;
  if (code && /^E(NOSPC|DQUOT|ACCES|PERM|ROFS|IO)$/.test(code))
    return new UserError(
      `cannot write the download into ${t.file}: ${code} — free some space or set UOPSCOPE_CACHE_DIR to a writable directory`,
    );
  return new AttemptError(
    code === 'ECONNRESET' || (e as Error).message === 'aborted'
      ? 'the connection closed before the end'
      : connectWhy(e as NodeJS.ErrnoException),
    true,
  );
}

/** Resolves when `stream` has closed (its last write done), or after 10 s at most. */
function settled(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise<void>((ok) => {
    const t = setTimeout(ok, 10_000);
    t.unref();
    stream.once('close', () => {
      clearTimeout(t);
      ok();
    });
  });
}

/** How the head of a downloaded file reads, for the sanity check's message. */
function snippet(s: string): string {
  const t = s
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 40)
    .trimEnd()
    .replace(/[^\x20-\x7e]/g, '?');
  return t ? `'${t}${s.trim().length > 40 ? '…' : ''}'` : 'nothing';
}

/**
 * The sanity check of a downloaded file before it is imported: big enough, an XML document
 * whose root element is `<root` (as uops.info's file: `<?xml version="1.0" ?>` then `<root
 * date=…>`), and complete (it ends with `</root>`). Throws a UserError naming `url`.
 */
export function checkDownloadedXml(file: string, url: string): void {
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  let head: string, tail: string;
  try {
    const hb = Buffer.alloc(Math.min(size, 8192));
    readSync(fd, hb, 0, hb.length, 0);
    head = hb.toString('utf8');
    const tb = Buffer.alloc(Math.min(size, 256));
    readSync(fd, tb, 0, tb.length, size - tb.length);
    tail = tb.toString('utf8');
  } finally {
    closeSync(fd);
  }
  const refuse = (why: string) =>
    new UserError(
      `what arrived from ${url} is not uops.info's instructions.xml (${why}) — check the URL, or ${OFFLINE_HINT}`,
    );
  // after a byte-order mark, the XML declaration, comments and white space comes the root element
  let rest = head.replace(/^\uFEFF/, '');
  for (;;) {
    const before = rest;
    rest = rest
      .replace(/^\s+/, '')
      .replace(/^<\?xml[^>]*\?>/, '')
      .replace(/^<!--[\s\S]*?-->/, '');
    if (rest === before) break;
  }
  if (!/^<root[\s>]/.test(rest)) throw refuse(`it starts with ${snippet(rest)}, not <root`);
  if (size < MIN_BYTES) throw refuse(`${size} bytes, less than the ${mb(MIN_BYTES)} the real file has at the least`);
  if (!/<\/root>\s*$/.test(tail)) throw refuse('it does not end with </root>: incomplete');
}
