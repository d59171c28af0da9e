// The refined model's mechanisms: what SUACA's thesis leaves out (ch. 5), each a named switch. The
// one home of their names, flags and labels: the CLI, the report, the JSON output and the explorer
// all name mechanisms through this file. All off is SUACA's model exactly. Two defaults, one each:
// a run whose mechanisms are not given runs SUACA's model (resolveMechanisms: the engine's API,
// the what-ifs, the report's and the explorer's runs); a user who names no model gets
// DEFAULT_MODEL_NAME (the CLI, the config file, the explorer), which then names every mechanism.

/** The mechanisms, in the order every list shows them. */
export const MECHANISMS = [
  'macroFusion',
  'microFusion',
  'zeroIdioms',
  'moveElimination',
  'frontEnd',
  'loadStorePorts',
  'storeForwarding',
  'portChoice',
  'onePerPort',
  'operandLatency',
] as const;

export type Mechanism = (typeof MECHANISMS)[number];

/** Which mechanisms are on. */
export type MechanismSet = Record<Mechanism, boolean>;

export interface MechanismInfo {
  id: Mechanism;
  /** the command-line switch: --no-<flag> turns it off, --<flag> on */
  flag: string;
  /** for lists and reports */
  label: string;
  /** for narrow places (the explorer's header and comparison line) */
  short: string;
}

export const MECHANISM_INFO: readonly MechanismInfo[] = [
  {
    id: 'macroFusion',
    flag: 'macro-fusion',
    label: 'macro-fusion (flag-setting instruction + Jcc)',
    short: 'macro-fus',
  },
  {
    id: 'microFusion',
    flag: 'micro-fusion',
    label: 'micro-fusion and unlamination (fused-domain µops)',
    short: 'micro-fus',
  },
  { id: 'zeroIdioms', flag: 'zero-idioms', label: 'zero idioms (no port, no latency, no input)', short: 'zero-idiom' },
  {
    id: 'moveElimination',
    flag: 'move-elimination',
    label: 'move elimination (register moves at rename)',
    short: 'mov-elim',
  },
  {
    id: 'frontEnd',
    flag: 'front-end',
    label: 'front end (issue width, decoders, µop cache, loop stream detector)',
    short: 'front end',
  },
  {
    id: 'loadStorePorts',
    flag: 'load-store-ports',
    label: 'load and store ports (store-address port rules)',
    short: 'ld/st ports',
  },
  {
    id: 'storeForwarding',
    flag: 'store-forwarding',
    label: 'store-to-load forwarding (same address expression)',
    short: 'st-fwd',
  },
  {
    id: 'portChoice',
    flag: 'port-choice',
    label: 'port choice at issue (uiCA paper; off in refined)',
    short: 'port choice',
  },
  {
    id: 'onePerPort',
    flag: 'one-per-port',
    label: "one µop per port per cycle (an instruction's own µops too)",
    short: '1 µop/port',
  },
  {
    id: 'operandLatency',
    flag: 'operand-latency',
    label: 'per-operand latencies (a load-op form reads its register after the load)',
    short: 'op-latency',
  },
];

export type ModelName = 'suaca' | 'refined';

export const MODEL_NAMES: readonly ModelName[] = ['suaca', 'refined'];

/** SUACA's model: every mechanism off (the thesis's results). */
export const SUACA_MECHANISMS: Readonly<MechanismSet> = Object.freeze(
  Object.fromEntries(MECHANISMS.map((m) => [m, false])) as MechanismSet,
);

/** The mechanisms the refined model leaves off, each with why (the README's measured table):
 *  portChoice as modelled made the measured predictions worse (24.8 % mean absolute error without
 *  it, 28.9 % with it, 50 loops on a Rocket Lake host) and keeps a loop's schedule from repeating
 *  (no steady state: a report's time grows with the iterations). `--port-choice` switches it on. */
export const REFINED_OFF: readonly Mechanism[] = ['portChoice'];

/** The refined model: every mechanism on but those of REFINED_OFF. */
export const REFINED_MECHANISMS: Readonly<MechanismSet> = Object.freeze(
  Object.fromEntries(MECHANISMS.map((m) => [m, !REFINED_OFF.includes(m)])) as MechanismSet,
);

/** The mechanisms of a named model with some switched. */
export function mechanismsOf(model: ModelName, overrides: Partial<MechanismSet> = {}): MechanismSet {
  return { ...(model === 'suaca' ? SUACA_MECHANISMS : REFINED_MECHANISMS), ...overrides };
}

/** The mechanisms of a run: those given, every other one off — SUACA's model when none is given.
 *  The one reading of "mechanisms not given". */
export function resolveMechanisms(m: Partial<MechanismSet> | undefined): MechanismSet {
  const out = { ...SUACA_MECHANISMS };
  if (m) for (const k of MECHANISMS) out[k] = m[k] === true;
  return out;
}

/** true when no mechanism is on (SUACA's model) */
export function isSuaca(m: Partial<MechanismSet> | undefined): boolean {
  return m === undefined || MECHANISMS.every((k) => !m[k]);
}

/** 'suaca', 'refined', or the nearer of the two with what differs: 'refined −macro-fus −front end',
 *  'refined +port choice', 'suaca +zero-idiom' */
export function mechanismLabel(m: Partial<MechanismSet> | undefined): string {
  const on = (k: Mechanism): boolean => m?.[k] === true;
  const info = (k: Mechanism): string => MECHANISM_INFO.find((x) => x.id === k)!.short;
  const fromSuaca = MECHANISMS.filter(on);
  const fromRefined = MECHANISMS.filter((k) => on(k) !== REFINED_MECHANISMS[k]);
  if (fromSuaca.length === 0) return 'suaca';
  if (fromRefined.length === 0) return 'refined';
  if (fromRefined.length <= fromSuaca.length)
    return `refined ${fromRefined.map((k) => `${on(k) ? '+' : '−'}${info(k)}`).join(' ')}`;
  return `suaca ${fromSuaca.map((k) => `+${info(k)}`).join(' ')}`;
}

/** The model a user gets when neither a flag nor the config file names one. Every default (the CLI,
 *  the config's built-in value, the explorer) reads it from here; measurement decides it (the
 *  README's accuracy table). */
export const DEFAULT_MODEL_NAME: ModelName = 'refined';

/** A stable key of the mechanisms that are on: 'suaca' (none), else 'macroFusion+frontEnd+…'. */
export function mechanismKey(m: Partial<MechanismSet> | undefined): string {
  const on = MECHANISMS.filter((k) => m?.[k] === true);
  return on.length === 0 ? 'suaca' : on.join('+');
}

/** The info of one mechanism. */
export function mechanismInfo(k: Mechanism): MechanismInfo {
  return MECHANISM_INFO.find((x) => x.id === k)!;
}

/** `m` with mechanism `k` switched to `on`. */
export function withMechanism(m: Readonly<MechanismSet>, k: Mechanism, on: boolean): MechanismSet {
  return { ...m, [k]: on };
}
