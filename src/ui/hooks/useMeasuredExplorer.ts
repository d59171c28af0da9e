// The explorer's controller with its measure key (M) wired in: the measurement runs in the
// background (useMeasure), made after the controller, so the controller reaches it through refs.
import { useRef } from 'react';
import type { ExplorerProps } from '../types.js';
import { useExplorer } from './useExplorer.js';
import type { ExplorerState } from '../state.js';
import { useMeasure, type MeasureControl } from './useMeasure.js';
import type { ExplorerController } from '../controller.js';

interface MeasuredExplorer {
  state: ExplorerState;
  control: ExplorerController;
  measured: MeasureControl;
  /** the measurement's lines as shown, which the export holds: the Explorer sets them */
  shown: { current: string[] };
}

export function useMeasuredExplorer(props: ExplorerProps): MeasuredExplorer {
  const keys = useRef({ start: () => {}, dismiss: () => {} });
  const shown = useRef<string[]>([]);
  const [state, control] = useExplorer(props, {
    start: () => keys.current.start(),
    dismiss: () => keys.current.dismiss(),
    text: () => shown.current,
  });
  const measured = useMeasure(props.measure);
  keys.current = measured;
  return { state, control, measured, shown };
}
