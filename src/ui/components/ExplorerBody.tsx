import type { ExplorerController } from '../controller.js';
import type { ExplorerFrame } from '../frame.js';
import type { ExplorerState } from '../state.js';
import type { ExplorerProps } from '../types.js';
import { modelView } from '../modelMenu.js';
import { HelpOverlay } from './HelpOverlay.js';
import { ArchPicker } from './ArchPicker.js';
import { ModelPicker } from './ModelPicker.js';
import { DetailRow } from './DetailRow.js';
import { PaneRow } from './PaneRow.js';

interface ExplorerBodyProps {
  state: ExplorerState;
  control: ExplorerController;
  frame: ExplorerFrame;
  archs: ExplorerProps['archs'];
}

/** What fills the rows between the header and the message: the open overlay, else the panes. */
export function ExplorerBody({ state, control, frame, archs }: ExplorerBodyProps) {
  const { layout, overlayRows } = frame;
  const { session, mechanisms, compareModel, branches } = state.layout;
  const ov = state.overlay;
  const width = layout.columns;
  switch (ov.kind) {
    case 'help':
      return <HelpOverlay width={width} height={overlayRows} page={ov.page} />;
    case 'arch':
      return (
        <ArchPicker
          archs={archs}
          current={session.arch}
          index={ov.index}
          height={layout.bodyRows}
          width={width}
          {...(ov.compare ? { compare: true } : {})}
        />
      );
    case 'model':
      return (
        <ModelPicker
          mechanisms={mechanisms}
          compareModel={compareModel}
          branches={branches}
          arch={session.arch}
          view={modelView(session, mechanisms)}
          index={ov.index}
          notesPage={ov.notes ?? null}
          height={layout.bodyRows}
          width={width}
        />
      );
    case 'detail':
      return <DetailRow state={state} details={control.details()} paneWidth={layout.paneWidth} height={overlayRows} />;
    default:
      return <PaneRow state={state} layout={layout} />;
  }
}
