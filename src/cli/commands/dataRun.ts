// The work of `uopscope data import | list | fetch` (see data.ts for the options), loaded only
// when one of them runs.
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UserError } from '../../errors.js';
import { importUopsXml, listDataSources, cacheRoot, type CacheIndex, type DataSourceRow } from '../../data/index.js';
import { progressBar } from '../progress.js';

function summary(idx: CacheIndex, root: string): string {
  const archs = Object.entries(idx.archs).map(([a, n]) => `${a} ${n}`).join(', ');
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

export function runList(cacheDir?: string, json = false): void {
  const rows = listDataSources({ cacheDir });
  if (json) { process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`); return; }
  const what: Record<DataSourceRow['origin'], string> = { 'uops.info': 'measured (uops.info)', thesis: 'SUACA thesis', llvm: 'LLVM model', none: 'no figures' };
  const table = [['arch', 'name', 'source', 'figures', 'forms', 'date', 'from'],
    ...rows.map((r) => [r.arch, `${r.name ?? ''}${r.experimental ? ' (experimental)' : ''}`, r.kind, what[r.origin],
      `${r.forms}${r.placeholders ? ` (+${r.placeholders} placeholders)` : ''}`, r.date ?? '', r.path])];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  process.stdout.write(table.map((row) => `${row.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()}\n`).join(''));
  process.stdout.write('Per line, the first of these sources that has figures for the form is used, in the order listed.\n');
}

export async function runFetch(url: string, cacheDir?: string): Promise<void> {
  const root = cacheRoot(cacheDir);
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(20000) });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (e as Error).message;
    throw new UserError(`cannot download ${url} (${why}) — download it on a machine with network access and run 'uopscope data import FILE'`);
  }
  if (!res.ok || !res.body) {
    throw new UserError(`cannot download ${url} (HTTP ${res.status}) — download it on a machine with network access and run 'uopscope data import FILE'`);
  }
  mkdirSync(root, { recursive: true });
  const target = join(root, 'instructions.xml');
  const tmp = `${target}.tmp-${process.pid}`;
  const total = Number(res.headers.get('content-length') ?? 0);
  const bar = progressBar('downloading');
  let done = 0;
  try {
    const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
    body.on('data', (c: Buffer) => { done += c.length; bar.update(done, total || done); });
    await pipeline(body, createWriteStream(tmp));
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    bar.done();
    throw new UserError(`download of ${url} failed (${(e as Error).message}) — try again or import a downloaded file with 'uopscope data import FILE'`);
  }
  bar.done();
  process.stderr.write(`downloaded ${target}\n`);
  await runImport(target, cacheDir);
}
