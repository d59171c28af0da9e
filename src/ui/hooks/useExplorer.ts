// The explorer's controller (src/ui/controller.ts) inside React: made once per Explorer, its
// state subscribed to, the terminal's keys handed to it (one handler for every context: the
// controller knows which is on screen), disposed when the Explorer goes away.
import { useEffect, useRef, useState } from 'react';
import { useApp, useInput } from 'ink';
import { ExplorerController } from '../controller.js';
import { exportText } from '../exportText.js';
import type { ExplorerState } from '../state.js';
import type { ExplorerProps } from '../types.js';

/** `measure`: M's start, Esc's dismissal of its result (hooks/useMeasure.ts) and the result's
 *  text as shown (the export holds it). */
export function useExplorer(
  props: ExplorerProps,
  measure?: { start(): void; dismiss(): void; text?(): string[] },
): [ExplorerState, ExplorerController] {
  const { exit } = useApp();
  const propsRef = useRef(props);
  propsRef.current = props;
  const measureRef = useRef(measure);
  measureRef.current = measure;
  const [controller] = useState(
    () =>
      new ExplorerController({
        session: props.session,
        iterations: props.iterations,
        ...(props.mechanisms ? { mechanisms: props.mechanisms } : {}),
        ...(props.compareSession ? { compareSession: props.compareSession } : {}),
        archs: props.archs.map((a) => a.arch),
        loadArch: (arch) => propsRef.current.loadArch(arch),
        saveExport: (text, path) => propsRef.current.saveExport(text, path),
        exportPath: () => propsRef.current.exportPath?.() ?? '',
        exportText: (s, details) => exportText(s, { details, measurement: measureRef.current?.text?.() ?? [] }),
        quit: (how) => {
          propsRef.current.onQuit?.(how);
          exit();
        },
        suspend: () => propsRef.current.onSuspend?.(() => controller.dispatch({ type: 'redraw' })),
        measure: () => measureRef.current?.start(),
        dismiss: () => measureRef.current?.dismiss(),
      }),
  );
  const [state, setState] = useState(controller.getState());
  useEffect(() => {
    const off = controller.subscribe(() => setState(controller.getState()));
    setState(controller.getState());
    return () => {
      off();
      controller.dispose();
    };
  }, [controller]);
  useInput((input, key) => controller.handleKey({ input, key }));
  return [state, controller];
}
