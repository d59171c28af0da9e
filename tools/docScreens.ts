// The explorer's screens shown in docs/explorer.md, rendered from the bundled examples rather than
// drawn by hand, so that the documentation shows what the explorer shows today:
//
//   npm run docs:screens        (node --import tsx tools/docScreens.ts)
//
// rewrites every screen between its markers in docs/explorer.md, and the table of the colours'
// contrast (tools/themeContrast.ts); test/ui/docScreens.test.ts renders the same and fails when
// the documentation differs.
//
// A screen is the Explorer component as the CLI builds it (src/cli/commands/exploreRun.ts: the
// same session, architectures, worker and default model), drawn by Ink into ink-testing-library's
// terminal of the screen's size, after the screen's keys. Nothing in it depends on the machine,
// the time or the path: the data are the embedded ones (an empty cache directory, so figures
// measured on this machine or an imported file cannot show), the file is named by its base name,
// colour is off (the screen reads the same without it), and a screen is taken only once every
// background result it waits for is on it and no new frame comes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { createElement } from 'react';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DOC = join(ROOT, 'docs', 'explorer.md');

/** One screen of the documentation: which example, how it was reached, when it is complete. */
export interface ScreenSpec {
  name: string;
  file: string;
  arch: Uppercase<string>;
  /** a second core beside the first (--compare-arch) */
  compareArch?: Uppercase<string>;
  iterations: number;
  columns: number;
  rows: number;
  /** keys typed one after another, each waiting for its own sign on screen */
  steps: { keys: string; until: RegExp }[];
  /** the screen is taken once this holds (every background result shown) and nothing redraws */
  done: RegExp;
  /** and none of this shows (a result still being computed) */
  pending?: RegExp;
}

/** What `npm start` opens: the thesis's branch example on SKL, 200 iterations. */
const START = { file: 'examples/bin/branch', arch: 'SKL', iterations: 200 } as const;
/** The scheduler-capacity loop of the Zen microbenchmark on Zen 4 (test/fixtures/zen/build.sh). */

/** The first step of every screen: the explorer has drawn cycle 0. */
const OPENED = { keys: '', until: /cycle 0 of \d+/ };
/** The scheduler-capacity loop of the Zen microbenchmark on ZEN4 at the first cycle the front end
 *  stops on a full queue (test/ui/e2eQueues.test.ts finds it). */
const ZEN_SCHED: Omit<ScreenSpec, 'name' | 'columns' | 'rows'> = {
  file: 'test/fixtures/zen/sched.o',
  arch: 'ZEN4',
  iterations: 200,
  steps: [OPENED, { keys: 'g8\r', until: /cycle 8 of \d+/ }],
  done: /cycle 8 of \d+.*\n[\s\S]*dispatch stalled/,
};

export const SCREENS: readonly ScreenSpec[] = [
  {
    // the thesis's branch example as `npm start` opens it, nine cycles in
    name: 'explorer-80x24',
    ...START,
    columns: 80,
    rows: 24,
    steps: [OPENED, { keys: 'lllllllll', until: /cycle 9 of \d+/ }],
    done: /cycle 9 of \d+/,
  },
  {
    // a variant beside the baseline on a wider terminal: the comparison line and the panes' titles
    name: 'variant-120x30',
    ...START,
    columns: 120,
    rows: 30,
    steps: [OPENED, { keys: 'lllllllll', until: /cycle 9 of \d+/ }, { keys: 'f', until: /variant: perfect front-end/ }],
    done: /diverge at cycle \d+ │ c\/iter done\/run: baseline [^│]*\d\/\d[^│]*│ perfect FE [^│]*\d\/\d/,
    pending: /searching/,
  },
  // a Zen core's scheduler queues, side by side at 80×24 and a row per queue at 120×40
  { name: 'zen-queues-80x24', ...ZEN_SCHED, columns: 80, rows: 24 },
  { name: 'zen-queues-120x40', ...ZEN_SCHED, columns: 120, rows: 40 },
  {
    // two cores side by side: the stencil on Skylake beside Zen 4
    name: 'cores-120x40',
    file: 'examples/bin/stencil',
    arch: 'SKL',
    compareArch: 'ZEN4',
    iterations: 200,
    columns: 120,
    rows: 40,
    steps: [OPENED, { keys: 'g40\r', until: /cycle 40 of \d+/ }],
    done: /cycle 40 of \d+[\s\S]*diverge at cycle \d+ │ c\/iter done\/run: SKL [^│]*\d\/\d[^│]*│ ZEN4 [^│]*\d\/\d/,
    pending: /searching/,
  },
  {
    // the model's switches and notes at 80×24
    name: 'model-menu-80x24',
    ...START,
    columns: 80,
    rows: 24,
    steps: [OPENED, { keys: 's', until: /split pane/ }],
    done: /split pane/,
  },
  {
    // the model's notes in full (n in the model menu) at 80×24
    name: 'model-notes-80x24',
    ...START,
    columns: 80,
    rows: 24,
    steps: [OPENED, { keys: 's', until: /split pane/ }, { keys: 'n', until: /^Notes on SKL/m }],
    done: /^Notes on SKL/m,
  },
];

type Frames = { frames: string[]; lastFrame(): string | undefined };

async function waitFor(r: Frames, what: string, ok: (f: string) => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok(r.lastFrame() ?? '')) {
    if (Date.now() > end) throw new Error(`docs:screens: timed out waiting for ${what}; the screen:\n${r.lastFrame()}`);
    await sleep(20);
  }
}

/** Waits until no new frame has come for `quietMs` (Ink draws asynchronously). */
async function settle(r: Frames, quietMs = 400): Promise<void> {
  let n = r.frames.length;
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    await sleep(25);
    if (r.frames.length !== n) {
      n = r.frames.length;
      since = Date.now();
    }
  }
}

/** The screen as the documentation shows it: each line's trailing blanks and the blank rows at
 *  the bottom dropped (Markdown keeps neither visibly). */
function asScreen(frame: string): string {
  const lines = frame.split('\n').map((l) => l.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

async function renderOne(spec: ScreenSpec): Promise<string> {
  const { render } = await import('ink-testing-library');
  const { loadRegion } = await import('../src/disasm/index.js');
  const cli = await import('../src/cli/explorerSession.js');
  const { loadMachine } = await import('../src/data/machines.js');
  const { Explorer } = await import('../src/ui/components/Explorer.js');
  const { DEFAULT_MODEL_NAME, mechanismsOf } = await import('../src/sim/mechanisms.js');
  const base = cli.regionAnalysis(await loadRegion({ file: join(ROOT, spec.file) }));
  const session = await cli.buildExplorerSession(base, loadMachine(spec.arch));
  const other = spec.compareArch ? await cli.buildExplorerSession(base, loadMachine(spec.compareArch)) : null;
  const r = render(
    createElement(Explorer, {
      session,
      iterations: spec.iterations,
      mechanisms: mechanismsOf(DEFAULT_MODEL_NAME),
      ...(other ? { compareSession: other } : {}),
      archs: cli.archChoices(),
      loadArch: cli.sessionLoader(base),
      exportPath: () => 'uopscope-export.txt',
      saveExport: async () => 'uopscope-export.txt',
      color: false,
      size: { columns: spec.columns, rows: spec.rows },
    }),
  );
  try {
    for (const step of spec.steps) {
      for (const k of step.keys) r.stdin.write(k);
      await waitFor(r, `${spec.name}: ${step.until}`, (f) => step.until.test(f));
    }
    const pending = spec.pending;
    const complete = (f: string) => spec.done.test(f) && !pending?.test(f);
    await waitFor(r, `${spec.name}: ${spec.done}`, complete);
    await settle(r);
    await waitFor(r, `${spec.name}: ${spec.done}`, complete);
    return asScreen(r.lastFrame() ?? '');
  } finally {
    r.unmount();
  }
}

/** Every screen of SCREENS, by name, rendered with the embedded data only. */
export async function renderScreens(specs: readonly ScreenSpec[] = SCREENS): Promise<Map<string, string>> {
  const saved = process.env.UOPSCOPE_CACHE_DIR;
  const cache = mkdtempSync(join(tmpdir(), 'uopscope-docscreens-'));
  process.env.UOPSCOPE_CACHE_DIR = cache;
  const out = new Map<string, string>();
  try {
    for (const s of specs) out.set(s.name, await renderOne(s));
  } finally {
    const { stopBackground } = await import('../src/cli/offload.js');
    stopBackground();
    if (saved === undefined) delete process.env.UOPSCOPE_CACHE_DIR;
    else process.env.UOPSCOPE_CACHE_DIR = saved;
    rmSync(cache, { recursive: true, force: true });
  }
  return out;
}

const begin = (name: string) => `<!-- generated:${name} begin (npm run docs:screens writes this part) -->`;
const end = (name: string) => `<!-- generated:${name} end -->`;

/** A screen as the page shows it: a fenced block. */
export const fenced = (screen: string) => `\`\`\`text\n${screen}\n\`\`\``;

/** Every generated part of the page by name: the screens (fenced) and the colours' contrast table. */
export async function renderBlocks(specs: readonly ScreenSpec[] = SCREENS): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [name, screen] of await renderScreens(specs)) out.set(name, fenced(screen));
  const { tint } = await import('../src/ui/theme.js');
  const { ANSI_NAMES, contrastTable } = await import('./themeContrast.js');
  const used = new Set(ANSI_NAMES.map((n) => tint(true, n) ?? 'foreground'));
  out.set('colour-contrast', contrastTable(used));
  return out;
}

/** The names of the generated parts the document has markers for, in order. */
export function markedBlocks(doc: string): string[] {
  return [...doc.matchAll(/<!-- generated:([\w-]+) begin /g)].map((m) => m[1]!);
}

/** What the document holds between a name's markers, or undefined without its markers. */
export function blockInDoc(doc: string, name: string): string | undefined {
  const i = doc.indexOf(begin(name));
  const j = doc.indexOf(end(name));
  if (i < 0 || j < i) return undefined;
  return doc
    .slice(i + begin(name).length, j)
    .replace(/^\n/, '')
    .replace(/\n$/, '');
}

/** The document with each marked part replaced by the rendered one. */
export function spliceBlocks(doc: string, blocks: ReadonlyMap<string, string>): string {
  let out = doc;
  for (const [name, text] of blocks) {
    const i = out.indexOf(begin(name));
    const j = out.indexOf(end(name));
    if (i < 0 || j < i) throw new Error(`docs:screens: ${DOC} has no markers for ${name}`);
    out = `${out.slice(0, i)}${begin(name)}\n${text}\n${out.slice(j)}`;
  }
  return out;
}

async function main(): Promise<void> {
  const blocks = await renderBlocks();
  const doc = readFileSync(DOC, 'utf8');
  const next = spliceBlocks(doc, blocks);
  if (next !== doc) writeFileSync(DOC, next);
  process.stdout.write(
    `${next === doc ? 'unchanged' : 'rewrote'}: ${[...blocks.keys()].join(', ')} in docs/explorer.md\n`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
