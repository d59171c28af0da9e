// Where things go for a terminal of `columns` × `rows`: at 80×24 the panes collapse into tabs,
// larger terminals show every section at once; several panes (variants, branches) split the
// width. Pure: recomputed on every resize.
import type { TabId } from './types.js';

export interface Section {
  tab: TabId;
  rows: number;
}

export interface Layout {
  columns: number;
  rows: number;
  mode: 'tabs' | 'grid';
  /** width of one pane column (panes are separated by one column) */
  paneWidth: number;
  /** rows for the body (below the header, tab bar and comparison line, above message + footer) */
  bodyRows: number;
  /** sections shown in each pane: one (the active tab) in tabs mode, all in grid mode */
  sections: Section[];
  /** two section columns inside a pane (wide grid) */
  twoColumns: boolean;
  compact: boolean; // footer abbreviated
}

export const HEADER_ROWS = 2;
export const FOOTER_ROWS = 1;
export const MESSAGE_ROWS = 1;

/** Rows the ports section needs: title, port names, µop now, count, bar, divider, ready, front end. */
export const PORTS_ROWS = 8;

export function computeLayout(
  columns: number,
  rows: number,
  paneCount: number,
  programLines: number,
  activeTab: TabId,
): Layout {
  const cols = Math.max(40, columns);
  const rws = Math.max(12, rows);
  const panes = Math.max(1, paneCount);
  const paneWidth = Math.max(20, Math.floor((cols - (panes - 1)) / panes));
  const compareRows = panes > 1 ? 2 : 0; // comparison line + pane titles
  // keep the whole frame one row shorter than the terminal (Ink redraws without clearing then)
  const chrome = HEADER_ROWS + compareRows + MESSAGE_ROWS + FOOTER_ROWS + 1;
  const wantProgram = Math.min(programLines + 2, 18);
  const wantStats = Math.min(programLines + 3, 16);
  const minRs = 6;
  const twoColumns = paneWidth >= 150;
  const gridBody = rws - chrome;
  if (twoColumns) {
    // left: program over statistics; right: reservation station over ports
    const left = wantProgram + wantStats;
    const right = minRs + PORTS_ROWS;
    if (gridBody >= Math.max(left, right)) {
      const rsRows = gridBody - PORTS_ROWS;
      const statsRows = gridBody - wantProgram;
      return {
        columns: cols,
        rows: rws,
        mode: 'grid',
        paneWidth,
        bodyRows: gridBody,
        twoColumns: true,
        compact: cols < 100,
        sections: [
          { tab: 'program', rows: wantProgram },
          { tab: 'stats', rows: statsRows },
          { tab: 'rs', rows: rsRows },
          { tab: 'ports', rows: PORTS_ROWS },
        ],
      };
    }
  }
  const stacked = wantProgram + minRs + PORTS_ROWS + Math.min(wantStats, 8);
  if (paneWidth >= 60 && gridBody >= stacked) {
    const extra = gridBody - stacked;
    const statsRows = Math.min(wantStats, 8 + Math.floor(extra / 2));
    const rsRows = gridBody - wantProgram - PORTS_ROWS - statsRows;
    return {
      columns: cols,
      rows: rws,
      mode: 'grid',
      paneWidth,
      bodyRows: gridBody,
      twoColumns: false,
      compact: cols < 100,
      sections: [
        { tab: 'program', rows: wantProgram },
        { tab: 'rs', rows: rsRows },
        { tab: 'ports', rows: PORTS_ROWS },
        { tab: 'stats', rows: statsRows },
      ],
    };
  }
  const bodyRows = rws - chrome - 1; // one row for the tab bar
  // small terminals: the program stays on top when the active tab still fits below it
  const programRows = Math.min(wantProgram, Math.floor(bodyRows / 2));
  const belowRows = bodyRows - programRows;
  if (activeTab !== 'program' && programRows >= 4 && belowRows >= PORTS_ROWS) {
    return {
      columns: cols,
      rows: rws,
      mode: 'tabs',
      paneWidth,
      bodyRows,
      twoColumns: false,
      compact: cols < 100,
      sections: [
        { tab: 'program', rows: programRows },
        { tab: activeTab, rows: belowRows },
      ],
    };
  }
  return {
    columns: cols,
    rows: rws,
    mode: 'tabs',
    paneWidth,
    bodyRows,
    twoColumns: false,
    compact: cols < 100,
    sections: [{ tab: activeTab, rows: bodyRows }],
  };
}

/** First row to show so that `selected` stays visible in a window of `height` rows over `count`. */
export function scrollStart(selected: number, count: number, height: number): number {
  if (count <= height || height <= 0) return 0;
  const half = Math.floor(height / 2);
  return Math.max(0, Math.min(count - height, selected - half));
}
