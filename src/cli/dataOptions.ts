// The data option the simulating and listing commands share: --no-measured leaves out the figures
// uopscope measured on this machine (`uopscope data measure`, and those shipped for the core), so
// that a prediction can be compared with and without them (tools/measure/table.ts does).
import type { Argv } from 'yargs';

/** The parsed option: false with --no-measured, else absent (the measured figures are used). */
export type MeasuredArgv = { measured?: boolean };

/** Adds --[no-]measured (a yargs boolean: --no-measured negates). */
export function addMeasuredOption<T>(y: Argv<T>): Argv<T & MeasuredArgv> {
  return y.option('measured', {
    type: 'boolean',
    describe:
      "use the figures uopscope measured on this machine ('data measure', and those shipped for the core; the default): --no-measured leaves them out",
  }) as unknown as Argv<T & MeasuredArgv>;
}

/** The data options of a command's parsed arguments: `{ measured: false }` with --no-measured. */
export const measuredOf = (a: MeasuredArgv): { measured?: false } => (a.measured === false ? { measured: false } : {});
