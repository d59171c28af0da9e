// The work of `uopscope data import | list | fetch | remove` (see data.ts for the options), loaded
// only when one of them runs.
import { withSchemaVersion } from '../../report/schemaVersion.js';
import { existsSync, rmdirSync, rmSync } from 'node:fs';
import { UserError, printable, escapeControls } from '../../errors.js';
import { importUopsXml, listDataSources, cacheRoot, type CacheIndex } from '../../data/index.js';
import { removeImport } from '../../data/cache.js';
import { listMeasuredArchs, removeMeasured, shippedMeasuredPath, userMeasuredPath } from '../../data/measuredFormat.js';
import { parseArch } from '../config.js';
import { originInfo } from '../../data/origins.js';
import {
  checkDownloadedXml,
  DEFAULT_CONNECT_TIMEOUT_S,
  DEFAULT_STALL_TIMEOUT_S,
  DEFAULT_TOTAL_TIMEOUT_S,
  downloadFile,
  removeStaleDownloads,
  tempDownloadPath,
  type DownloadResult,
} from '../../data/fetch.js';
import { downloadBar, progressBar } from '../progress.js';
import { droppedNote, fitTable, fitWidth, wrapText } from '../../report/fit.js';
import { makeDirs } from '../../mkdirs.js';

function summary(idx: CacheIndex, root: string): string {
  const archs = Object.entries(idx.archs)
    .map(([a, n]) => `${a} ${n}`)
    .join(', ');
  return `imported ${idx.forms} instruction forms${idx.date ? ` (file dated ${idx.date})` : ''} into ${root}\n${archs}\n`;
}

export async function runImport(file: string, cacheDir?: string): Promise<void> {
  const bar = progressBar('importing');
  try {
    const idx = await importUopsXml(file, { cacheDir, onProgress: (d, t) => bar.update(d, t) });
    bar.done();
    process.stdout.write(summary(idx, cacheRoot(cacheDir)));
  } catch (e) {
    bar.done();
    throw e;
  }
}

/** The divider's gaps of one core, its LLVM records grouped by form (a record and its memory,
 *  masked, … variants are one form). In a terminal (`short`) the count alone: a list of forms
 *  would push the table off the screen; --wide, a pipe and --json list them. */
function gapsText(keys: readonly string[], short: boolean): string {
  const forms = new Map<string, number>();
  for (const k of keys) {
    const base = k.replace(/:.*$/, '');
    forms.set(base, (forms.get(base) ?? 0) + 1);
  }
  const n = forms.size;
  const list = [...forms].map(([f, v]) => (v > 1 ? `${f} (${v} variants)` : f)).join(', ');
  const head = `the divider is not modelled for ${n} form${n > 1 ? 's' : ''} of the LLVM model that use${n > 1 ? '' : 's'} it (no source gives ${n > 1 ? 'their' : 'its'} divider occupancy; the report names such lines)`;
  return short ? `${head}; --wide lists ${n > 1 ? 'them' : 'it'}` : `${head}: ${list}`;
}

export function runList(cacheDir?: string, json = false, wide = false): void {
  const rows = listDataSources({ cacheDir });
  if (json) {
    process.stdout.write(`${JSON.stringify(withSchemaVersion({ sources: rows }), null, 2)}\n`);
    return;
  }
  const table = [
    ['arch', 'name', 'source', 'figures', 'forms', 'date', 'from'],
    ...rows.map((r) => [
      r.arch,
      r.name ?? '',
      r.kind,
      originInfo(r.origin).listText,
      `${r.forms}${r.placeholders ? ` (+${r.placeholders} placeholders)` : ''}${r.unused ? ` (+${r.unused} failed checks, not used)` : ''}`,
      escapeControls(r.date ?? ''),
      escapeControls(r.path),
    ]),
  ];
  // in a terminal (without --wide) the text columns narrow, cut with …; the counts never
  const width = fitWidth(wide);
  const cols = [
    {},
    { min: 8 },
    {},
    { min: 12 },
    { min: 16, rank: 1 },
    { min: 10, drop: 1 },
    { min: 12, drop: 2, cutStart: true },
  ];
  const { lines, dropped } = fitTable(cols, table, width);
  const note = droppedNote(
    dropped.map((k) => table[0]![k]!),
    width,
  );
  process.stdout.write([...lines, ...note].map((l) => `${l}\n`).join(''));
  const prose = (line: string) => process.stdout.write(wrapText(`${line}\n`, width));
  prose('Per line, the first of these sources that has figures for the form is used, in the order listed.');
  for (const r of rows) if (r.dividerGaps?.length) prose(`${r.arch}: ${gapsText(r.dividerGaps, width !== undefined)}`);
  for (const r of rows) {
    const p = r.provenance as
      | { cpu?: string; microcode?: string; kernel?: string; uopscope?: string; command?: string }
      | undefined;
    if (p)
      prose(
        `${r.arch} ${r.kind}: measured on ${p.cpu} (microcode ${p.microcode}, ${p.kernel}, uopscope ${p.uopscope}) by: ${p.command}`,
      );
  }
}

/** `uopscope data remove imported | measured [ARCH…]`: the user's own data; never what ships
 *  with uopscope. */
export function runRemove(what: string, archs: string[], cacheDir?: string): void {
  const root = cacheRoot(cacheDir);
  if (what === 'imported') {
    if (archs.length)
      throw new UserError(
        `data remove imported takes no architecture (it removes the whole imported file); remove '${printable(archs.join(' '), 40)}'`,
      );
    const idx = removeImport(cacheDir);
    process.stdout.write(
      idx
        ? `removed the imported uops.info data (${escapeControls(idx.source)}, ${idx.forms} forms) from ${root}\n`
        : `no imported uops.info data in ${root}: nothing to remove\n`,
    );
    return;
  }
  const names = archs.length ? archs.map((a) => parseArch(a, 'data remove measured')) : listMeasuredArchs(cacheDir);
  const removed: string[] = [];
  for (const a of names) {
    const path = userMeasuredPath(a, cacheDir);
    try {
      if (removeMeasured(path)) removed.push(path);
    } catch (e) {
      throw new UserError(
        `cannot remove ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)} — check the directory's permissions`,
      );
    }
  }
  const shipped = names.filter((a) => existsSync(shippedMeasuredPath(a)));
  const note = shipped.length
    ? ` (the figures shipped with uopscope for ${shipped.join(', ')} stay: they are part of the package)`
    : '';
  process.stdout.write(
    removed.length
      ? `removed ${removed.join(', ')}${note}\n`
      : `no measured figures${archs.length ? ` for ${archs.join(', ')}` : ''} in ${root}: nothing to remove${note}\n`,
  );
}

export interface FetchCliOptions {
  cacheDir?: string;
  /** seconds; also UOPSCOPE_FETCH_CONNECT_TIMEOUT */
  connectTimeout?: number;
  /** seconds; also UOPSCOPE_FETCH_STALL_TIMEOUT */
  stallTimeout?: number;
  /** seconds for the whole download; also UOPSCOPE_FETCH_TOTAL_TIMEOUT */
  totalTimeout?: number;
  /** where the progress bar goes (a terminal only) */
  stderr?: NodeJS.WriteStream;
  /** where the summary goes (tests) */
  stdout?: NodeJS.WritableStream;
}

function seconds(flag: string, env: string, given: number | undefined, dflt: number, max = 3600): number {
  const raw = given ?? process.env[env];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > max)
    throw new UserError(
      `${given !== undefined ? `--${flag}` : env} must be a number of seconds between 0 and ${max}, not '${raw}'`,
    );
  return n;
}

/**
 * `uopscope data fetch`: downloads into a temporary file in the cache root, checks it, imports it
 * with the same code as `data import` (which publishes atomically) and removes the temporary
 * file, also on failure and on Ctrl-C. Until the import's index is replaced, the previous import
 * stays in force untouched.
 */
export async function runFetch(url: string, opts: FetchCliOptions = {}): Promise<void> {
  const { connectTimeoutS, stallTimeoutS, totalTimeoutS } = fetchTimeouts(opts);
  const root = cacheRoot(opts.cacheDir);
  let made: string | undefined;
  try {
    made = makeDirs(root);
  } catch (e) {
    throw new UserError(
      `cannot create the cache directory ${root}: ${(e as NodeJS.ErrnoException).code ?? String(e)} — set UOPSCOPE_CACHE_DIR to a writable directory`,
    );
  }
  removeStaleDownloads(root);
  const tmp = tempDownloadPath(root);
  const cleanup = () => {
    rmSync(tmp, { force: true });
    // a cache directory this run created and left empty goes too
    if (made) {
      try {
        rmdirSync(made);
      } catch {
        /* not empty: something was installed */
      }
    }
  };
  const bar = downloadBar('downloading', opts.stderr);
  const onSignal = (sig: NodeJS.Signals) => {
    bar.done();
    cleanup();
    process.stderr.write(`uopscope: data fetch interrupted (${sig}); nothing was installed from this download\n`);
    process.exit(130);
  };
  const sigs: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of sigs) process.on(s, onSignal);
  const started = Date.now();
  try {
    let got: DownloadResult;
    try {
      got = await downloadFile(url, tmp, {
        connectTimeoutS,
        stallTimeoutS,
        totalTimeoutS,
        onProgress: (d, t) => bar.update(d, t),
      });
    } finally {
      bar.done();
    }
    checkDownloadedXml(tmp, url);
    const out = opts.stdout ?? process.stdout;
    out.write(downloadedLine(got, (Date.now() - started) / 1000));
    const idx = await importDownload(tmp, url, opts);
    made = undefined;
    out.write(summary(idx, root));
  } finally {
    for (const s of sigs) process.off(s, onSignal);
    cleanup();
  }
}

/** --connect-timeout, --stall-timeout, --total-timeout, else their variables, else the defaults. */
function fetchTimeouts(opts: FetchCliOptions): {
  connectTimeoutS: number;
  stallTimeoutS: number;
  totalTimeoutS: number;
} {
  const connectTimeoutS = seconds(
    'connect-timeout',
    'UOPSCOPE_FETCH_CONNECT_TIMEOUT',
    opts.connectTimeout,
    DEFAULT_CONNECT_TIMEOUT_S,
  );
  const stallTimeoutS = seconds(
    'stall-timeout',
    'UOPSCOPE_FETCH_STALL_TIMEOUT',
    opts.stallTimeout,
    DEFAULT_STALL_TIMEOUT_S,
  );
  const totalTimeoutS = seconds(
    'total-timeout',
    'UOPSCOPE_FETCH_TOTAL_TIMEOUT',
    opts.totalTimeout,
    DEFAULT_TOTAL_TIMEOUT_S,
    7 * 24 * 3600,
  );
  return { connectTimeoutS, stallTimeoutS, totalTimeoutS };
}

function downloadedLine(got: DownloadResult, secs: number): string {
  const how = [
    got.resumed ? `resumed ${got.resumed === 1 ? 'once' : `${got.resumed} times`}` : '',
    got.restarted ? 'started over once' : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `downloaded ${(got.bytes / 1e6).toFixed(1)} MB from ${got.finalUrl} in ${secs.toFixed(1)} s${how ? ` (${how})` : ''}\n`;
}

/** Imports the downloaded file `tmp` (from `url`) into the cache, with a progress bar. */
async function importDownload(tmp: string, url: string, opts: FetchCliOptions): Promise<CacheIndex> {
  const ibar = progressBar('importing', opts.stderr);
  try {
    return await importUopsXml(tmp, { cacheDir: opts.cacheDir, source: url, onProgress: (d, t) => ibar.update(d, t) });
  } catch (e) {
    // the file is gone after this: name the URL, not the temporary file
    if (e instanceof UserError) throw new UserError(`${e.message.split(tmp).join(url)}`, e.exitCode);
    throw e;
  } finally {
    ibar.done();
  }
}
