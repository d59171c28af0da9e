import { useMemo } from 'react';
import { Box } from 'ink';
import type { Layout } from '../layout.js';
import type { ExplorerState } from '../state.js';
import { lineStates } from '../lineStates.js';
import { splitDiff } from '../splitDiff.js';
import { comparesCores, paneSession } from '../panes.js';
import { TabBar } from './TabBar.js';
import { PaneColumn } from './PaneColumn.js';
import { portNamer } from '../format.js';

/** The panes side by side, below the tab bar when the screen shows one section at a time. */
export function PaneRow({ state, layout }: { state: ExplorerState; layout: Layout }) {
  const { panes, session } = state.layout;
  // each pane's state of every line of the region (null: the pane does not run that line)
  const states = useMemo(
    () =>
      panes.map((pane, i) => {
        const ls = lineStates(state.snaps[i]!, pane.lines);
        const byLine = new Map(ls.map((x) => [x.line, x]));
        return session.lines.map((l) => byLine.get(l.line) ?? null);
      }),
    [panes, state.snaps, session],
  );
  // a split view marks the figures that differ between its two sides at this cycle
  // (two cores: their ports are not the same ports, so only the figures per line and instance)
  const cores = comparesCores(state.layout);
  const diff = useMemo(
    () => (state.snaps.length === 2 ? splitDiff(state.snaps[0]!, state.snaps[1]!, { ports: !cores }) : null),
    [state.snaps, cores],
  );
  return (
    <Box flexDirection="column">
      {layout.mode === 'tabs' && <TabBar active={state.tab} width={layout.columns} />}
      <Box flexDirection="row">
        {panes.map((pane, i) => {
          // each pane its core's: the figures' sources (a line without figures there is marked
          // on that side) and the ports as that core names them
          const core = paneSession(state.layout, pane);
          return (
            <Box key={pane.id} marginRight={i < panes.length - 1 ? 1 : 0}>
              <PaneColumn
                title={panes.length > 1 ? pane.title : null}
                layout={layout}
                snapshot={state.snaps[i]!}
                lines={core.lines}
                states={states[i]!}
                selected={state.selected}
                ports={core.ports}
                portName={portNamer(core)}
                diff={diff}
              />
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
