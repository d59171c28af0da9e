import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { Box, Text } from 'ink';
import type { ExplorerProps, QuitHow } from '../types.js';
import { useExplorer, type ExplorerActions, type ExplorerState } from '../hooks/useExplorer.js';
import { useKeys } from '../hooks/useKeys.js';
import { usePlayback } from '../hooks/usePlayback.js';
import { useDivergence } from '../hooks/useDivergence.js';
import { useTotals } from '../hooks/useTotals.js';
import { useTerminalSize } from '../hooks/useTerminalSize.js';
import { computeLayout } from '../layout.js';
import { lineStates } from '../lineStates.js';
import { describeDivergence, type Divergence } from '../compare.js';
import { exportText } from '../exportText.js';
import { buildPanes, shortVariant, variantLabel } from '../panes.js';
import { clip } from '../format.js';
import { simulatesNothing } from '../../sim/stats.js';
import { Header } from './Header.js';
import { Footer } from './Footer.js';
import { TabBar } from './TabBar.js';
import { PaneColumn } from './PaneColumn.js';
import { ComparisonBar } from './ComparisonBar.js';
import { DetailPane } from './DetailPane.js';
import { HelpOverlay } from './HelpOverlay.js';
import { NumberPrompt } from './NumberPrompt.js';
import { ArchPicker } from './ArchPicker.js';

/** The interactive explorer: header, panes (tabs at 80×24), comparison line, message, footer. */
export function Explorer(props: ExplorerProps) {
  const color = props.color ?? true;
  const divRef = useRef<Divergence | undefined>(undefined);
  const actionsRef = useRef<ExplorerActions | null>(null);
  const makeExport = useCallback((s: ExplorerState) => exportText(s, {
    divergence: divRef.current,
    details: (actionsRef.current?.details() ?? []).map((d) => ({ title: d.pane.title, detail: d.detail })),
  }), []);
  const [state, actions] = useExplorer(props, makeExport);
  actionsRef.current = actions;
  const size = useTerminalSize(props.size);
  const quit = useCallback((how: QuitHow) => { props.onQuit?.(how); }, [props]);
  useKeys(state, actions, quit);
  usePlayback(state.playing, state.speed, actions.stepBy);

  // the run's length and where two panes part: in the background
  const panesKey = `${state.session.arch}|${state.iterations}|${[...state.variants].sort().join(',')}|${state.branches}`;
  useTotals(panesKey, state.panes, state.iterations, state.session.offload, actions.setTotal);
  const divergence = useDivergence(panesKey, state.panes.length === 2 && !state.branches ? {
    a: state.panes[0]!.spec, b: state.panes[1]!.spec, iterations: state.iterations,
    make: () => {
      const fresh = buildPanes(state.session, { variants: state.variants, branches: state.branches, iterations: state.iterations });
      return [fresh[0]!.engine, fresh[1]!.engine];
    },
  } : null, state.session.offload);
  divRef.current = divergence;

  const layout = computeLayout(size.columns, size.rows, state.panes.length, state.session.lines.length, state.tab);
  const states = useMemo(() => state.panes.map((pane, i) => {
    const ls = lineStates(state.snaps[i]!, pane.lines);
    const byLine = new Map(ls.map((x) => [x.line, x]));
    return state.session.lines.map((l) => byLine.get(l.line) ?? null);
  }), [state.panes, state.snaps, state.session]);

  const primary = state.snaps[0]!;
  const total = state.totals.every((t) => t !== null) ? Math.max(...state.totals.map((t) => t!.cycles)) : null;
  const width = layout.columns;
  const ov = state.overlay;

  let body: ReactNode;
  if (ov.kind === 'help') {
    body = <HelpOverlay width={width} height={layout.bodyRows + (layout.mode === 'tabs' ? 1 : 0)} />;
  } else if (ov.kind === 'arch') {
    body = (
      <ArchPicker archs={props.archs} current={state.session.arch} height={layout.bodyRows}
        onPick={(a) => { actions.setOverlay({ kind: 'none' }); void actions.switchArch(a); }}
        onCancel={() => actions.setOverlay({ kind: 'none' })} />
    );
  } else if (ov.kind === 'detail') {
    const sel = state.session.lines[state.selected]?.line ?? -1;
    body = (
      <Box flexDirection="row">
        {actions.details().map((d, i) => (
          <Box key={d.pane.id} marginRight={i < state.panes.length - 1 ? 1 : 0}>
            <DetailPane width={layout.paneWidth} height={layout.bodyRows + (layout.mode === 'tabs' ? 1 : 0)} line={sel} detail={d.detail} />
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

  let message: ReactNode = <Text>{clip(state.message, width) || ' '}</Text>;
  if (ov.kind === 'prompt') {
    message = <NumberPrompt label={ov.what === 'goto' ? 'go to cycle' : 'iterations'} text={state.promptText} />;
  }

  return (
    <Box flexDirection="column" width={width} height={layout.rows - 1}>
      <Header width={width} color={color} file={state.session.file} region={state.session.region}
        arch={state.session.arch} archName={state.session.archName} iterations={state.iterations}
        variants={state.branches ? `jump at line ${state.session.branches?.branchLine}` : variantLabel(state.variants)}
        branches={state.branches} cycle={state.cycle} total={total} throughput={primary.stats.blockThroughput}
        completed={primary.stats.iterationsCompleted} nothingSimulated={simulatesNothing(primary.stats)}
        finished={state.snaps.every((s) => s.finished)} playing={state.playing} speed={state.speed} busy={state.busy} />
      {state.panes.length > 1 && (
        <ComparisonBar width={width} color={color} divergence={describeDivergence(divergence)}
          panes={state.panes.map((p, i) => ({
            title: state.branches ? p.title.replace(/ \(.*\)$/, '') : i === 0 ? 'baseline' : shortVariant(state.variants), throughput: simulatesNothing(state.snaps[i]!.stats) ? NaN : state.snaps[i]!.stats.blockThroughput,
            final: simulatesNothing(state.snaps[i]!.stats) ? NaN : state.totals[i]?.blockThroughput ?? null,
          }))} />
      )}
      <Box flexGrow={1} flexDirection="column" overflowY="hidden">{body}</Box>
      <Box>{message}</Box>
      <Footer width={width} compact={layout.compact} color={color} />
    </Box>
  );
}
