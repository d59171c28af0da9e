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
  /** with twoColumns: how many of `sections` (from the first) are in the left column */
  leftSections?: number;
  compact: boolean; // footer abbreviated
}

const HEADER_ROWS = 2;
const FOOTER_ROWS = 1;
const MESSAGE_ROWS = 1;

/** Rows the ports section needs: title, port names, µop now, count, bar, divider, ready, front end. */
const PORTS_ROWS = 8;

/** Columns a port's cell takes at least: a count (`999`, `12k`, `1.2M`) or `L3#…`, and a space. */
const PORT_CELL_MIN = 5;

/**
 * How the ports of a pane `width` columns wide are laid out: in one band when every port's cell
 * has room for a count, else in as few bands (rows of ports, each with its names, µops now,
 * counts and bars) as give every cell that room; a count is never cut or rounded to nothing.
 */
export function portBands(width: number, ports: number): { bands: number; perBand: number; cellWidth: number } {
  const n = Math.max(1, ports);
  const fit = Math.max(1, Math.floor(width / PORT_CELL_MIN));
  const bands = Math.ceil(n / fit);
  const perBand = Math.ceil(n / bands);
  return { bands, perBand, cellWidth: Math.max(3, Math.floor(width / perBand)) };
}

/** Rows the ports section needs in a pane `width` columns wide (PORTS_ROWS with one band). */
function portsRows(width: number, ports: number): number {
  return PORTS_ROWS + 4 * (portBands(width, ports).bands - 1);
}

/** Columns below which the explorer does not draw its panes (the header and footer need them). */
const MIN_COLUMNS = 60;

/**
 * The smallest terminal the explorer draws in, for `paneCount` panes of `portCount` ports at
 * `columns` columns (at least MIN_COLUMNS): the tab bar and the tallest section, the ports (in
 * bands on narrow panes), below the header, comparison line, message and footer. Smaller, the
 * screen says so instead of drawing sections over each other.
 */
export function minimumSize(columns: number, paneCount: number, portCount: number): { columns: number; rows: number } {
  const cols = Math.max(MIN_COLUMNS, columns);
  const panes = Math.max(1, paneCount);
  const paneWidth = Math.floor((cols - (panes - 1)) / panes);
  const chrome = HEADER_ROWS + (panes > 1 ? 2 : 0) + MESSAGE_ROWS + FOOTER_ROWS + 1;
  return { columns: MIN_COLUMNS, rows: chrome + 1 + portsRows(paneWidth, portCount) };
}

/** Rows the reservation station's section takes at least in the grid. */
const MIN_RS_ROWS = 6;

/** What every arrangement starts from: the terminal (at least 40×12), the width of one pane,
 *  the rows the ports need and the rows the program and the statistics want. */
interface Room {
  cols: number;
  rws: number;
  paneWidth: number;
  portRows: number;
  /** the rows between the header (and comparison line) and the message, with no tab bar */
  gridBody: number;
  wantProgram: number;
  wantStats: number;
}

function roomFor(columns: number, rows: number, paneCount: number, programLines: number, portCount: number): Room {
  const cols = Math.max(40, columns);
  const rws = Math.max(12, rows);
  const panes = Math.max(1, paneCount);
  const paneWidth = Math.max(20, Math.floor((cols - (panes - 1)) / panes));
  const compareRows = panes > 1 ? 2 : 0; // comparison line + pane titles
  // keep the whole frame one row shorter than the terminal (Ink redraws without clearing then)
  const chrome = HEADER_ROWS + compareRows + MESSAGE_ROWS + FOOTER_ROWS + 1;
  return {
    cols,
    rws,
    paneWidth,
    portRows: portsRows(paneWidth, portCount),
    gridBody: rws - chrome,
    wantProgram: Math.min(programLines + 2, 18),
    wantStats: Math.min(programLines + 3, 16),
  };
}

function arranged(room: Room, mode: Layout['mode'], bodyRows: number, sections: Section[], twoColumns = false): Layout {
  const { cols, rws, paneWidth } = room;
  return { columns: cols, rows: rws, mode, paneWidth, bodyRows, twoColumns, compact: cols < 100, sections };
}

/** Panes of 150 columns and more: program over statistics on the left, reservation station
 *  over ports on the right, when both columns have their rows; the ports under the statistics,
 *  and the station alone on the right, when the left column has their rows too (a short loop's
 *  program and statistics would otherwise leave most of the left column empty). */
function twoColumnGrid(room: Room): Layout | null {
  const { paneWidth, gridBody, wantProgram, wantStats, portRows } = room;
  if (paneWidth < 150 || gridBody < Math.max(wantProgram + wantStats, MIN_RS_ROWS + portRows)) return null;
  if (wantProgram + wantStats + portRows <= gridBody) {
    const left: Section[] = [
      { tab: 'program', rows: wantProgram },
      { tab: 'stats', rows: wantStats },
      { tab: 'ports', rows: gridBody - wantProgram - wantStats },
    ];
    return { ...arranged(room, 'grid', gridBody, [...left, { tab: 'rs', rows: gridBody }], true), leftSections: 3 };
  }
  const sections: Section[] = [
    { tab: 'program', rows: wantProgram },
    { tab: 'stats', rows: gridBody - wantProgram },
    { tab: 'rs', rows: gridBody - portRows },
    { tab: 'ports', rows: portRows },
  ];
  return arranged(room, 'grid', gridBody, sections, true);
}

/** Panes of 60 columns and more with the rows for every section: all of them, one below another
 *  (the statistics take half of the rows to spare, up to what they want). */
function stackedGrid(room: Room): Layout | null {
  const { paneWidth, gridBody, wantProgram, wantStats, portRows } = room;
  const stacked = wantProgram + MIN_RS_ROWS + portRows + Math.min(wantStats, 8);
  if (paneWidth < 60 || gridBody < stacked) return null;
  const statsRows = Math.min(wantStats, 8 + Math.floor((gridBody - stacked) / 2));
  const sections: Section[] = [
    { tab: 'program', rows: wantProgram },
    { tab: 'rs', rows: gridBody - wantProgram - portRows - statsRows },
    { tab: 'ports', rows: portRows },
    { tab: 'stats', rows: statsRows },
  ];
  return arranged(room, 'grid', gridBody, sections);
}

/** Small terminals: one tab at a time below a tab bar; the program stays on top when the active
 *  tab still fits below it (the ports, in several bands on a narrow pane, take the rows they need
 *  from the program). */
function tabbed(room: Room, activeTab: TabId): Layout {
  const bodyRows = room.gridBody - 1; // one row for the tab bar
  const belowNeed = activeTab === 'ports' ? room.portRows : PORTS_ROWS;
  const programRows = Math.min(room.wantProgram, Math.floor(bodyRows / 2), bodyRows - belowNeed);
  if (activeTab !== 'program' && programRows >= 4) {
    const sections: Section[] = [
      { tab: 'program', rows: programRows },
      { tab: activeTab, rows: bodyRows - programRows },
    ];
    return arranged(room, 'tabs', bodyRows, sections);
  }
  return arranged(room, 'tabs', bodyRows, [{ tab: activeTab, rows: bodyRows }]);
}

/** Where the sections go on a terminal of `columns` × `rows` (the rows left to the explorer's
 *  frame): the widest arrangement that has the rows it needs. */
export function computeLayout(
  columns: number,
  rows: number,
  paneCount: number,
  programLines: number,
  activeTab: TabId,
  portCount = 8,
): Layout {
  const room = roomFor(columns, rows, paneCount, programLines, portCount);
  return twoColumnGrid(room) ?? stackedGrid(room) ?? tabbed(room, activeTab);
}

/** First row to show so that `selected` stays visible in a window of `height` rows over `count`. */
export function scrollStart(selected: number, count: number, height: number): number {
  if (count <= height || height <= 0) return 0;
  const half = Math.floor(height / 2);
  return Math.max(0, Math.min(count - height, selected - half));
}
