import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { Box, Text, useInput } from 'ink';
import type { ExplorerProps } from '../types.js';
import { contextOf, useExplorer, useKeyContext, type ExplorerControl, type ExplorerState } from '../hooks/useExplorer.js';
import { detailsAt } from '../state.js';
import { usePlayback } from '../hooks/usePlayback.js';
import { useDivergence } from '../hooks/useDivergence.js';
import { useTotals } from '../hooks/useTotals.js';
import { useTerminalSize } from '../hooks/useTerminalSize.js';
import { measureReason, measureText, useMeasure } from '../hooks/useMeasure.js';
import { computeLayout } from '../layout.js';
import { lineStates } from '../lineStates.js';
import { describeDivergence, type Divergence } from '../compare.js';
import { exportText } from '../exportText.js';
import { buildPanes, shortVariant, variantLabel } from '../panes.js';
import { fitMessage } from '../format.js';
import { simulatesNothing } from '../../sim/stats.js';
import { Header } from './Header.js';
import { Footer } from './Footer.js';
import { TabBar } from './TabBar.js';
import { PaneColumn } from './PaneColumn.js';
import { ComparisonBar } from './ComparisonBar.js';
import { DetailPane } from './DetailPane.js';
import { HelpOverlay, helpLayout } from './HelpOverlay.js';
import { NumberPrompt } from './NumberPrompt.js';
import { ArchPicker } from './ArchPicker.js';
import { ModelPicker } from './ModelPicker.js';
import { mechanismKey, mechanismLabel } from '../../sim/mechanisms.js';

/** The interactive explorer: header, panes (tabs at 80×24), comparison line, message, footer. */
export function Explorer(props: ExplorerProps) {
  const color = props.color ?? true;
  const divRef = useRef<Divergence | undefined>(undefined);
  // the export: the displayed state, its divergence and the detail at the displayed cycle
  const makeExport = useCallback((s: ExplorerState) => exportText(s, {
    divergence: divRef.current,
    details: detailsAt(s).map((d) => ({ title: d.pane.title, detail: d.detail })),
  }), []);
  // M: the measurement runs in the background (useMeasure); the key reaches it through a ref
  const startMeasure = useRef<() => void>(() => {});
  const [state, control]: [ExplorerState, ExplorerControl] = useExplorer(props, makeExport, () => startMeasure.current());
  const measured = useMeasure(props.measure);
  startMeasure.current = measured.start;
  const { ops, router } = control;
  const size = useTerminalSize(props.size);
  // Ctrl-C quits from anywhere; this handler is always active, so Ink's raw mode stays on while
  // the overlays' handlers come and go
  useInput((input, key) => { if (key.ctrl && input === 'c') ops.quit('interrupt'); });
  const ctx = contextOf(state.overlay);
  useKeyContext(router, 'explorer', ctx === 'explorer');
  const stepBy = useCallback((n: number) => ops.step(n), [ops]);
  usePlayback(state.playing, state.speed, stepBy);

  // the run's length and where two panes part: in the background
  const panesKey = `${state.session.arch}|${state.iterations}|${[...state.variants].sort().join(',')}|${state.branches}|${mechanismKey(state.mechanisms)}|${state.compareModel}`;
  useTotals(panesKey, state.panes, state.iterations, state.session.offload, control.setTotal);
  const divergence = useDivergence(panesKey, state.panes.length === 2 && !state.branches ? {
    a: state.panes[0]!.spec, b: state.panes[1]!.spec, iterations: state.iterations,
    make: () => {
      const fresh = buildPanes(state.session, { variants: state.variants, branches: state.branches, iterations: state.iterations, mechanisms: state.mechanisms, compareModel: state.compareModel });
      return [fresh[0]!.engine, fresh[1]!.engine];
    },
  } : null, state.session.offload);
  divRef.current = divergence;

  // a message that needs a second row takes it from the body
  // the message line: the last action's message, else why the measurement (M) failed
  const messageText = fitMessage(state.message || (measureReason(measured.status) ?? ''), Math.max(40, size.columns));
  const messageRows = state.overlay.kind !== 'prompt' && messageText.includes('\n') ? 2 : 1;
  const layout = computeLayout(size.columns, size.rows - (messageRows - 1), state.panes.length, state.session.lines.length, state.tab);
  const states = useMemo(() => state.panes.map((pane, i) => {
    const ls = lineStates(state.snaps[i]!, pane.lines);
    const byLine = new Map(ls.map((x) => [x.line, x]));
    return state.session.lines.map((l) => byLine.get(l.line) ?? null);
  }), [state.panes, state.snaps, state.session]);

  const primary = state.snaps[0]!;
  const total = state.totals.every((t) => t !== null) ? Math.max(...state.totals.map((t) => t!.cycles)) : null;
  const width = layout.columns;
  const ov = state.overlay;

  const helpHeight = layout.bodyRows + (layout.mode === 'tabs' ? 1 : 0);
  control.viewport.helpPages = helpLayout(width, helpHeight).pages;
  let body: ReactNode;
  if (ov.kind === 'help') {
    body = <HelpOverlay width={width} height={helpHeight} page={ov.page} />;
  } else if (ov.kind === 'arch') {
    body = (
      <ArchPicker archs={props.archs} current={state.session.arch} index={ov.index} height={layout.bodyRows}
        width={width} color={color} router={router} />
    );
  } else if (ov.kind === 'model') {
    body = (
      <ModelPicker mechanisms={state.mechanisms} compareModel={state.compareModel} index={ov.index} height={layout.bodyRows}
        width={width} color={color} router={router} />
    );
  } else if (ov.kind === 'detail') {
    const selLine = state.session.lines[state.selected];
    const sel = selLine?.line ?? -1;
    body = (
      <Box flexDirection="row">
        {detailsAt(state).map((d, i) => (
          <Box key={d.pane.id} marginRight={i < state.panes.length - 1 ? 1 : 0}>
            <DetailPane width={layout.paneWidth} height={layout.bodyRows + (layout.mode === 'tabs' ? 1 : 0)} line={sel} detail={d.detail} {...(selLine?.figures ? { figures: selLine.figures } : {})} />
          </Box>
        ))}
      </Box>
    );
  } else {
    body = (
      <Box flexDirection="column">
        {layout.mode === 'tabs' && <TabBar active={state.tab} width={width} />}
        <Box flexDirection="row">
          {state.panes.map((pane, i) => (
            <Box key={pane.id} marginRight={i < state.panes.length - 1 ? 1 : 0}>
              <PaneColumn title={state.panes.length > 1 ? pane.title : null} layout={layout} color={color}
                snapshot={state.snaps[i]!} lines={state.session.lines} states={states[i]!} selected={state.selected}
                ports={state.session.ports} />
            </Box>
          ))}
        </Box>
      </Box>
    );
  }

  // up to two lines, so that the reason of a message is never cut off (the body gives way)
  let message: ReactNode = <Text>{messageText || ' '}</Text>;
  if (ov.kind === 'prompt') {
    message = <NumberPrompt what={ov.what} text={ov.text} fresh={ov.fresh} width={width} router={router} />;
  }

  return (
    <Box flexDirection="column" width={width} height={layout.rows - 1 + (messageRows - 1)}>
      <Header width={width} color={color} file={state.session.file} region={state.session.region}
        arch={state.session.arch} archName={state.session.archName} model={mechanismLabel(state.mechanisms)} iterations={state.iterations}
        variants={state.branches ? `jump at line ${state.session.branches?.branchLine}` : variantLabel(state.variants)}
        branches={state.branches} cycle={state.cycle} total={total} throughput={primary.stats.blockThroughput}
        completed={primary.stats.iterationsCompleted} nothingSimulated={simulatesNothing(primary.stats)}
        finished={state.snaps.every((s) => s.finished)} playing={state.playing} speed={state.speed} busy={state.busy}
        missing={state.session.lines.filter((l) => l.origin === 'none').length}
        measure={measureText(measured.status, {
          runner: props.measure, arch: state.session.arch,
          panes: state.panes.map((pane, i) => ({ branch: pane.spec.branch, total: state.totals[i]?.blockThroughput ?? null })),
        })} />
      {state.panes.length > 1 && (
        <ComparisonBar width={width} color={color} divergence={describeDivergence(divergence)}
          panes={state.panes.map((p, i) => ({
            title: state.branches || state.compareModel ? p.title.replace(/ \(.*\)$/, '') : i === 0 ? 'baseline' : shortVariant(state.variants), throughput: simulatesNothing(state.snaps[i]!.stats) ? NaN : state.snaps[i]!.stats.blockThroughput,
            final: simulatesNothing(state.snaps[i]!.stats) ? NaN : state.totals[i]?.blockThroughput ?? null,
          }))} />
      )}
      <Box flexGrow={1} flexDirection="column" overflowY="hidden">{body}</Box>
      <Box>{message}</Box>
      <Footer width={width} compact={layout.compact} color={color} context={ctx} />
    </Box>
  );
}
