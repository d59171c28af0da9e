import { useMemo, useRef, type ReactNode } from 'react';
import { Box, Text } from 'ink';
import type { ExplorerProps } from '../types.js';
import { useExplorer } from '../hooks/useExplorer.js';
import { contextOf } from '../controller.js';
import { useTerminalSize } from '../hooks/useTerminalSize.js';
import { measureReason, measureText, useMeasure } from '../hooks/useMeasure.js';
import { computeLayout, minimumSize } from '../layout.js';
import { lineStates } from '../lineStates.js';
import { splitDiff } from '../splitDiff.js';
import { describeDivergence } from '../compare.js';
import { shortVariant } from '../panes.js';
import { fitMessage, wrapWords } from '../format.js';
import { headerLines, rateSoFar } from '../header.js';
import { modelView } from '../modelMenu.js';
import { ThemeContext } from './ThemeContext.js';
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

/** The interactive explorer: header, panes (tabs at 80×24), comparison line, message, footer.
 *  The controller (src/ui/controller.ts) holds the state and does the work; this draws it. */
export function Explorer(props: ExplorerProps) {
  const theme = useMemo(() => ({ color: props.color ?? true }), [props.color]);
  // M: the measurement runs in the background (useMeasure); the keys reach it through a ref
  const measureKeys = useRef({ start: () => {}, dismiss: () => {} });
  const measureShown = useRef<string[]>([]);
  const [state, control] = useExplorer(props, {
    start: () => measureKeys.current.start(),
    dismiss: () => measureKeys.current.dismiss(),
    text: () => measureShown.current,
  });
  const measured = useMeasure(props.measure);
  measureKeys.current = measured;
  const size = useTerminalSize(props.size);
  const { layout: panes } = state;
  const session = panes.session;

  // the measurement (M) on a line of its own below the header, while there is one
  const measure = measureText(
    measured.status,
    {
      runner: props.measure,
      arch: session.arch,
      panes: panes.panes.map((pane, i) => ({
        branch: pane.spec.branch,
        total: state.totals[i]?.blockThroughput ?? null,
      })),
    },
    size.columns,
  );
  // a message that needs a second row takes it from the body
  // the message line: the last action's message, else why the measurement (M) failed
  const why = measureReason(measured.status);
  // the export holds the measurement as shown, with its reason
  measureShown.current = [measure, why].filter((x): x is string => x !== null);
  // up to three rows: a message that names what is missing and what to do (no figures for a
  // core, the sources there are) is read whole, not cut in its middle
  const messageText = fitMessage(state.message || (why ?? ''), Math.max(40, size.columns), 3);
  const messageRows = state.overlay.kind !== 'prompt' ? messageText.split('\n').length : 1;
  const extraRows = messageRows - 1 + (measure ? 1 : 0);
  const layout = computeLayout(
    size.columns,
    size.rows - extraRows,
    panes.panes.length,
    session.lines.length,
    state.tab,
    session.ports.length,
  );
  const states = useMemo(
    () =>
      panes.panes.map((pane, i) => {
        const ls = lineStates(state.snaps[i]!, pane.lines);
        const byLine = new Map(ls.map((x) => [x.line, x]));
        return session.lines.map((l) => byLine.get(l.line) ?? null);
      }),
    [panes, state.snaps, session],
  );
  // a split view marks the figures that differ between its two sides at this cycle
  const diff = useMemo(
    () => (state.snaps.length === 2 ? splitDiff(state.snaps[0]!, state.snaps[1]!) : null),
    [state.snaps],
  );

  const width = layout.columns;
  const ov = state.overlay;
  const least = minimumSize(size.columns, panes.panes.length, session.ports.length);
  if (size.columns < least.columns || size.rows - extraRows < least.rows) {
    return <TooSmall columns={size.columns} rows={size.rows} least={{ ...least, rows: least.rows + extraRows }} />;
  }

  const helpHeight = layout.bodyRows + (layout.mode === 'tabs' ? 1 : 0);
  control.viewport.helpPages = helpLayout(width, helpHeight).pages;
  let body: ReactNode;
  if (ov.kind === 'help') {
    body = <HelpOverlay width={width} height={helpHeight} page={ov.page} />;
  } else if (ov.kind === 'arch') {
    body = (
      <ArchPicker archs={props.archs} current={session.arch} index={ov.index} height={layout.bodyRows} width={width} />
    );
  } else if (ov.kind === 'model') {
    body = (
      <ModelPicker
        mechanisms={panes.mechanisms}
        compareModel={panes.compareModel}
        branches={panes.branches}
        arch={session.arch}
        view={modelView(session, panes.mechanisms)}
        index={ov.index}
        height={layout.bodyRows}
        width={width}
      />
    );
  } else if (ov.kind === 'detail') {
    const selLine = session.lines[state.selected];
    const sel = selLine?.line ?? -1;
    body = (
      <Box flexDirection="row">
        {control.details().map((d, i) => (
          <Box key={panes.panes[i]!.id} marginRight={i < panes.panes.length - 1 ? 1 : 0}>
            <DetailPane
              width={layout.paneWidth}
              height={layout.bodyRows + (layout.mode === 'tabs' ? 1 : 0)}
              line={sel}
              detail={d.detail}
              {...(selLine?.figures ? { figures: selLine.figures } : {})}
            />
          </Box>
        ))}
      </Box>
    );
  } else {
    body = (
      <Box flexDirection="column">
        {layout.mode === 'tabs' && <TabBar active={state.tab} width={width} />}
        <Box flexDirection="row">
          {panes.panes.map((pane, i) => (
            <Box key={pane.id} marginRight={i < panes.panes.length - 1 ? 1 : 0}>
              <PaneColumn
                title={panes.panes.length > 1 ? pane.title : null}
                layout={layout}
                snapshot={state.snaps[i]!}
                lines={session.lines}
                states={states[i]!}
                selected={state.selected}
                ports={session.ports}
                diff={diff}
              />
            </Box>
          ))}
        </Box>
      </Box>
    );
  }

  // up to three lines, so that the reason of a message is never cut off (the body gives way)
  let message: ReactNode = <Text>{messageText || ' '}</Text>;
  if (ov.kind === 'prompt') message = <NumberPrompt what={ov.what} text={ov.text} fresh={ov.fresh} width={width} />;

  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={width} height={layout.rows - 1 + extraRows}>
        <Header width={width} lines={headerLines(state, width)} measure={measure} />
        {panes.panes.length > 1 && (
          <ComparisonBar
            width={width}
            divergence={describeDivergence(state.divergence)}
            panes={panes.panes.map((p, i) => ({
              title:
                panes.branches || panes.compareModel
                  ? p.title.replace(/ \(.*\)$/, '')
                  : i === 0
                    ? 'baseline'
                    : shortVariant(panes.variants),
              // the header's rate: cycles per complete iteration
              throughput: simulatesNothing(state.snaps[i]!.stats) ? NaN : rateSoFar(state.snaps[i]!),
              final: simulatesNothing(state.snaps[i]!.stats) ? NaN : (state.totals[i]?.blockThroughput ?? null),
            }))}
          />
        )}
        <Box flexGrow={1} flexDirection="column" overflowY="hidden">
          {body}
        </Box>
        <Box>{message}</Box>
        <Footer width={width} compact={layout.compact} context={contextOf(ov)} tabs={layout.mode === 'tabs'} />
      </Box>
    </ThemeContext.Provider>
  );
}

/** Instead of panes drawn over each other: what size the screen needs (the keys still work). */
function TooSmall(p: { columns: number; rows: number; least: { columns: number; rows: number } }) {
  const text = `terminal too small: need at least ${p.least.columns}×${p.least.rows} (this one is ${p.columns}×${p.rows}); enlarge it, or q quits`;
  const rows = wrapWords(text, Math.max(1, p.columns)).slice(0, Math.max(1, p.rows - 1));
  return (
    <Box flexDirection="column">
      {rows.map((r, i) => (
        <Text key={i}>{r}</Text>
      ))}
    </Box>
  );
}
