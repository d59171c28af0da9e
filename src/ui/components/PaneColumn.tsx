import { Box, Text } from 'ink';
import type { Snapshot } from '../../sim/types.js';
import type { Layout, Section } from '../layout.js';
import type { LineState } from '../lineStates.js';
import { fit } from '../format.js';
import { ProgramPane } from './ProgramPane.js';
import { RsPane } from './RsPane.js';
import { PortsPane } from './PortsPane.js';
import { StatsPane } from './StatsPane.js';
import type { SplitDiff } from '../splitDiff.js';
import { numberedPort, type PortName } from '../format.js';
import { PortNameContext } from './PortNameContext.js';

interface PaneColumnProps {
  title: string | null; // shown when several panes are side by side
  layout: Layout;
  snapshot: Snapshot;
  lines: { line: number; asm: string }[];
  states: (LineState | null)[];
  selected: number;
  ports: number[];
  /** how this pane's core names its ports (absent: by number) */
  portName?: PortName;
  /** in a split view: the figures that differ between the two sides at this cycle (marked ▸) */
  diff?: SplitDiff | null;
}

function SectionView(p: PaneColumnProps & { section: Section; width: number }) {
  const sel = p.lines[p.selected]?.line ?? null;
  switch (p.section.tab) {
    case 'program':
      return (
        <ProgramPane
          width={p.width}
          height={p.section.rows}
          lines={p.lines}
          states={p.states}
          selected={p.selected}
          fusedPairs={p.snapshot.frontEnd.fusedPairs}
          diff={p.diff?.program ?? null}
        />
      );
    case 'rs':
      return (
        <RsPane
          width={p.width}
          height={p.section.rows}
          snapshot={p.snapshot}
          selectedLine={sel}
          diff={p.diff?.rs ?? null}
        />
      );
    case 'ports':
      return (
        <PortsPane
          width={p.width}
          snapshot={p.snapshot}
          diff={p.diff?.ports ?? null}
          dividerDiffers={p.diff?.divider ?? false}
          readyDiffers={p.diff?.ready ?? false}
        />
      );
    case 'stats':
      return (
        <StatsPane
          width={p.width}
          height={p.section.rows}
          stats={p.snapshot.stats}
          portUops={p.snapshot.ports}
          ports={p.ports}
          selectedLine={sel}
          diff={p.diff ?? null}
        />
      );
  }
}

/** One engine's view: its sections stacked (or the active tab), in `layout.paneWidth` columns,
 *  its ports named as its core names them. */
export function PaneColumn(p: PaneColumnProps) {
  return (
    <PortNameContext.Provider value={p.portName ?? numberedPort}>
      <Columns {...p} />
    </PortNameContext.Provider>
  );
}

function Columns(p: PaneColumnProps) {
  const w = p.layout.paneWidth;
  const title =
    p.title !== null ? (
      <Text bold inverse>
        {fit(` ${p.title}`, w)}
      </Text>
    ) : null;
  if (p.layout.twoColumns) {
    const half = Math.floor((w - 1) / 2);
    const split = p.layout.leftSections ?? 2;
    const leftColumn = p.layout.sections.slice(0, split);
    const rightColumn = p.layout.sections.slice(split);
    return (
      <Box flexDirection="column" width={w}>
        {title}
        <Box flexDirection="row">
          <Box flexDirection="column" width={half} marginRight={1}>
            {leftColumn.map((s) => (
              <Box key={s.tab} height={s.rows} flexDirection="column" overflowY="hidden">
                <SectionView {...p} section={s} width={half} />
              </Box>
            ))}
          </Box>
          <Box flexDirection="column" width={w - half - 1}>
            {rightColumn.map((s) => (
              <Box key={s.tab} height={s.rows} flexDirection="column" overflowY="hidden">
                <SectionView {...p} section={s} width={w - half - 1} />
              </Box>
            ))}
          </Box>
        </Box>
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={w}>
      {title}
      {p.layout.sections.map((s) => (
        <Box key={s.tab} height={s.rows} flexDirection="column" overflowY="hidden">
          <SectionView {...p} section={s} width={w} />
        </Box>
      ))}
    </Box>
  );
}
