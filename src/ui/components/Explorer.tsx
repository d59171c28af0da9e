import { useMemo } from 'react';
import { Box, Text } from 'ink';
import type { ExplorerProps } from '../types.js';
import type { ExplorerState } from '../state.js';
import { useMeasuredExplorer } from '../hooks/useMeasuredExplorer.js';
import { contextOf } from '../controller.js';
import { useTerminalSize } from '../hooks/useTerminalSize.js';
import { explorerFrame } from '../frame.js';
import { describeDivergence } from '../compare.js';
import { paneName } from '../panes.js';
import { headerLines, rateSoFar } from '../header.js';
import { ThemeContext } from './ThemeContext.js';
import { simulatesNothing } from '../../sim/stats.js';
import { Header } from './Header.js';
import { Footer } from './Footer.js';
import { ComparisonBar, type ComparisonBarProps } from './ComparisonBar.js';
import { ExplorerBody } from './ExplorerBody.js';
import { helpLayout } from './HelpOverlay.js';
import { notesLayout } from './ModelPicker.js';
import { modelView } from '../modelMenu.js';
import { NumberPrompt } from './NumberPrompt.js';
import { TooSmall } from './TooSmall.js';

/** The interactive explorer: header, panes (tabs at 80×24), comparison line, message, footer.
 *  The controller (src/ui/controller.ts) holds the state and does the work; this draws it. */
export function Explorer(props: ExplorerProps) {
  const theme = useMemo(() => ({ color: props.color ?? true }), [props.color]);
  const { state, control, measured, shown } = useMeasuredExplorer(props);
  const size = useTerminalSize(props.size);
  const frame = explorerFrame(state, size, measured.status, props.measure);
  // the export holds the measurement as shown, with its reason
  shown.current = [frame.measure, frame.why].filter((x): x is string => x !== null);
  if (frame.tooSmall) return <TooSmall columns={size.columns} rows={size.rows} least={frame.tooSmall} />;

  const { layout } = frame;
  const width = layout.columns;
  const ov = state.overlay;
  control.viewport.helpPages = helpLayout(width, frame.overlayRows).pages;
  // the model's notes in full (n in the model menu) take pages of the body's rows
  const { session, mechanisms } = state.layout;
  const notePages =
    ov.kind === 'model' ? notesLayout(modelView(session, mechanisms).notes, width, layout.bodyRows).pages : 1;
  control.viewport.notePages = notePages;
  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={width} height={layout.rows - 1 + frame.extraRows}>
        <Header width={width} lines={headerLines(state, width)} measure={frame.measure} />
        {state.layout.panes.length > 1 && (
          <ComparisonBar width={width} divergence={describeDivergence(state.divergence)} panes={comparedPanes(state)} />
        )}
        <Box flexGrow={1} flexDirection="column" overflowY="hidden">
          <ExplorerBody state={state} control={control} frame={frame} archs={props.archs} />
        </Box>
        {/* up to three lines, so that the reason of a message is never cut off (the body gives way) */}
        <Box>
          {ov.kind === 'prompt' ? (
            <NumberPrompt what={ov.what} text={ov.text} fresh={ov.fresh} width={width} />
          ) : (
            <Text>{frame.messageText || ' '}</Text>
          )}
        </Box>
        <Footer
          width={width}
          compact={layout.compact}
          context={contextOf(ov)}
          tabs={layout.mode === 'tabs'}
          pages={notePages}
        />
      </Box>
    </ThemeContext.Provider>
  );
}

/** The comparison line's panes: each one's name and its cycles per iteration so far and in all. */
function comparedPanes(state: ExplorerState): ComparisonBarProps['panes'] {
  return state.layout.panes.map((_, i) => {
    const snap = state.snaps[i]!;
    const nothing = simulatesNothing(snap.stats);
    return {
      title: paneName(state.layout, i),
      // the header's rate: cycles per complete iteration
      throughput: nothing ? NaN : rateSoFar(snap),
      final: nothing ? NaN : (state.totals[i]?.blockThroughput ?? null),
    };
  });
}
