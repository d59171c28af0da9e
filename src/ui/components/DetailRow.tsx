import { Box } from 'ink';
import type { LineDetail } from '../../sim/types.js';
import type { ExplorerState } from '../state.js';
import { DetailPane } from './DetailPane.js';
import { PortNameContext } from './PortNameContext.js';
import { portNamer } from '../format.js';
import { paneSession } from '../panes.js';

/** The selected line's detail (Enter), one per pane, side by side. */
export function DetailRow(p: {
  state: ExplorerState;
  details: { detail: LineDetail | null }[];
  paneWidth: number;
  height: number;
}) {
  const { panes, session } = p.state.layout;
  const sel = session.lines[p.state.selected]?.line ?? -1;
  return (
    <Box flexDirection="row">
      {p.details.map((d, i) => {
        const core = paneSession(p.state.layout, panes[i]!);
        const selLine = core.lines[p.state.selected];
        return (
          <Box key={panes[i]!.id} marginRight={i < panes.length - 1 ? 1 : 0}>
            <PortNameContext.Provider value={portNamer(core)}>
              <DetailPane
                width={p.paneWidth}
                height={p.height}
                line={sel}
                detail={d.detail}
                {...(selLine?.figures ? { figures: selLine.figures } : {})}
              />
            </PortNameContext.Provider>
          </Box>
        );
      })}
    </Box>
  );
}
