// The work of `uopscope [FILE]` (see explore.ts for the options), loaded only when it runs: the
// explorer on a terminal, else the report.
import { homedir } from 'node:os';
import { existsSync, statSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import {
  defaultRegion,
  functionExtent,
  functionLoops,
  listRegions,
  loadInput,
  resolveRegion,
  selectRegion,
} from '../../disasm/index.js';
import type { InputOptions, LoadedInput, Region, RegionSelection } from '../../disasm/types.js';
import { UserError } from '../../errors.js';
import { colorEnabled } from '../../ui/theme.js';
import { writeOutputFile } from '../outputFile.js';
import { archChoices, buildExplorerSession, regionAnalysis, sessionLoader } from '../explorerSession.js';
import { effectiveSettings, parseArch, parseIterations } from '../config.js';
import { loadArchData, loadMachine } from '../../data/index.js';
import { runReport } from './reportRun.js';
import { RunsProgress } from '../progress.js';
import { isTerminal } from '../stdio.js';
import { inputFromArgv } from '../regionOptions.js';
import { mechanismsFromArgv, modelArgsOf } from '../modelOptions.js';
import { stopBackground } from '../offload.js';
import { refuseRegionOverLimit } from '../addressSpace.js';
import { withWasmReservation } from '../../wasmReservation.js';
import { importEsm } from '../esm.js';
import { measureRunner } from '../explorerMeasure.js';
import type { ExploreArgv } from './args.js';
import { measuredOf } from '../dataOptions.js';

function stamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

/** The data options the session and the non-terminal report share. */
function dataOptsOf(args: ExploreArgv) {
  return {
    ...(args.uopsXml !== undefined ? { uopsXml: args.uopsXml } : {}),
    ...(args.fallback !== undefined ? { fallback: args.fallback } : {}),
    ...measuredOf(args),
  };
}

/** The explorer's Ink modules, in a terminal only. */
async function explorerModules(
  tty: boolean,
): Promise<typeof import('../runExplorer.js') | { runExplorer: null; pickRegion: null }> {
  if (!tty) return { runExplorer: null, pickRegion: null };
  prepareInk();
  // Ink's layout engine (yoga) makes a WebAssembly memory when it loads: reserved small
  return withWasmReservation(YOGA_MEMORY_PAGES, () =>
    importEsm<typeof import('../runExplorer.js')>(new URL('../runExplorer.js', import.meta.url).href),
  );
}

export async function runExplore(args: ExploreArgv): Promise<void> {
  const sel = inputFromArgv(args, { simulates: true });
  if (!sel.file && !sel.hex && !sel.raw)
    throw new UserError(
      "no input: give a FILE (a binary or an assembly source), --hex or --raw; see 'uopscope --help'",
    );
  const eff = effectiveSettings({
    ...(args.arch !== undefined ? { arch: parseArch(args.arch, '--arch') } : {}),
    ...(args.iterations !== undefined ? { iterations: parseIterations(args.iterations, '--iterations') } : {}),
    ...(args.exportDir !== undefined ? { 'export-dir': args.exportDir } : {}),
  });
  const arch = eff.arch.value;
  const iterations = eff.iterations.value;
  const { mechanisms } = mechanismsFromArgv(args, eff.model.value);
  // what can be checked before the user is asked anything (the region picker): the architecture
  // is known and there are measurements for it (memoized: the session reuses them)
  const dataOpts = dataOptsOf(args);
  const [machine, other] = await machinesOf(arch, args);
  const input = await loadInput(sel);
  const tty = Boolean(process.stdout.isTTY && process.stdin.isTTY);
  const regions = listRegions(input);
  let region = sel.region;
  const { runExplorer, pickRegion } = await explorerModules(tty);
  if (tty && pickRegion) {
    const picked = await pickWhatToExplore(pickRegion, input, regions, sel);
    if (picked === 'interrupt') {
      process.exitCode = 130;
      return;
    }
    if (picked === 'quit') return;
    if (picked !== undefined) region = picked;
  }
  // simulated next: under an address-space limit, refused as soon as its size is known when the
  // limit leaves no room for that
  const loaded = selectRegion(input, {
    ...sel,
    ...(region !== undefined ? { region } : {}),
    admit: refuseRegionOverLimit,
  });
  if (!tty || !runExplorer) {
    // not a terminal: the report (`uopscope report` with the same input and settings)
    process.stdout.write(
      await runReport(
        { ...sel, ...(region !== undefined ? { region } : {}) },
        { arch, iterations, ...dataOpts, ...modelArgsOf(args), ...(other && { compareArch: other.arch }) },
      ),
    );
    return;
  }
  const { base, session, compareSession } = await sessionsOf(loaded, machine, other, dataOpts);
  const dir = resolve(eff['export-dir'].value);
  try {
    const how = await runExplorer({
      session,
      iterations,
      mechanisms,
      ...(compareSession && { compareSession }),
      archs: archChoices(dataOpts),
      loadArch: sessionLoader(base, dataOpts),
      exportPath: () => join(dir, `uopscope-${basename(loaded.file).replace(/[^\w.-]/g, '_')}-${stamp()}.txt`),
      saveExport: async (text, typed) => {
        const path = resolve(dir, typed.startsWith('~/') ? join(homedir(), typed.slice(2)) : typed);
        // an existing file is never replaced: the export goes to a free name beside it, said so
        const free = freeName(path);
        writeOutputFile(free, text, 'export', [loaded.file]);
        return free === path ? free : { path: free, note: `${basename(path)} exists and was kept` };
      },
      color: colorEnabled(),
      measure: measureRunner(loaded),
    });
    // Ctrl-C: the status terminal programs end with on SIGINT (128 + 2)
    if (how === 'interrupt') process.exitCode = 130;
  } finally {
    stopBackground();
  }
}

/** The region's session on --arch's machine, and on --compare-arch's (null without it). A large
 *  region takes seconds before the explorer can draw: its stages on stderr (a terminal), erased
 *  before the explorer takes the screen. */
async function sessionsOf(
  loaded: ReturnType<typeof selectRegion>,
  machine: Awaited<ReturnType<typeof machinesOf>>[0],
  other: Awaited<ReturnType<typeof machinesOf>>[1],
  dataOpts: Parameters<typeof buildExplorerSession>[2],
) {
  const progress = isTerminal(2) ? new RunsProgress() : undefined;
  const lines = loaded.instructions.length;
  progress?.stage('building the dependency graph', lines);
  const base = regionAnalysis(loaded);
  progress?.stage('looking up figures', lines);
  try {
    const session = await buildExplorerSession(base, machine, dataOpts);
    const compareSession = other && (await buildExplorerSession(base, other, dataOpts));
    return { base, session, compareSession };
  } finally {
    progress?.done(false);
  }
}

/** The machine of --arch and that of --compare-arch (null without it), each with its data
 *  loaded (memoized: the sessions reuse them) — checked before the user is asked anything. */
async function machinesOf(arch: Parameters<typeof loadMachine>[0], args: ExploreArgv) {
  const data = { ...(args.uopsXml !== undefined ? { uopsXml: args.uopsXml } : {}), ...measuredOf(args) };
  const machine = loadMachine(arch);
  await loadArchData(machine.arch, data);
  const other = args.compareArch !== undefined ? loadMachine(parseArch(args.compareArch, '--compare-arch')) : null;
  if (other) await loadArchData(other.arch, data);
  return [machine, other] as const;
}

/** The pages (64 KiB) reserved for the memory of Ink's layout engine, yoga, under an
 *  address-space limit (src/wasmReservation.ts): its initial size (it declares 256 pages, at
 *  most 32,768); without this it took 1.5 GiB under `ulimit -v 3000000`. */
const YOGA_MEMORY_PAGES = 256;

/** The environment Ink and React read when they load (the import of runExplorer.js). */
function prepareInk(): void {
  // React's production build (several times faster per frame) unless the user asked otherwise
  if (process.env.NODE_ENV === undefined) process.env.NODE_ENV = 'production';
  // A terminal is a terminal: Ink renders no live frames when it believes it runs in CI (the
  // CI / CONTINUOUS_INTEGRATION variables, read once when Ink loads), which would leave a blank
  // screen. The explorer only starts when stdin and stdout are terminals, so it is interactive.
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
}

type PickRegion = typeof import('../runExplorer.js')['pickRegion'];

/**
 * Asks the user on the terminal what the input names several of: which region of a file with
 * several (unless the command line chose), or which loop of a function with several (written
 * into `sel`). Returns the region picked, or how the user left the picker.
 */
async function pickWhatToExplore(
  pickRegion: PickRegion,
  input: LoadedInput,
  regions: Region[],
  sel: InputOptions & RegionSelection,
): Promise<number | 'quit' | 'interrupt' | undefined> {
  let region: number | undefined;
  if (sel.region === undefined && sel.function === undefined && sel.range === undefined && regions.length > 1) {
    // the region analysed without a choice is highlighted first and marked
    const first = defaultRegion(input, regions)?.index ?? 1;
    const picked = await pickRegion(
      input.file,
      regions.map((r) => ({ index: r.index, label: pickerLabel(r.index, regions.length, r, r.index === first) })),
      first - 1,
    );
    if (picked === 'interrupt' || picked === 'quit') return picked;
    region = picked;
  }
  if (sel.function !== undefined) {
    const picked = await pickFunctionLoop(pickRegion, input, sel, sel.function);
    if (picked !== undefined) return picked;
  }
  return region;
}

/** Entry `n` of `count` in the region picker: its number right-aligned in one column however
 *  many there are, its kind, its range and its name. */
export function pickerLabel(
  n: number,
  count: number,
  r: Pick<Region, 'kind' | 'start' | 'end' | 'name'>,
  isDefault: boolean,
): string {
  const width = Math.max(2, String(count).length);
  return `${String(n).padStart(width)}  ${r.kind.padEnd(8)} 0x${r.start.toString(16)}–0x${r.end.toString(16)}  ${r.name}${isDefault ? '  (default)' : ''}`;
}

/** A function with several loops: the user picks one (or the whole function), written into `sel`. */
async function pickFunctionLoop(
  pickRegion: PickRegion,
  input: LoadedInput,
  sel: RegionSelection,
  fn: string,
): Promise<'quit' | 'interrupt' | undefined> {
  const ext = functionExtent(input, fn);
  const loops = functionLoops(input, ext.sec.name, ext.sym.address, ext.end);
  if (loops.length <= 1) return undefined;
  const choices = [
    ...loops,
    {
      index: 0,
      kind: 'function' as const,
      name: `the whole function ${ext.sym.name}, as one straight block`,
      start: ext.sym.address,
      end: ext.end,
    },
  ];
  const main = resolveRegion(input, { function: fn });
  const first = Math.max(
    0,
    loops.findIndex((l) => l.start === main.start && l.end === main.end && l.name === main.name),
  );
  const picked = await pickRegion(
    `function ${ext.sym.name}`,
    choices.map((r, i) => ({ index: i + 1, label: pickerLabel(i + 1, choices.length, r, i === first) })),
    first,
  );
  if (picked === 'interrupt' || picked === 'quit') return picked;
  const c = choices[picked - 1]!;
  // the loop by its number in the function (a loop laid out in several runs is no --range)
  if (c.kind === 'function') sel.wholeFunction = true;
  else sel.functionLoop = picked;
  return undefined;
}

/** `path`, or when a file of that name exists the first of `name-2.ext`, `name-3.ext`, … that
 *  does not. */
export function freeName(path: string): string {
  const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
  // not a file (none, a directory, a device): written, or refused, as named
  if (!isFile(path)) return path;
  const ext = extname(path);
  const stem = path.slice(0, path.length - ext.length);
  for (let k = 2; ; k++) {
    const next = `${stem}-${k}${ext}`;
    if (!existsSync(next)) return next;
  }
}
