// The explorer's state (src/ui/state.ts's reducer) held in a small store, and the operations the
// keys run on it (src/ui/keys.ts). The store is updated synchronously on every action, so that
// keys arriving in one burst, before React renders, each see the state the previous one left.
// Keys that arrive for a context that is not on screen yet (the digits typed right after `g`)
// wait in a queue until that context's handler is active, then run in order.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useApp, useInput, type Key } from 'ink';
import { explorerReducer, detailsAt, initialState, nextIssue, parsePrompt, type Action, type ExplorerState, type Overlay } from '../state.js';
import { lookup, splitKeys, type KeyContext, type KeyOps } from '../keys.js';
import { MODEL_ROWS, applyModelRow } from '../modelMenu.js';
import { mechanismLabel } from '../../sim/mechanisms.js';
import { TABS, type ExplorerProps, type QuitHow, type VariantKey } from '../types.js';
import { wholeRunOf } from './useTotals.js';

export type { ExplorerState, Overlay } from '../state.js';

/** Past this cycle (or distance), rebuilding or seeking can take long enough to show that it works. */
const SLOW_CYCLES = 2000;

export interface KeyRouter {
  /** a key for `ctx`; queued when another context is live (or while busy) */
  handle(ctx: KeyContext, input: string, key: Key): void;
  /** runs the queued keys while `ctx` is live */
  drain(ctx: KeyContext): void;
}

export interface ExplorerControl {
  ops: KeyOps;
  router: KeyRouter;
  setTotal(pane: ExplorerState['panes'][number], total: import('../types.js').RunTotal): void;
  details: typeof detailsAt;
  /** set by the Explorer from the terminal's size: how many pages the help has */
  viewport: { helpPages: number };
}

export function contextOf(o: Overlay): KeyContext {
  return o.kind === 'prompt' ? 'prompt' : o.kind === 'arch' ? 'arch' : o.kind === 'model' ? 'model' : 'explorer';
}

/** Routes the keys of one context through the router while it is on screen (Ink's isActive). */
export function useKeyContext(router: KeyRouter, ctx: KeyContext, active: boolean): void {
  useInput((input, key) => router.handle(ctx, input, key), { isActive: active });
  useEffect(() => { if (active) router.drain(ctx); }, [active, router, ctx]);
}

export function useExplorer(props: ExplorerProps, exportText: (s: ExplorerState) => string, onMeasure?: () => void): [ExplorerState, ExplorerControl] {
  const { exit } = useApp();
  const [state, setState] = useState<ExplorerState>(() => initialState(props.session, props.iterations, props.archs.map((a) => a.arch), props.mechanisms));
  const store = useRef({ state, pending: [] as { input: string; key: Key }[] });
  const propsRef = useRef(props);
  propsRef.current = props;
  const exportRef = useRef(exportText);
  exportRef.current = exportText;
  const measureRef = useRef(onMeasure);
  measureRef.current = onMeasure;

  // what the screen's size decides, for the keys (set by the Explorer as it renders)
  const viewport = useRef({ helpPages: 1 }).current;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs and `viewport` (a ref's object) are stable; the control is made once per `exit`
  const control = useMemo<ExplorerControl>(() => {
    const get = () => store.current.state;
    const dispatch = (a: Action) => {
      const next = explorerReducer(store.current.state, a);
      if (next === store.current.state) return;
      store.current.state = next;
      setState(next);
    };
    const say = (text: string) => dispatch({ type: 'message', text });
    /** Work that may take a while: say so on screen first (the header's status), then do it. */
    const slow = (label: string, work: () => void | Promise<void>, when = true) => {
      if (!when) { void work(); return; }
      dispatch({ type: 'busy', label });
      // long enough for Ink to draw the frame that shows the label (it renders at most 60/s)
      setTimeout(() => {
        Promise.resolve().then(work).catch((err: unknown) => say(String(err instanceof Error ? err.message : err)))
          .finally(() => { dispatch({ type: 'busy', label: null }); router.drain(contextOf(get().overlay)); });
      }, 20);
    };
    const far = (target: number) => Math.abs(target - get().cycle) > SLOW_CYCLES;

    const seek = (cycle: number) => slow('seeking…', () => dispatch({ type: 'seek', cycle }), far(cycle));
    const rebuild = (label: string, patch: Extract<Action, { type: 'rebuild' }>['patch'], message?: Extract<Action, { type: 'rebuild' }>['message']) =>
      slow(label, () => dispatch({ type: 'rebuild', patch, ...(message ? { message } : {}) }), get().cycle > SLOW_CYCLES || (patch.iterations ?? 0) > 0);

    const exportTo = async (path: string) => {
      try {
        const written = await propsRef.current.saveExport(exportRef.current(get()), path);
        say(`exported to ${written}`);
      } catch (err) {
        say(`export failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    };

    const switchArch = async (arch: string) => {
      const s = get();
      if (arch === s.session.arch) return;
      dispatch({ type: 'overlay', overlay: { kind: 'none' } });
      slow(`loading ${arch}…`, async () => {
        try {
          const session = await propsRef.current.loadArch(arch);
          const wanted = get().cycle;
          dispatch({
            type: 'rebuild', patch: { session, branches: get().branches && session.branches !== null },
            message: (v) => (v.cycle === wanted ? `${session.arch} (${session.archName}), still at cycle ${v.cycle}`
              : `${session.arch} (${session.archName}): run ends at cycle ${v.cycle} (was at ${wanted})`),
          });
        } catch (err) {
          say(`could not switch to ${arch}: ${err instanceof Error ? err.message : String(err)}`);
        }
      });
    };

    const ops: KeyOps = {
      step: (by) => {
        const s = get();
        if (by > 0 && s.snaps.every((x) => x.finished)) { dispatch({ type: 'step', by }); return; }
        const target = s.cycle + by;
        slow('seeking…', () => dispatch({ type: 'step', by }), far(target));
      },
      home: () => seek(0),
      runToEnd: () => {
        dispatch({ type: 'overlay', overlay: get().overlay.kind === 'detail' ? get().overlay : { kind: 'none' } });
        if (get().playing) dispatch({ type: 'play' });
        slow('running to the end…', () => {
          const totals = get().panes.map((p) => wholeRunOf(p.engine));
          dispatch({ type: 'seek', cycle: Math.max(...totals.map((t) => t.cycles)) });
          dispatch({ type: 'totals', totals });
        });
      },
      nextIssue: () => {
        const s = get();
        const line = s.session.lines[s.selected]?.line;
        if (line === undefined) return;
        slow(`running until line ${line} issues…`, () => {
          const r = nextIssue(get(), line);
          dispatch({ type: 'seek', cycle: r.cycle });
          say(r.message);
        });
      },
      select: (by) => dispatch({ type: 'select', by }),
      toggleVariant: (k: VariantKey) => {
        const next = new Set(get().variants);
        if (next.has(k)) next.delete(k); else next.add(k);
        rebuild('computing the variant…', { variants: next });
      },
      toggleBranches: () => {
        const s = get();
        if (!s.session.branches) { say(s.session.noBranches ?? 'no conditional jump in this region: nothing to compare'); return; }
        const line = s.session.branches.branchLine;
        rebuild('computing both sides…', { branches: !s.branches }, () => (s.branches ? 'branch comparison off' : `branch comparison: the two sides of the jump at line ${line}`));
      },
      openPrompt: (what) => {
        const s = get();
        const text = what === 'goto' ? String(s.cycle) : what === 'iterations' ? String(s.iterations) : propsRef.current.exportPath?.() ?? '';
        dispatch({ type: 'prompt-open', what, text });
      },
      openArch: () => {
        const s = get();
        dispatch({ type: 'overlay', overlay: { kind: 'arch', index: Math.max(0, s.archs.indexOf(s.session.arch)) } });
      },
      toggleOverlay: (kind) => {
        const o = get().overlay;
        if (kind === 'help') {
          // ? pages through the help, and closes it after the last page
          const next = o.kind === 'help' ? o.page + 1 : 0;
          dispatch({ type: 'overlay', overlay: next < viewport.helpPages ? { kind: 'help', page: next } : { kind: 'none' } });
          return;
        }
        dispatch({ type: 'overlay', overlay: o.kind === kind ? { kind: 'none' } : { kind } });
      },
      closeOverlay: () => dispatch({ type: 'overlay', overlay: { kind: 'none' } }),
      tab: (to) => dispatch({ type: 'tab', to: typeof to === 'number' ? TABS[to]!.id : to }),
      togglePlay: () => dispatch({ type: 'play' }),
      speed: (dir) => dispatch({ type: 'speed', dir }),
      quit: (how: QuitHow) => { propsRef.current.onQuit?.(how); exit(); },
      promptType: (text) => dispatch({ type: 'prompt-type', text }),
      promptBackspace: () => dispatch({ type: 'prompt-backspace' }),
      promptKeep: () => dispatch({ type: 'prompt-keep' }),
      promptSubmit: () => {
        const o = get().overlay;
        if (o.kind !== 'prompt') return;
        dispatch({ type: 'overlay', overlay: { kind: 'none' } });
        const v = parsePrompt(o.what, o.text);
        if ('error' in v) { say(v.error); return; }
        if (o.what === 'goto') seek(v.value as number);
        else if (o.what === 'iterations') {
          const n = v.value as number;
          rebuild(`simulating ${n} iterations…`, { iterations: n }, (nv) => `${n} iteration${n === 1 ? '' : 's'}, cycle ${nv.cycle}`);
        } else slow('exporting…', () => exportTo(v.value as string));
      },
      archMove: (by) => dispatch({ type: 'arch-move', by }),
      archPick: () => {
        const o = get().overlay;
        if (o.kind !== 'arch') return;
        const arch = get().archs[o.index];
        dispatch({ type: 'overlay', overlay: { kind: 'none' } });
        if (arch !== undefined) void switchArch(arch);
      },
      openModel: () => dispatch({ type: 'overlay', overlay: { kind: 'model', index: 0 } }),
      modelMove: (by) => dispatch({ type: 'model-move', by }),
      modelPick: () => {
        // the menu stays open: the next toggle follows; the runs are simulated again at the
        // displayed cycle, as an architecture switch does (the worker finds their lengths)
        const s = get();
        const o = s.overlay;
        if (o.kind !== 'model') return;
        const row = MODEL_ROWS[o.index];
        if (!row) return;
        const next = applyModelRow(row, s.mechanisms, s.compareModel);
        const wanted = s.cycle;
        rebuild('simulating the model…', next, (v) => {
          const cmp = v.compareModel && !v.branches ? ` beside ${v.panes[1]?.title ?? ''}` : '';
          return `model: ${mechanismLabel(v.mechanisms)}${cmp}${v.cycle === wanted ? `, still at cycle ${v.cycle}` : `: run ends at cycle ${v.cycle} (was at ${wanted})`}`;
        });
      },
      measure: () => measureRef.current?.(),
    };

    const run = (ctx: KeyContext, input: string, key: Key) => {
      const b = lookup(ctx, input, key);
      if (!b) return;
      // a message is about the last action: the next one clears it
      if (ctx === 'explorer') say('');
      b.run(ops, get(), input, key);
    };

    const router: KeyRouter = {
      handle: (ctx, input, key) => {
        for (const ev of splitKeys(input, key)) {
          const s = get();
          // q quits at once, even while busy
          if (ev.input === 'q' && contextOf(s.overlay) !== 'prompt') { ops.quit('quit'); return; }
          if (s.busy || contextOf(s.overlay) !== ctx || store.current.pending.length > 0) { store.current.pending.push(ev); continue; }
          run(ctx, ev.input, ev.key);
        }
      },
      drain: (ctx) => {
        const q = store.current.pending;
        while (q.length > 0 && !get().busy && contextOf(get().overlay) === ctx) {
          const ev = q.shift()!;
          run(ctx, ev.input, ev.key);
        }
      },
    };

    return {
      ops, router, details: detailsAt, viewport,
      setTotal: (pane, total) => {
        // the worker's run of this pane: its engine takes it over (G, the length, far seeks)
        if (total.run && get().panes.includes(pane)) pane.engine.adopt(total.run);
        dispatch({ type: 'total', pane, total });
      },
    };
  }, [exit]);

  // keys queued for a context that has been on screen all along (busy ended, a prompt closed
  // within the same burst): run them once the state has settled
  // biome-ignore lint/correctness/useExhaustiveDependencies: `state.busy` ending is a moment to drain too
  useEffect(() => { control.router.drain(contextOf(state.overlay)); }, [state.overlay, state.busy, control]);

  return [state, control];
}
