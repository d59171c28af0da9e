// The explorer's controller, in plain TypeScript: it holds the state (src/ui/state.ts's pure
// reducer over plain data), the engines and snapshot cursors of the panes shown (never in the
// state), the operations the keys run (src/ui/keys.ts), the key queue, and every slow or
// background computation. React only subscribes to the state and draws it
// (src/ui/hooks/useExplorer.ts); the tests drive the controller without Ink
// (test/ui/controller.test.ts).
//
// Nothing slow runs on the input path: a seek (and a rebuild, which seeks the new panes to the
// displayed cycle) is work in slices of a few milliseconds; the first slice runs at once, so a
// step answers in the same turn, and when more is needed the header says so (`busy`), keys wait
// their turn, Esc cancels, and q, Ctrl-C and the terminal's signals end the program at once.
import type { Engine, LineDetail, Snapshot } from '../sim/types.js';
import { DEFAULT_MODEL_NAME, mechanismInfo, mechanismLabel, mechanismsOf } from '../sim/mechanisms.js';
import { continueScan, startScan, type Divergence } from './compare.js';
import { GLOBAL_KEYS, lookup, splitKeys, type KeyContext, type KeyEvent, type KeyOps } from './keys.js';
import { MODEL_ROWS, applyModelRow, inert, modelView } from './modelMenu.js';
import { num } from './format.js';
import { comparesCores, engineOf, makeLayout, paneSession, type PaneLayout, type PaneRequest } from './panes.js';
import { PaneCursor } from './snapshotCache.js';
import {
  ISSUE_SEARCH_LIMIT,
  comparesPanes,
  explorerReducer,
  initialState,
  isFinished,
  parsePrompt,
  type Action,
  type ExplorerState,
  type Overlay,
} from './state.js';
import { TABS, type ExplorerProps, type QuitHow, type RunTotal, type VariantKey } from './types.js';

/** The key context an overlay takes the keys for. */
export function contextOf(o: Overlay): KeyContext {
  switch (o.kind) {
    case 'prompt':
      return 'prompt';
    case 'arch':
      return 'arch';
    case 'model':
      return o.notes === undefined ? 'model' : 'notes';
    case 'help':
      return 'help';
    case 'detail':
      return 'detail';
    default:
      return 'explorer';
  }
}

/** The panes are on screen (with or without the detail): the explorer's own keys act. */
const onScreen = (ctx: KeyContext) => ctx === 'explorer' || ctx === 'detail';

/** The whole run of an engine, as it computes it (without moving its position). */
function wholeRunOf(engine: Engine): RunTotal {
  return { cycles: engine.totalCycles(), blockThroughput: engine.finalStats().blockThroughput };
}

/** The engines and snapshot cursors of one layout's panes. */
class PaneRuns {
  readonly cursors: PaneCursor[];
  constructor(readonly layout: PaneLayout) {
    this.cursors = layout.panes.map((p) => new PaneCursor(engineOf(layout, p)));
  }
}

/** Cycles a slice simulates at most before it looks at the clock. */
const SLICE_CYCLES = 128;

export interface ControllerOptions
  extends Pick<
    ExplorerProps,
    'session' | 'iterations' | 'mechanisms' | 'compareSession' | 'loadArch' | 'saveExport' | 'exportPath'
  > {
  archs: string[];
  /** the text `x` writes: the state with what only the controller knows (the details) */
  exportText(state: ExplorerState, details: { title: string; detail: LineDetail | null }[]): string;
  /** the user leaves: 'quit' (q) or 'interrupt' (Ctrl-C) */
  quit(how: QuitHow): void;
  /** Ctrl-Z: give the terminal back until the shell resumes the program (absent: ignored) */
  suspend?(): void;
  /** M: start measuring the region natively (absent: the key does nothing) */
  measure?(): void;
  /** Esc with nothing else to close: hide the measurement's result */
  dismiss?(): void;
  /** how long a slice of slow work runs before the screen and the keys get their turn (ms) */
  sliceMs?: number;
  /** runs `fn` after pending input and timers (default setImmediate) */
  defer?(fn: () => void): void;
  /** runs `fn` once the screen had time to draw the last change (default: 30 ms later; React
   *  renders in slices of its own, which the work's slices would otherwise take turns with) */
  afterPaint?(fn: () => void): void;
  now?(): number;
}

interface Job {
  label: string;
  cancelled: boolean;
  onCancel?: () => void;
}

export class ExplorerController {
  private state: ExplorerState;
  private runs: PaneRuns;
  private listeners = new Set<() => void>();
  private pending: KeyEvent[] = [];
  private job: Job | null = null;
  /** G waits for the worker's run lengths: seek to the end once they are all known */
  private endWanted: Job | null = null;
  private background: (() => void)[] = [];
  private disposed = false;
  private readonly sliceMs: number;
  private readonly defer: (fn: () => void) => void;
  private readonly afterPaint: (fn: () => void) => void;
  private readonly now: () => number;
  /** set from the terminal's size as the screen is drawn: how many pages the help has */
  readonly viewport = { helpPages: 1, notePages: 1 };
  readonly ops: KeyOps;

  constructor(private readonly opts: ControllerOptions) {
    this.sliceMs = opts.sliceMs ?? 8;
    this.defer =
      opts.defer ??
      ((fn) => {
        setImmediate(fn);
      });
    this.afterPaint =
      opts.afterPaint ??
      ((fn) => {
        setTimeout(fn, 30);
      });
    this.now = opts.now ?? (() => performance.now());
    // without a model given: the default model (src/sim/mechanisms.ts)
    const layout = makeLayout(opts.session, {
      variants: new Set(),
      branches: false,
      iterations: opts.iterations,
      mechanisms: opts.mechanisms ?? mechanismsOf(DEFAULT_MODEL_NAME),
      other: opts.compareSession ?? null,
    });
    this.runs = new PaneRuns(layout);
    this.state = initialState(
      layout,
      this.runs.cursors.map((c) => c.at(0)),
      opts.archs,
    );
    this.ops = this.makeOps();
    this.startBackground();
  }

  // ---- the store --------------------------------------------------------------------------

  getState = (): ExplorerState => this.state;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  };

  dispatch(a: Action): void {
    const next = explorerReducer(this.state, a);
    if (next === this.state) return;
    this.state = next;
    if (next.playing !== this.play.playing || next.speed !== this.play.speed) this.syncPlayback();
    for (const fn of this.listeners) fn();
  }

  /** While playing: `speed` cycles per second, in at most ~30 steps per second. */
  private play: { playing: boolean; speed: number; stop(): void } = { playing: false, speed: 0, stop: () => {} };

  private syncPlayback(): void {
    this.play.stop();
    const { playing, speed } = this.state;
    this.play = { playing, speed, stop: () => {} };
    if (!playing || this.disposed) return;
    const interval = Math.max(33, Math.round(1000 / speed));
    const perTick = Math.max(1, Math.round((speed * interval) / 1000));
    const t = setInterval(() => {
      if (this.state.playing && !this.busy) this.ops.step(perTick);
    }, interval);
    this.play.stop = () => clearInterval(t);
  }

  private say(text: string): void {
    this.dispatch({ type: 'message', text });
  }

  /** Stops every computation (the user quit, or the screen went away). */
  dispose(): void {
    this.disposed = true;
    this.play.stop();
    this.cancelJob(false);
    this.stopBackground();
    this.pending = [];
  }

  // ---- keys -------------------------------------------------------------------------------

  /** Slow work runs: keys wait for it (except q, Ctrl-C and Esc). */
  private get busy(): boolean {
    return this.job !== null || this.endWanted !== null || this.loading;
  }
  private loading = false;

  /**
   * A key, in the context on screen now (the explorer, a prompt, a menu, the help): every key
   * of a burst sees the state the one before it left. Ctrl-C always, q in the explorer, end the
   * program at once and Esc cancels slow work; other keys that arrive while slow work runs wait
   * in a queue and run in order after it.
   */
  handleKey(ev: KeyEvent): void {
    for (const k of splitKeys(ev.input, ev.key)) {
      if (this.disposed) return;
      const global = GLOBAL_KEYS.find((b) => b.match(k.input, k.key));
      if (global) {
        global.run(this.ops, this.state, k.input, k.key);
        continue;
      }
      if (this.busy) {
        if (k.input === 'q' && onScreen(contextOf(this.state.overlay))) {
          this.quit('quit');
          return;
        }
        if (k.key.escape && !this.loading) {
          this.cancelJob(true);
          this.drain();
          continue;
        }
        this.pending.push(k);
        continue;
      }
      if (this.pending.length > 0) {
        this.pending.push(k);
        continue;
      }
      this.runKey(k);
    }
  }

  /** Runs the queued keys while nothing slow runs. */
  drain(): void {
    while (this.pending.length > 0 && !this.busy && !this.disposed) this.runKey(this.pending.shift()!);
  }

  private runKey(k: KeyEvent): void {
    const ctx = contextOf(this.state.overlay);
    const b = lookup(ctx, k.input, k.key);
    if (!b) return;
    // a message is about the last action: the next one clears it
    if (onScreen(ctx)) this.say('');
    b.run(this.ops, this.state, k.input, k.key);
  }

  quit(how: QuitHow): void {
    if (this.disposed) return;
    this.dispose();
    this.opts.quit(how);
  }

  // ---- slow work in slices ----------------------------------------------------------------

  /**
   * Runs `work` (a generator that yields between slices) to its end, then `done` with its
   * value. The first slice runs now: work that fits in it never shows as busy. Otherwise the
   * header shows `label` and the rest runs between frames, until done or cancelled (Esc).
   */
  private runJob<T>(label: string, work: Generator<void, T>, done: (v: T) => void, onCancel?: () => void): void {
    this.cancelJob(false);
    const slice = (): IteratorResult<void, T> => {
      const until = this.now() + this.sliceMs;
      let r = work.next();
      while (!r.done && this.now() < until) r = work.next();
      return r;
    };
    let r: IteratorResult<void, T>;
    try {
      r = slice();
    } catch (err) {
      this.fail(err);
      return;
    }
    if (r.done) {
      done(r.value);
      return;
    }
    const job: Job = { label, cancelled: false, ...(onCancel ? { onCancel } : {}) };
    this.job = job;
    this.dispatch({ type: 'busy', label: `${label} (esc cancels)` });
    const tick = () => {
      if (job.cancelled || this.disposed) return;
      let res: IteratorResult<void, T>;
      try {
        res = slice();
      } catch (err) {
        this.finishJob(job);
        this.fail(err);
        return;
      }
      if (!res.done) {
        this.defer(tick);
        return;
      }
      this.finishJob(job);
      done(res.value);
      this.drain();
    };
    // the busy status on screen first, then the rest of the work
    this.afterPaint(tick);
  }

  private finishJob(job: Job): void {
    if (this.job === job) this.job = null;
    if (!this.endWanted) this.dispatch({ type: 'busy', label: null });
  }

  private cancelJob(tell: boolean): void {
    const job = this.job ?? this.endWanted;
    if (!job) return;
    job.cancelled = true;
    this.job = null;
    this.endWanted = null;
    job.onCancel?.();
    this.dispatch({ type: 'busy', label: null });
    if (tell) this.say(`cancelled: ${job.label.replace(/…$/, '')} (still at cycle ${this.state.cycle})`);
  }

  private fail(err: unknown): void {
    this.say(String(err instanceof Error ? err.message : err));
  }

  /** Async work (an architecture's data, the export): busy while it runs, keys wait. */
  private async runAsync<T>(label: string, work: () => Promise<T>): Promise<T | undefined> {
    this.loading = true;
    this.dispatch({ type: 'busy', label });
    try {
      return await work();
    } catch (err) {
      this.fail(err);
      return undefined;
    } finally {
      this.loading = false;
      if (!this.job) this.dispatch({ type: 'busy', label: null });
    }
  }

  /** Each cursor of `runs` brought to `cycle` in slices; the snapshots there. */
  private *seekWork(runs: PaneRuns, cycle: number): Generator<void, Snapshot[]> {
    for (const c of runs.cursors) while (!c.prepare(cycle, SLICE_CYCLES)) yield;
    return runs.cursors.map((c) => c.at(cycle));
  }

  /** Shows `cycle` (clamped to the run). */
  seek(cycle: number, then?: () => void): void {
    if (!Number.isFinite(cycle)) return;
    const target = Math.max(0, Math.round(cycle));
    const runs = this.runs;
    this.runJob(`seeking cycle ${target}…`, this.seekWork(runs, target), (snaps) => {
      if (this.runs !== runs) return;
      this.dispatch({ type: 'show', snaps });
      then?.();
    });
  }

  /** Other panes (variants, branches, model, iterations, architecture) at the displayed cycle. */
  private rebuild(
    label: string,
    patch: Partial<PaneRequest> & { session?: ExplorerState['layout']['session'] },
    message?: (s: ExplorerState, wanted: number) => string,
  ): void {
    const l = this.state.layout;
    const layout = makeLayout(patch.session ?? l.session, {
      variants: patch.variants ?? l.variants,
      branches: patch.branches ?? l.branches,
      iterations: patch.iterations ?? l.iterations,
      mechanisms: patch.mechanisms ?? l.mechanisms,
      compareModel: patch.compareModel ?? l.compareModel,
      other: patch.other !== undefined ? patch.other : l.other,
      memoryThroughData: patch.memoryThroughData ?? l.memoryThroughData,
    });
    let runs: PaneRuns;
    try {
      runs = new PaneRuns(layout);
    } catch (err) {
      this.fail(err);
      return;
    }
    const wanted = this.state.cycle;
    this.runJob(label, this.seekWork(runs, wanted), (snaps) => {
      this.stopBackground();
      this.runs = runs;
      this.dispatch({ type: 'layout', layout, snaps });
      if (message) this.say(message(this.state, wanted));
      this.startBackground();
    });
  }

  // ---- background: run lengths and the divergence --------------------------------------

  private stopBackground(): void {
    for (const stop of this.background) stop();
    this.background = [];
  }

  /** Each pane's run length and final throughput, and where two panes part: in the session's
   *  worker when it has one, else on this thread after the first frame. */
  private startBackground(): void {
    const runs = this.runs;
    const { layout } = runs;
    // a core split's panes run on two cores: each pane's run in its core's worker, and the
    // divergence (one worker job runs one machine) on this thread
    const cores = comparesCores(layout);
    const offload = layout.session.offload;
    const offloads = layout.panes.map((p) => paneSession(layout, p).offload);
    let cancelled = false;
    this.background.push(() => {
      cancelled = true;
    });
    if (offloads.every((o) => o !== undefined)) {
      layout.panes.forEach((p, i) => {
        const job = offloads[i]!.wholeRun(p.spec, layout.iterations);
        job.promise.then(
          (t) => {
            if (!cancelled) this.setTotal(runs, i, t);
          },
          () => {
            /* cancelled */
          },
        );
        this.background.push(() => job.cancel());
      });
    } else {
      const t = setTimeout(() => {
        runs.cursors.forEach((c, i) => {
          if (!cancelled) this.setTotal(runs, i, wholeRunOf(c.engine));
        });
      }, 0);
      this.background.push(() => clearTimeout(t));
    }
    if (!comparesPanes(layout)) return;
    const [a, b] = layout.panes as [(typeof layout.panes)[0], (typeof layout.panes)[0]];
    const report = (d: Divergence) => {
      if (!cancelled) this.dispatch({ type: 'divergence', layout, divergence: d });
    };
    if (offload && !cores) {
      const job = offload.divergence(a.spec, b.spec, layout.iterations);
      job.promise.then(report, () => {
        /* cancelled or failed: stays 'searching' */
      });
      this.background.push(() => job.cancel());
      return;
    }
    // fresh engines, stepped in lockstep in small slices between frames
    const scan = startScan(engineOf(layout, a), engineOf(layout, b));
    let slices = 0;
    const tick = () => {
      if (cancelled) return;
      const r = continueScan(scan, 32);
      if (r.kind !== 'searching' || ++slices % 16 === 0) report(r);
      if (r.kind === 'searching') setTimeout(tick, 0);
    };
    if (scan.result.kind === 'searching') setTimeout(tick, 0);
    else report(scan.result);
  }

  /** A pane's whole run (the worker's): its engine takes it over (G, the length, far seeks). */
  private setTotal(runs: PaneRuns, pane: number, total: RunTotal): void {
    if (runs !== this.runs) return;
    if (total.run) runs.cursors[pane]!.engine.adopt(total.run);
    this.dispatch({ type: 'total', layout: runs.layout, pane, total });
    this.reportToggleEffect();
    if (this.endWanted && this.state.totals.every((t) => t !== null)) {
      this.endWanted = null;
      this.seekEnd();
    }
  }

  private seekEnd(): void {
    const end = Math.max(...this.state.totals.map((t) => t!.cycles));
    this.seek(end, () => this.drain());
    if (!this.job) this.dispatch({ type: 'busy', label: null });
  }

  // ---- what the screen and the export read -----------------------------------------------

  /** The detail (thesis §2.6) of the selected line in every pane, as of the displayed cycle. */
  details(): { title: string; detail: LineDetail | null }[] {
    const s = this.state;
    const line = s.layout.session.lines[s.selected]?.line;
    return s.layout.panes.map((pane, i) => ({
      title: pane.title,
      detail:
        line !== undefined && pane.lines.includes(line)
          ? this.runs.cursors[i]!.detailAt(s.snaps[i]!.cycle, line)
          : null,
    }));
  }

  /**
   * `n`: the first cycle after the displayed one at which a µop of `line` gets a port for an
   * instance that held none the cycle before, read through the pane's cursor (the snapshots the
   * screen shows), at most ISSUE_SEARCH_LIMIT cycles ahead.
   */
  private *nextIssueWork(line: number): Generator<void, { cycle: number; message: string }> {
    const s = this.state;
    const idx = s.layout.panes.findIndex((p) => p.lines.includes(line));
    if (idx < 0) return { cycle: s.cycle, message: `line ${line} is not on this path` };
    const cur = this.runs.cursors[idx]!;
    const on = (snap: Snapshot) =>
      new Set(snap.ports.flatMap((p) => p.uops.filter((u) => u.line === line).map((u) => u.iteration)));
    let snap = cur.at(s.cycle);
    let before = on(snap);
    for (let n = 0; ; n++) {
      if (snap.finished) return { cycle: snap.cycle, message: `line ${line} does not issue again` };
      if (n === ISSUE_SEARCH_LIMIT)
        return { cycle: snap.cycle, message: `line ${line} did not issue within ${n} cycles (n again to go on)` };
      snap = cur.at(snap.cycle + 1);
      const now = on(snap);
      if ([...now].some((it) => !before.has(it)))
        return { cycle: snap.cycle, message: `line ${line} issues at cycle ${snap.cycle}` };
      before = now;
      if (n % 64 === 63) yield;
    }
  }

  // ---- the operations the keys run --------------------------------------------------------

  private makeOps(): KeyOps {
    const get = () => this.state;
    const dispatch = (a: Action) => this.dispatch(a);
    return {
      step: (by) => {
        const s = get();
        if (by > 0 && isFinished(s)) {
          if (s.playing) dispatch({ type: 'play' });
          return;
        }
        this.seek(s.cycle + by);
      },
      home: () => this.seek(0),
      runToEnd: () => {
        const s = get();
        dispatch({ type: 'overlay', overlay: s.overlay.kind === 'detail' ? s.overlay : { kind: 'none' } });
        if (s.playing) dispatch({ type: 'play' });
        if (s.totals.every((t) => t !== null)) {
          this.seekEnd();
          return;
        }
        if (s.layout.session.offload) {
          // the worker is running the panes to their end: wait for it rather than run them again here
          this.endWanted = { label: 'running to the end…', cancelled: false };
          dispatch({ type: 'busy', label: 'running to the end… (esc cancels)' });
          return;
        }
        this.runs.cursors.forEach((c, i) => {
          this.setTotal(this.runs, i, wholeRunOf(c.engine));
        });
        this.seekEnd();
      },
      nextIssue: () => {
        const s = get();
        const line = s.layout.session.lines[s.selected]?.line;
        if (line === undefined) return;
        const runs = this.runs;
        this.runJob(`running until line ${line} issues…`, this.nextIssueWork(line), (r) => {
          if (this.runs !== runs) return;
          this.seek(r.cycle, () => this.say(r.message));
        });
      },
      select: (by) => dispatch({ type: 'select', by }),
      toggleVariant: (k: VariantKey) => {
        const next = new Set(get().layout.variants);
        if (next.has(k)) next.delete(k);
        else next.add(k);
        this.rebuild('computing the variant…', { variants: next });
      },
      toggleMemory: () => {
        const s = get();
        const md = s.layout.session.memoryThroughData;
        if (!md) {
          this.say(
            "no load here may read the previous iteration's store through data (its address registers stride or come from no data): nothing to compare",
          );
          return;
        }
        const on = s.layout.memoryThroughData;
        const pairs = md.pairs.map((p) =>
          p.store === p.load
            ? `line ${p.load} loads what it stored`
            : `line ${p.load} loads what line ${p.store} stored`,
        );
        // one split at a time: the branch sides and the core and model splits close for it
        const patch = on
          ? { memoryThroughData: false }
          : { memoryThroughData: true, branches: false, compareModel: false, other: null };
        this.rebuild('computing the worst case…', patch, () =>
          on
            ? 'worst case off'
            : `worst case on the right: ${pairs.join(', ')} the iteration before (only the data can tell; on the left no load does)`,
        );
      },
      toggleBranches: () => {
        const s = get();
        const session = s.layout.session;
        if (!session.branches) {
          this.say(session.noBranches ?? 'no conditional jump in this region: nothing to compare');
          return;
        }
        const { branchLine: line, choice } = session.branches;
        const on = s.layout.branches;
        this.rebuild('computing both sides…', { branches: !on }, () =>
          on
            ? 'branch comparison off'
            : `branch comparison: the two sides of the jump at line ${line}${choice ? ` (${choice})` : ''}`,
        );
      },
      openPrompt: (what) => {
        const s = get();
        const text =
          what === 'goto'
            ? String(s.cycle)
            : what === 'iterations'
              ? String(s.layout.iterations)
              : what === 'search'
                ? this.lastSearch
                : (this.opts.exportPath?.() ?? '');
        dispatch({ type: 'prompt-open', what, text });
      },
      toggleCores: () => {
        const s = get();
        if (s.layout.other) {
          this.rebuild('closing the core comparison…', { other: null }, () => 'core comparison off');
          return;
        }
        const other = s.archs.findIndex((a) => a !== s.layout.session.arch);
        dispatch({ type: 'overlay', overlay: { kind: 'arch', index: Math.max(0, other), compare: true } });
      },
      openArch: () => {
        const s = get();
        dispatch({
          type: 'overlay',
          overlay: { kind: 'arch', index: Math.max(0, s.archs.indexOf(s.layout.session.arch)) },
        });
      },
      toggleOverlay: (kind) => {
        const o = get().overlay;
        if (kind === 'help-page') {
          if (o.kind === 'help' && o.page + 1 < this.viewport.helpPages)
            dispatch({ type: 'overlay', overlay: { kind: 'help', page: o.page + 1 } });
          return;
        }
        if (kind === 'help') {
          // ? pages through the help, and closes it after the last page
          const next = o.kind === 'help' ? o.page + 1 : 0;
          dispatch({
            type: 'overlay',
            overlay: next < this.viewport.helpPages ? { kind: 'help', page: next } : { kind: 'none' },
          });
          return;
        }
        dispatch({ type: 'overlay', overlay: o.kind === kind ? { kind: 'none' } : { kind } });
      },
      helpBack: () => {
        const o = get().overlay;
        if (o.kind === 'help' && o.page > 0) dispatch({ type: 'overlay', overlay: { kind: 'help', page: o.page - 1 } });
      },
      closeOverlay: () => {
        const o = get().overlay;
        if (o.kind === 'none') this.opts.dismiss?.();
        // the notes in full go back to the menu's rows
        else if (o.kind === 'model' && o.notes !== undefined)
          dispatch({ type: 'overlay', overlay: { kind: 'model', index: o.index } });
        else dispatch({ type: 'overlay', overlay: { kind: 'none' } });
      },
      tab: (to) => dispatch({ type: 'tab', to: typeof to === 'number' ? TABS[to]!.id : to }),
      togglePlay: () => dispatch({ type: 'play' }),
      speed: (dir) => dispatch({ type: 'speed', dir }),
      quit: (how: QuitHow) => this.quit(how),
      promptType: (text) => dispatch({ type: 'prompt-type', text }),
      promptBackspace: () => dispatch({ type: 'prompt-backspace' }),
      promptKeep: () => dispatch({ type: 'prompt-keep' }),
      promptSubmit: () => {
        const o = get().overlay;
        if (o.kind !== 'prompt') return;
        dispatch({ type: 'overlay', overlay: { kind: 'none' } });
        const v = parsePrompt(o.what, o.text);
        if ('error' in v) {
          this.say(v.error);
          return;
        }
        if (o.what === 'goto') {
          const wanted = v.value as number;
          this.seek(wanted, () => {
            if (this.state.cycle < wanted)
              this.say(`the run ends at cycle ${this.state.cycle}: shown there (asked for ${wanted})`);
          });
        } else if (o.what === 'iterations') {
          const n = v.value as number;
          this.rebuild(
            `simulating ${n} iterations…`,
            { iterations: n },
            (s) => `${n} iteration${n === 1 ? '' : 's'}, cycle ${s.cycle}`,
          );
        } else if (o.what === 'search') this.search(v.value as string);
        else void this.exportTo(v.value as string);
      },
      archMove: (by) => dispatch({ type: 'arch-move', by }),
      archPick: () => {
        const o = get().overlay;
        if (o.kind !== 'arch') return;
        const arch = get().archs[o.index];
        dispatch({ type: 'overlay', overlay: { kind: 'none' } });
        if (arch !== undefined) void (o.compare ? this.compareWith(arch) : this.switchArch(arch));
      },
      openModel: () => dispatch({ type: 'overlay', overlay: { kind: 'model', index: 0 } }),
      modelMove: (by) => dispatch({ type: 'model-move', by }),
      modelPick: () => this.modelPick(),
      openNotes: () => {
        const o = get().overlay;
        if (o.kind === 'model') dispatch({ type: 'overlay', overlay: { ...o, notes: 0 } });
      },
      notesPage: (by) => {
        const o = get().overlay;
        if (o.kind !== 'model' || o.notes === undefined) return;
        const notes = Math.max(0, Math.min(this.viewport.notePages - 1, o.notes + by));
        if (notes !== o.notes) dispatch({ type: 'overlay', overlay: { ...o, notes } });
      },
      measure: () => this.opts.measure?.(),
      suspend: () => this.opts.suspend?.(),
    };
  }

  /** The text `/` searched for last: its prompt proposes it, so `/` enter finds the next match. */
  private lastSearch = '';

  /** `/`: selects the next line after the selected one (wrapping) whose instruction holds `text`
   *  (any case), and says which match of how many it is. */
  private search(text: string): void {
    this.lastSearch = text;
    const s = this.state;
    const lines = s.layout.session.lines;
    const want = text.toLowerCase();
    const hits = lines.flatMap((l, i) => (l.asm.toLowerCase().includes(want) ? [i] : []));
    if (hits.length === 0) {
      this.say(`search: no line holds '${text}'`);
      return;
    }
    const next = hits.find((i) => i > s.selected) ?? hits[0]!;
    this.dispatch({ type: 'select', by: next - s.selected });
    const l = lines[next]!;
    this.say(
      `line ${l.line}: ${l.asm} (match ${hits.indexOf(next) + 1} of ${hits.length} for '${text}'${hits.length > 1 ? '; / enter: the next' : ''})`,
    );
  }

  /**
   * The model menu's enter: the runs simulated again at the displayed cycle, as an architecture
   * switch does (the worker finds their lengths); the menu stays open for the next toggle. Once
   * the new runs' lengths are known, the message says what the toggle changed (or that it changed
   * nothing); a mechanism not modelled on this core says so at once.
   */
  private modelPick(): void {
    const s = this.state;
    const o = s.overlay;
    if (o.kind !== 'model') return;
    const row = MODEL_ROWS[o.index];
    if (!row) return;
    const next = applyModelRow(row, s.layout.mechanisms, s.layout.compareModel);
    const why = row.kind === 'mechanism' ? inert(modelView(s.layout.session, s.layout.mechanisms), row.id) : null;
    const before = s.totals;
    this.rebuild('simulating the model…', next, (v, wanted) => {
      const cmp = v.layout.compareModel && !v.layout.branches ? ` beside ${v.layout.panes[1]?.title ?? ''}` : '';
      const text = `model: ${mechanismLabel(v.layout.mechanisms)}${cmp}${v.cycle === wanted ? `, still at cycle ${v.cycle}` : `: run ends at cycle ${v.cycle} (was at ${wanted})`}`;
      if (why !== null)
        return `${text} · the ${row.kind === 'mechanism' ? mechanismInfo(row.id).short : ''} is not modelled on ${v.layout.session.arch} (${why}): switching it changes nothing`;
      if (row.kind === 'mechanism' && before.every((t) => t !== null) && before.length === v.layout.panes.length)
        this.toggleEffect = { layout: v.layout, before: before as RunTotal[], message: text };
      return text;
    });
  }

  /** After a model toggle: the runs before it, to say what it changed once the new runs are known. */
  private toggleEffect: { layout: PaneLayout; before: RunTotal[]; message: string } | null = null;

  private reportToggleEffect(): void {
    const t = this.toggleEffect;
    if (!t || t.layout !== this.runs.layout || this.state.totals.some((x) => x === null)) return;
    this.toggleEffect = null;
    // a key since then cleared the message: the news is stale
    if (this.state.message !== t.message) return;
    const after = this.state.totals as RunTotal[];
    const same = after.every((a, i) => a.cycles === t.before[i]!.cycles);
    const figs = after.map((a, i) => `${num(t.before[i]!.blockThroughput)} → ${num(a.blockThroughput)}`).join(', ');
    this.say(
      same
        ? `${t.message} · no change on this loop: the whole run takes ${after[0]!.cycles} cycles either way (${after.map((a) => num(a.blockThroughput)).join(', ')} c/iter)`
        : `${t.message} · c/iter of the whole run ${figs}`,
    );
  }

  private async exportTo(path: string): Promise<void> {
    await this.runAsync('exporting…', async () => {
      try {
        const written = await this.opts.saveExport(this.opts.exportText(this.state, this.details()), path);
        this.say(
          typeof written === 'string' ? `exported to ${written}` : `exported to ${written.path} (${written.note})`,
        );
      } catch (err) {
        this.say(`export failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
    this.drain();
  }

  /** The core split: the same region on `arch` beside the current core, at the displayed cycle. */
  async compareWith(arch: string): Promise<void> {
    const session = await this.runAsync(`loading ${arch}…`, async () => {
      try {
        return await this.opts.loadArch(arch);
      } catch (err) {
        this.say(`could not load ${arch}: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
    });
    if (session && !this.disposed) {
      const here = this.state.layout.session;
      this.rebuild(`simulating ${session.arch}…`, { other: session }, (v) =>
        v.layout.branches
          ? `${session.arch} beside ${here.arch} once the branch comparison (b) is off`
          : `${here.arch} beside ${session.arch} (${session.archName}), at cycle ${v.cycle}`,
      );
    }
    this.drain();
  }

  private async switchArch(arch: string): Promise<void> {
    if (arch === this.state.layout.session.arch) return;
    const session = await this.runAsync(`loading ${arch}…`, async () => {
      try {
        return await this.opts.loadArch(arch);
      } catch (err) {
        this.say(`could not switch to ${arch}: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
    });
    if (session && !this.disposed) {
      this.rebuild(
        `simulating ${session.arch}…`,
        { session, branches: this.state.layout.branches && session.branches !== null },
        (v, wanted) =>
          v.cycle === wanted
            ? `${session.arch} (${session.archName}), still at cycle ${v.cycle}`
            : `${session.arch} (${session.archName}): run ends at cycle ${v.cycle} (was at ${wanted})`,
      );
    }
    this.drain();
  }
}
