// The model options every simulating command shares: --model suaca|refined and one
// boolean switch per mechanism, generated from MECHANISM_INFO (src/sim/mechanisms.ts), so that a
// new mechanism gets its flag, its help line and its validation here without another edit.
import type { Argv } from 'yargs';
import { UserError, printable } from '../errors.js';
import {
  DEFAULT_MODEL_NAME,
  MECHANISM_INFO,
  REFINED_OFF,
  mechanismInfo,
  MODEL_NAMES,
  mechanismsOf,
  type Mechanism,
  type MechanismSet,
  type ModelName,
} from '../sim/mechanisms.js';

/** What the refined model switches on, as the help and the messages say it. */
const REFINED_TEXT = `every mechanism on but ${REFINED_OFF.map((m) => mechanismInfo(m).flag).join(', ')}`;

/** The parsed model options: `model` as typed, and each mechanism's switch when given. */
export type ModelArgv = { model?: string } & Partial<Record<Mechanism, boolean>>;

/** Adds --model and --[no-]<flag> for every mechanism (yargs booleans: --no-X negates). */
export function addModelOptions<T>(
  y: Argv<T>,
  defaultText = `default ${DEFAULT_MODEL_NAME}; 'uopscope config set model M'`,
): Argv<T & ModelArgv> {
  let c = y.option('model', {
    type: 'string',
    describe: `the model: suaca (SUACA's thesis, every mechanism off) or refined (${REFINED_TEXT}) (${defaultText})`,
  }) as unknown as Argv<T & ModelArgv>;
  for (const m of MECHANISM_INFO) {
    c = c.option(m.flag, {
      type: 'boolean',
      describe: `${m.label}: --${m.flag} on, --no-${m.flag} off (over --model)`,
    }) as unknown as Argv<T & ModelArgv>;
  }
  return c;
}

/** A model name from a flag or the config file; a UserError naming `where` otherwise. */
export function parseModelName(value: unknown, where: string): ModelName {
  if (Array.isArray(value)) throw new UserError(`${where} is given more than once; give it once`);
  const s = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!(MODEL_NAMES as readonly string[]).includes(s)) {
    throw new UserError(
      `${where}: '${printable(String(value), 40)}' is not a model; use ${MODEL_NAMES.join(" (every mechanism off, the thesis's model) or ")} (${REFINED_TEXT})`,
    );
  }
  return s as ModelName;
}

/** The mechanisms the options ask for: the named model (or `fallback`, the configured default),
 *  with each given switch over it. */
export function mechanismsFromArgv(
  argv: ModelArgv,
  fallback: ModelName = DEFAULT_MODEL_NAME,
): { name: ModelName; mechanisms: MechanismSet } {
  const name = argv.model === undefined ? fallback : parseModelName(argv.model, '--model');
  const over: Partial<MechanismSet> = {};
  for (const m of MECHANISM_INFO) {
    // yargs keeps the option under its dashed name (and a camel-case copy)
    const v = (argv as Record<string, unknown>)[m.flag] ?? (argv as Record<string, unknown>)[m.id];
    if (v === undefined) continue;
    if (Array.isArray(v)) throw new UserError(`--${m.flag} is given more than once; give it once`);
    if (typeof v !== 'boolean')
      throw new UserError(`--${m.flag}: a switch takes no value; write --${m.flag} or --no-${m.flag}`);
    over[m.id] = v;
  }
  return { name, mechanisms: mechanismsOf(name, over) };
}

/** The option names (for the typo hints, run.ts ALL_OPTIONS). */
export const MODEL_OPTION_NAMES: readonly string[] = [
  'model',
  ...MECHANISM_INFO.flatMap((m) => [m.flag, `no-${m.flag}`]),
];

/** Just the model options of parsed arguments (to hand on to another command's work). */
export function modelArgsOf(argv: ModelArgv): ModelArgv {
  const out: Record<string, unknown> = {};
  const a = argv as Record<string, unknown>;
  if (a.model !== undefined) out.model = a.model;
  for (const m of MECHANISM_INFO) {
    const v = a[m.flag] ?? a[m.id];
    if (v !== undefined) out[m.flag] = v;
  }
  return out as ModelArgv;
}
