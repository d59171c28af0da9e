// The explorer's screen divided before it is drawn: the measurement's line below the header, the
// message's rows, and the layout of the rows left to the body. Plain data, no Ink.
import type { ExplorerState } from './state.js';
import type { MeasureRunner } from './types.js';
import { measureReason, measureText, type MeasureStatus } from './hooks/useMeasure.js';
import { computeLayout, minimumSize, type Layout } from './layout.js';
import { fitMessage } from './format.js';

export interface ExplorerFrame {
  /** the measurement (M) on a line of its own below the header, while there is one */
  measure: string | null;
  /** why the measurement failed (the message line says it when there is no other message) */
  why: string | null;
  /** the message line's text, up to three rows */
  messageText: string;
  /** rows the body gives up: the message's rows beyond the first, and the measurement's line */
  extraRows: number;
  layout: Layout;
  /** the rows of an overlay that replaces the panes: the body's, and the tab bar's at 80×24 */
  overlayRows: number;
  /** the size the screen needs when this terminal is smaller (null: the panes fit) */
  tooSmall: { columns: number; rows: number } | null;
}

export function explorerFrame(
  state: ExplorerState,
  size: { columns: number; rows: number },
  measured: MeasureStatus,
  runner: MeasureRunner | undefined,
): ExplorerFrame {
  const { session, panes } = state.layout;
  const measure = measureText(
    measured,
    {
      runner,
      arch: session.arch,
      panes: panes.map((pane, i) => ({ branch: pane.spec.branch, total: state.totals[i]?.blockThroughput ?? null })),
    },
    size.columns,
  );
  const why = measureReason(measured);
  // up to three rows: a message that names what is missing and what to do (no figures for a
  // core, the sources there are) is read whole, not cut in its middle; the rows beyond the
  // first come from the body
  const messageText = fitMessage(state.message || (why ?? ''), Math.max(40, size.columns), 3);
  const messageRows = state.overlay.kind !== 'prompt' ? messageText.split('\n').length : 1;
  const extraRows = messageRows - 1 + (measure ? 1 : 0);
  const bodyRows = size.rows - extraRows;
  const layout = computeLayout(
    size.columns,
    bodyRows,
    panes.length,
    session.lines.length,
    state.tab,
    session.ports.length,
  );
  const least = minimumSize(size.columns, panes.length, session.ports.length);
  const tooSmall =
    size.columns < least.columns || bodyRows < least.rows ? { ...least, rows: least.rows + extraRows } : null;
  const overlayRows = layout.bodyRows + (layout.mode === 'tabs' ? 1 : 0);
  return { measure, why, messageText, extraRows, layout, overlayRows, tooSmall };
}
