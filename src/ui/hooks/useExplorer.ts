// The explorer's state and what the keys do with it. Engines are stepped and sought here; every
// number on screen comes from their snapshots.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { LineDetail, Snapshot } from '../../sim/types.js';
import { buildPanes } from '../panes.js';
import { PaneCursor } from '../snapshotCache.js';
import { TABS, type ExplorerProps, type ExplorerSession, type PaneInfo, type RunTotal, type TabId, type VariantKey } from '../types.js';
import { wholeRunOf } from './useTotals.js';

export type Overlay =
  | { kind: 'none' }
  | { kind: 'help' }
  | { kind: 'detail' }
  | { kind: 'arch' }
  | { kind: 'prompt'; what: 'goto' | 'iterations' };

/** `n` looks this many cycles ahead at most (each one is a snapshot). */
export const ISSUE_SEARCH_LIMIT = 5000;

export const SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

export interface View {
  session: ExplorerSession;
  iterations: number;
  variants: ReadonlySet<VariantKey>;
  branches: boolean;
  panes: PaneInfo[];
  snaps: Snapshot[];
  cycle: number;
}

export interface ExplorerState extends View {
  selected: number;           // index into session.lines
  overlay: Overlay;
  tab: TabId;
  playing: boolean;
  speed: number;              // cycles per second
  message: string;
  busy: string | null;        // 'loading HSW…'
  promptText: string;         // what is typed at the g / i prompt
  totals: (RunTotal | null)[];  // per pane, once known
}

export interface ExplorerActions {
  stepBy(n: number): void;
  goTo(cycle: number): void;
  runToEnd(): void;
  runUntilSelectedIssues(): void;
  select(delta: number): void;
  toggleVariant(v: VariantKey): void;
  toggleBranches(): void;
  setIterations(n: number): void;
  switchArch(arch: string): Promise<void>;
  exportSession(): Promise<void>;
  setOverlay(o: Overlay): void;
  setTab(t: TabId | 'next' | 'prev'): void;
  togglePlay(): void;
  changeSpeed(dir: 1 | -1): void;
  setTotal(pane: PaneInfo, total: RunTotal): void;
  setMessage(m: string): void;
  setPromptText(t: string): void;
  /** overlay, prompt text and busy as of the last action (ahead of the rendered state) */
  live(): { overlay: Overlay; promptText: string; busy: string | null };
  details(): { pane: PaneInfo; detail: LineDetail | null }[];
}

const cursors = new WeakMap<PaneInfo, PaneCursor>();

function cursorOf(p: PaneInfo): PaneCursor {
  let c = cursors.get(p);
  if (!c) { c = new PaneCursor(p.engine); cursors.set(p, c); }
  return c;
}

function seekAll(panes: PaneInfo[], cycle: number): Snapshot[] {
  return panes.map((p) => cursorOf(p).at(cycle));
}

export function makeView(session: ExplorerSession, iterations: number, variants: ReadonlySet<VariantKey>,
  branches: boolean, cycle: number): View {
  const panes = buildPanes(session, { variants, branches, iterations });
  const snaps = seekAll(panes, cycle);
  return { session, iterations, variants, branches, panes, snaps, cycle: Math.max(0, ...snaps.map((s) => s.cycle)) };
}

export function useExplorer(props: ExplorerProps, exportText: (s: ExplorerState) => string): [ExplorerState, ExplorerActions] {
  const [view, setView] = useState<View>(() => makeView(props.session, props.iterations, new Set(), false, 0));
  const [selected, setSelectedState] = useState(0);
  const selectedRef = useRef(0);
  const setSelected = useCallback((f: (s: number) => number) => {
    selectedRef.current = f(selectedRef.current);
    setSelectedState(selectedRef.current);
  }, []);
  const [overlay, setOverlayState] = useState<Overlay>({ kind: 'none' });
  // what the key handler must see at once, before React renders (keys can come faster than frames)
  const live = useRef({ overlay: { kind: 'none' } as Overlay, promptText: '', busy: null as string | null });
  const setOverlay = useCallback((o: Overlay) => { live.current.overlay = o; setOverlayState(o); }, []);
  const [tab, setTabState] = useState<TabId>('rs');
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(10);
  // the first message: what the data could not cover, else where it came from
  const [message, setMessage] = useState(() => props.session.notes?.find((n) => n.startsWith('no data')) ?? props.session.notes?.[0] ?? '');
  const [busy, setBusyState] = useState<string | null>(null);
  const setBusy = useCallback((b: string | null) => { live.current.busy = b; setBusyState(b); }, []);
  const [promptText, setPromptTextState] = useState('');
  const setPromptText = useCallback((t: string) => { live.current.promptText = t; setPromptTextState(t); }, []);
  const [totals, setTotals] = useState<(RunTotal | null)[]>(() => view.panes.map(() => null));
  const viewRef = useRef(view);
  viewRef.current = view;

  const applyView = useCallback((v: View) => {
    viewRef.current = v;
    setView(v);
    setTotals(v.panes.map(() => null));
  }, []);

  const goTo = useCallback((cycle: number) => {
    const v = viewRef.current;
    const c = Math.max(0, Math.round(cycle));
    const snaps = seekAll(v.panes, c);
    const nv = { ...v, snaps, cycle: Math.max(...snaps.map((s) => s.cycle)) };
    viewRef.current = nv;
    setView(nv);
    if (snaps.every((s) => s.finished)) setPlaying(false);
  }, []);

  const stepBy = useCallback((n: number) => {
    const v = viewRef.current;
    if (n > 0 && v.snaps.every((s) => s.finished)) { setPlaying(false); return; }
    goTo(v.cycle + n);
  }, [goTo]);

  const runToEnd = useCallback(() => {
    setPlaying(false);
    // a long run takes a moment: say so on screen first, then run
    setBusy('running to the end…');
    setTimeout(() => {
      const v = viewRef.current;
      const snaps = v.panes.map((p) => p.engine.runToEnd());
      const cycle = Math.max(...snaps.map((s) => s.cycle));
      const aligned = seekAll(v.panes, cycle);
      const nv = { ...v, snaps: aligned, cycle };
      viewRef.current = nv;
      setView(nv);
      setTotals(v.panes.map((p) => wholeRunOf(p.engine)));
      setBusy(null);
    }, 0);
  }, [setBusy]);

  const runUntilSelectedIssues = useCallback(() => {
    const v = viewRef.current;
    const line = v.session.lines[selectedRef.current]?.line;
    if (line === undefined) return;
    const idx = v.panes.findIndex((p) => p.lines.includes(line));
    if (idx < 0) { setMessage(`line ${line} is not on this path`); return; }
    const eng = v.panes[idx]!.engine;
    let s = eng.seek(v.cycle);
    // "issues": a µop of the line gets a port, for an instance that held none the cycle before
    let before = new Set(s.ports.flatMap((p) => p.uops.filter((u) => u.line === line).map((u) => u.iteration)));
    for (let n = 0; ; n++) {
      if (s.finished) { setMessage(`line ${line} does not issue again`); break; }
      if (n === ISSUE_SEARCH_LIMIT) { setMessage(`line ${line} did not issue within ${n} cycles (n again to go on)`); break; }
      s = eng.step();
      const now = new Set(s.ports.flatMap((p) => p.uops.filter((u) => u.line === line).map((u) => u.iteration)));
      if ([...now].some((it) => !before.has(it))) {
        setMessage(`line ${line} issues at cycle ${s.cycle}`);
        break;
      }
      before = now;
    }
    goTo(s.cycle);
  }, [goTo]);

  const select = useCallback((delta: number) => {
    const n = viewRef.current.session.lines.length;
    setSelected((s) => Math.max(0, Math.min(n - 1, s + delta)));
  }, []);

  const rebuild = useCallback((patch: Partial<Pick<View, 'session' | 'iterations' | 'variants' | 'branches'>>) => {
    const v = viewRef.current;
    const nv = makeView(patch.session ?? v.session, patch.iterations ?? v.iterations,
      patch.variants ?? v.variants, patch.branches ?? v.branches, v.cycle);
    applyView(nv);
    return nv;
  }, [applyView]);

  const toggleVariant = useCallback((k: VariantKey) => {
    const v = viewRef.current;
    const next = new Set(v.variants);
    if (next.has(k)) next.delete(k); else next.add(k);
    rebuild({ variants: next });
  }, [rebuild]);

  const toggleBranches = useCallback(() => {
    const v = viewRef.current;
    if (!v.session.branches) { setMessage(v.session.noBranches ?? 'no conditional jump in this region: nothing to compare'); return; }
    rebuild({ branches: !v.branches });
    setMessage(v.branches ? 'branch comparison off' : `branch comparison: the two sides of the jump at line ${v.session.branches.branchLine}`);
  }, [rebuild]);

  const setIterations = useCallback((n: number) => {
    if (!Number.isInteger(n) || n < 1) { setMessage('iterations must be a whole number ≥ 1'); return; }
    const nv = rebuild({ iterations: n });
    setMessage(`${n} iteration${n === 1 ? '' : 's'}, cycle ${nv.cycle}`);
  }, [rebuild]);

  const switchArch = useCallback(async (arch: string) => {
    const v = viewRef.current;
    if (arch === v.session.arch) return;
    setBusy(`loading ${arch}…`);
    setPlaying(false);
    try {
      const session = await props.loadArch(arch);
      const wanted = viewRef.current.cycle;
      const nv = rebuild({ session, branches: viewRef.current.branches && session.branches !== null });
      setSelected((s) => Math.min(s, session.lines.length - 1));
      setMessage(nv.cycle === wanted ? `${session.arch} (${session.archName}), still at cycle ${nv.cycle}`
        : `${session.arch} (${session.archName}): run ends at cycle ${nv.cycle} (was at ${wanted})`);
    } catch (err) {
      setMessage(`could not switch to ${arch}: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(null);
    }
  }, [props, rebuild]);

  const stateRef = useRef<ExplorerState | null>(null);

  const exportSession = useCallback(async () => {
    const s = stateRef.current;
    if (!s) return;
    setBusy('exporting…');
    try {
      const path = await props.saveExport(exportText(s));
      setMessage(`exported to ${path}`);
    } catch (err) {
      setMessage(`export failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(null);
    }
  }, [props, exportText]);

  const setTab = useCallback((t: TabId | 'next' | 'prev') => {
    setTabState((cur) => {
      if (t !== 'next' && t !== 'prev') return t;
      const i = TABS.findIndex((x) => x.id === cur);
      const n = TABS.length;
      return TABS[(i + (t === 'next' ? 1 : n - 1)) % n]!.id;
    });
  }, []);

  const togglePlay = useCallback(() => {
    if (viewRef.current.snaps.every((s) => s.finished)) { setMessage('at the end of the run (← or g to go back)'); setPlaying(false); return; }
    setPlaying((p) => !p);
  }, []);

  const changeSpeed = useCallback((dir: 1 | -1) => {
    setSpeed((s) => {
      const i = SPEEDS.indexOf(s);
      return SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + dir))]!;
    });
  }, []);

  const setTotal = useCallback((pane: PaneInfo, total: RunTotal) => {
    const i = viewRef.current.panes.indexOf(pane);
    if (i < 0) return;   // a pane of an earlier layout
    setTotals((t) => t.map((x, k) => (k === i ? total : x)));
  }, []);

  const details = useCallback(() => {
    const v = viewRef.current;
    const line = v.session.lines[selectedRef.current]?.line;
    return v.panes.map((pane) => ({
      pane,
      detail: line !== undefined && pane.lines.includes(line) ? pane.engine.detail(line) : null,
    }));
  }, []);

  const state: ExplorerState = { ...view, selected, overlay, tab, playing, speed, message, busy, totals, promptText };
  stateRef.current = state;
  const actions = useMemo<ExplorerActions>(() => ({
    stepBy, goTo, runToEnd, runUntilSelectedIssues, select, toggleVariant, toggleBranches, setIterations,
    switchArch, exportSession, setOverlay, setTab, togglePlay, changeSpeed, setTotal, setMessage, details, setPromptText, live: () => live.current,
  }), [setOverlay, setPromptText, stepBy, goTo, runToEnd, runUntilSelectedIssues, select, toggleVariant, toggleBranches, setIterations,
    switchArch, exportSession, setTab, togglePlay, changeSpeed, setTotal, details]);
  return [state, actions];
}
