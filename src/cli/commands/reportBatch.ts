// `uopscope report` over many regions in one run: several input files, and with --all-regions
// every region `uopscope regions` lists for each. One result per region, in the order of the
// files and their regions: the report's text, or with --json one line of the report's JSON
// (report/json.ts's builder, compact). A region that fails (a decoding error, data that does not
// fit the core) is its own line — `error: FILE: region N (NAME): why` in text, `{"file", "region",
// "name", "error"}` in JSON — and the rest go on; the exit status is then 2. The regions are
// spread over worker threads (reportBatchWorker.ts) and the calling thread, which take the next
// region from a shared counter; each thread loads an input, the core and its figures once.
// Progress ("regions done/total") on stderr when it is a terminal.

import { availableParallelism } from 'node:os';
import { decodeChosenRegion, buildDependencyGraph, listRegions, loadInput, resolveRegion } from '../../disasm/index.js';
import type { InputOptions, LoadedInput, Region, RegionSelection } from '../../disasm/types.js';
import { loadArchData, loadMachine } from '../../data/index.js';
import type { ArchData, MachineModel } from '../../data/types.js';
import { sharingIdenticalRuns, simulate } from '../../sim/index.js';
import { forArch, loopFor } from '../pipeline.js';
import { renderText } from '../../report/text.js';
import { reportJson } from '../../report/json.js';
import { UserError, printable } from '../../errors.js';
import { refuseRegionOverLimit, workersThatFit } from '../addressSpace.js';
import { spawnWorker } from '../offload.js';
import { isTerminal, writeStdout } from '../stdio.js';
import { reportOfAnalysis, reportSettings, type ReportSettings } from './reportRun.js';
import type { ReportArgs } from './args.js';
import { inputFromArgv, type InputArgv } from '../regionOptions.js';

/** One region to report: its input file and the region as listed (null: the file failed, `error`). */
interface BatchItem {
  file: string;
  region: Region | null;
  error?: string;
}

/** What every thread of a batch needs: the flags (plain data) and the input options. */
interface BatchSetup {
  args: ReportArgs;
  input: InputOptions & Pick<RegionSelection, 'maxInstructions'>;
}

/** What a thread posts for each region: its output and whether it failed. */
interface BatchResult {
  out: string;
  failed: boolean;
}

/** Below this many regions the calling thread reports them all: a worker thread takes longer to
 *  start (it loads uopscope's modules, the decoder and the core's figures) than a small loop's report. */
const BATCH_WORKERS_FROM = 16;

/** One thread's state: the flags read once, the core and its figures loaded once, the input last used. */
export class BatchContext {
  private settings: ReportSettings;
  private machine: MachineModel;
  private data: Promise<ArchData> | null = null;
  private input: { file: string; loaded: Promise<LoadedInput> } | null = null;

  constructor(private setup: BatchSetup) {
    this.settings = reportSettings(setup.args);
    this.machine = loadMachine(this.settings.arch);
  }

  /** The output of one region (its report, or its error line); never throws. */
  async result(item: BatchItem): Promise<BatchResult> {
    const json = !!this.setup.args.json;
    if (item.error !== undefined || item.region === null)
      return { out: errorLine(json, item.file, null, item.error ?? 'no region'), failed: true };
    try {
      return { out: await this.report(item.file, item.region, json), failed: false };
    } catch (e) {
      const why = e instanceof UserError ? e.message : `internal error: ${e instanceof Error ? e.message : String(e)}`;
      return { out: errorLine(json, item.file, item.region, why), failed: true };
    }
  }

  private async report(file: string, listed: Region, json: boolean): Promise<string> {
    const s = this.settings;
    if (this.input?.file !== file) this.input = { file, loaded: loadInput({ ...this.setup.input, file }) };
    const input = await this.input.loaded;
    // a copy: decoding may adjust the region's end and note; under an address-space limit, a
    // region it leaves no room to simulate is this region's error line
    const region = decodeChosenRegion(input, { ...listed }, { ...this.setup.input, admit: refuseRegionOverLimit });
    const loop = loopFor(s.iterations);
    const graph = buildDependencyGraph(region.instructions, { loop });
    this.data ??= loadArchData(this.machine.arch, {
      ...(s.uopsXml !== undefined ? { uopsXml: s.uopsXml } : {}),
      ...(s.measured ? {} : { measured: false }),
    });
    const analysis = await forArch({ region, graph, loop }, this.machine, {
      data: await this.data,
      ...(s.fallback !== undefined ? { fallback: s.fallback } : {}),
    });
    // each region's runs here, one after the other (the batch spreads regions, not runs, over the threads)
    const model = await reportOfAnalysis(analysis, s, sharingIdenticalRuns(simulate));
    return json ? `${JSON.stringify(reportJson(model))}\n` : `${renderText(model)}\n`;
  }
}

function errorLine(json: boolean, file: string, region: Region | null, why: string): string {
  if (json)
    return `${JSON.stringify({ file, ...(region ? { region: region.index, name: region.name } : {}), error: why })}\n`;
  const where = region ? `${file}: region ${region.index} (${region.name})` : file;
  return `error: ${printable(`${where}: ${why}`, 2000)}\n\n`;
}

/** The regions of each file: every listed one (--all-regions) or the one the selection names
 *  (by default the file's main loop, as a single report chooses). A file that cannot be read or
 *  holds no region is an item with its error. */
async function batchItems(
  files: string[],
  input: InputOptions & RegionSelection,
  allRegions: boolean,
): Promise<BatchItem[]> {
  const items: BatchItem[] = [];
  for (const file of files) {
    try {
      const loaded = await loadInput({ ...input, file });
      if (allRegions) {
        const list = listRegions(loaded);
        if (list.length === 0) items.push({ file, region: null, error: 'no marked region and no loop found' });
        for (const region of list) items.push({ file, region });
      } else {
        items.push({ file, region: resolveRegion(loaded, input) });
      }
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      // the input's own messages start with its name
      items.push({
        file,
        region: null,
        error: e.message.startsWith(`${file}: `) ? e.message.slice(file.length + 2) : e.message,
      });
    }
  }
  return items;
}

/** Worker threads a batch may use: $UOPSCOPE_WORKERS when set, else the CPUs but one (the calling
 *  thread reports regions too). */
function batchWorkers(items: number): number {
  const v = process.env.UOPSCOPE_WORKERS;
  const n = v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) : Math.max(0, availableParallelism() - 1);
  // under an address-space limit, only the workers it leaves room for
  return items < BATCH_WORKERS_FROM ? 0 : workersThatFit(Math.min(n, items - 1));
}

/** The message a batch worker gets: the setup, the items, the shared counter of the next item. */
export interface BatchJobs extends BatchSetup {
  items: BatchItem[];
  next: Int32Array;
}

export type BatchMessage = { k: number; result: BatchResult } | { done: true };

/**
 * Reports every item, printing each result in the items' order as soon as those before it are
 * printed; returns how many failed.
 */
async function runBatch(setup: BatchSetup, items: BatchItem[]): Promise<number> {
  const ctx = new BatchContext(setup);
  const results: (BatchResult | undefined)[] = new Array(items.length);
  let printed = 0;
  let failed = 0;
  const flush = () => {
    let text = '';
    while (printed < items.length && results[printed] !== undefined) {
      const r = results[printed]!;
      if (r.failed) failed++;
      text += r.out;
      results[printed] = undefined; // printed: no longer kept
      printed++;
    }
    if (text) writeStdout(text);
  };
  const progress = isTerminal(2) ? batchProgress(items.length) : null;
  let done = 0;
  const finished = (k: number, r: BatchResult) => {
    results[k] = r;
    done++;
    progress?.update(done);
    flush();
  };
  const next = new Int32Array(new SharedArrayBuffer(4));
  const take = () => Atomics.add(next, 0, 1);
  const workers = Array.from({ length: batchWorkers(items.length) }, () => spawnWorker('reportBatchWorker'));
  const ended = workers.map(
    (w) =>
      new Promise<void>((resolve) => {
        w.on('message', (m: BatchMessage) => {
          if ('done' in m) resolve();
          else finished(m.k, m.result);
        });
        // a worker that fails leaves its items to the calling thread (below)
        w.once('error', () => resolve());
        w.once('exit', () => resolve());
        w.postMessage({ ...setup, items, next } satisfies BatchJobs);
      }),
  );
  try {
    for (let k = take(); k < items.length; k = take()) {
      finished(k, await ctx.result(items[k]!));
      // the workers' messages are handled between two regions
      if (workers.length) await new Promise((r) => setImmediate(r));
    }
    await Promise.all(ended);
    // an item a failed worker took and did not finish
    while (printed < items.length) finished(printed, await ctx.result(items[printed]!));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
    progress?.done();
  }
  return failed;
}

/** `regions 120/4,567  38/s` on stderr, at most ten times a second, erased at the end. */
function batchProgress(total: number): { update(done: number): void; done(): void } {
  const start = Date.now();
  let last = 0;
  let drawn = false;
  return {
    update(done) {
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      const rate = now > start ? (done * 1000) / (now - start) : 0;
      process.stderr.write(
        `\r\x1b[2Kregions ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}  ${rate.toFixed(0)}/s`,
      );
      drawn = true;
    },
    done() {
      if (drawn) process.stderr.write('\r\x1b[2K');
    },
  };
}

/** `uopscope report FILE… [--all-regions]`: the batch's work; exit status 2 when a region failed. */
export async function runReportBatch(
  files: string[],
  argv: ReportArgs & InputArgv & { allRegions?: boolean; _?: unknown },
): Promise<void> {
  if (files.length === 0) throw new UserError('--all-regions: no input; pass one or more FILEs');
  if (argv.hex !== undefined || argv.raw !== undefined)
    throw new UserError('several regions are reported from FILEs only; pass --hex or --raw without other FILEs');
  if (files.some((f) => f === '-' || f === '<stdin>'))
    throw new UserError('several regions are reported from FILEs only; standard input (-) takes one report');
  if (argv.allRegions && (argv.region !== undefined || argv.function !== undefined || argv.range !== undefined))
    throw new UserError('--all-regions reports every region: pass it without --region, --function or --range');
  // the input and selection options as a single report reads them (one file: checked the same way)
  const { file: _f, ...input } = inputFromArgv({ ...argv, file: files[0]!, _: [] });
  // the flags are checked before any input is read: a bad one is one line and exit 2
  const args = plainArgs(argv);
  reportSettings(args);
  const items = await batchItems(files, input, !!argv.allRegions);
  const failed = await runBatch({ args, input: pickInput(input) }, items);
  if (failed > 0) {
    process.stderr.write(
      `uopscope: ${failed} of ${items.length} region${items.length === 1 ? '' : 's'} failed (see their lines)\n`,
    );
    process.exitCode = 2;
  }
}

/** The input options every thread needs to load a file. */
function pickInput(i: InputOptions & RegionSelection): BatchSetup['input'] {
  return {
    ...(i.assembler !== undefined ? { assembler: i.assembler } : {}),
    ...(i.syntax !== undefined ? { syntax: i.syntax } : {}),
    ...(i.maxInstructions !== undefined ? { maxInstructions: i.maxInstructions } : {}),
  };
}

/** yargs's arguments as plain data a worker thread can receive. */
function plainArgs(argv: object): ReportArgs {
  return Object.fromEntries(
    Object.entries(argv).filter(([k, v]) => k !== '_' && k !== '$0' && typeof v !== 'function'),
  ) as ReportArgs;
}
