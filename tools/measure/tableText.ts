// The text of the measured tables tools/measure/table.ts writes (docs/measure.md and README.md,
// between the markers of the core it predicts): one run's rows as markdown, each tool's mean
// absolute percentage error, and, for the figures uopscope measured on this host (`data
// measure`, assets/uarch/measured/<ARCH>.json), loop by loop whether the refined model with them
// comes closer to the measurement than llvm-mca-19. Pure: what it needs from the machine (LLVM's
// version, the core's -mcpu) is passed in, so tests can check the columns without measuring.
import { CANARY_GATE, CANARY_IDLE, CANARY_LOW, quiet } from '../../bench/measure/canary.js';
import { DEFAULT_MODEL_NAME, MECHANISM_INFO } from '../../src/sim/mechanisms.js';

export const REPS = 200;
/** measurements of a loop tried before its last one is kept although the canary was not quiet */
export const ATTEMPTS = 4;

export interface Row {
  name: string;
  file: string;
  /** a Zen 4 micro-loop: shown apart, not in the error figures */
  micro?: boolean;
  /** the canaries around the measurement kept, and how many measurements were dropped before it */
  canary?: [number, number];
  dropped?: number;
  measured?: number;
  variant?: string;
  spread?: number;
  /** SUACA's model, without the figures measured here */
  uopscope?: number | null;
  /** the refined model, without the figures measured here (--no-measured) */
  refined?: number | null;
  /** the refined model with the figures measured here (the measured file of the core, as a user
   *  of uopscope on this host gets them) */
  measuredHere?: number | null;
  /** the region's (or side's) lines whose figures are measured here, and its lines */
  linesMeasured?: [number, number];
  mca?: number | null;
  why?: string;
  /** the refined model with one mechanism off (without the figures measured here), by mechanism id */
  without?: Record<string, number | null>;
}

/** One run of the table: what was measured and predicted, and where. */
export interface Run {
  rows: Row[];
  arch: string;
  archFlag: string | null;
  hostWhy: string | null;
  hostName: string | null;
  machine: string;
  started: string;
  loadStart: number[];
  loadEnd: number[];
  command: string;
  /** the measured files of the core as `data list` shows them (absent in runs saved before the
   *  measured column existed) */
  measuredFiles?: MeasuredFileInfo[];
  /** when the predictions were made again from the saved measurements (--predict), if they were */
  predicted?: string;
}

export interface MeasuredFileInfo {
  path: string;
  /** what it was measured on (CPU, microcode) and when */
  on: string;
  /** forms used, and forms whose checks failed (not used) */
  forms: number;
  failed: number;
}

/** What the machine says: LLVM's version line, the core's -mcpu. */
interface Env {
  mcaVersion: string;
  llvmCpu: string | undefined;
}

const f2 = (n: number | null | undefined): string => (typeof n === 'number' ? n.toFixed(2) : '–');

/** A row measured (the ones the error figures are over). */
const measuredRow = (r: Row): boolean => r.measured !== undefined && r.measured > 0;

/** Whether the refined model with the figures measured here comes closer to the measurement
 *  than llvm-mca-19, as the table shows the figures (two decimals): 'unused' when no line of the
 *  loop has them (the prediction is the refined model's without them), null when the row has no
 *  measurement or either prediction is missing. */
export function verdict(r: Row): 'closer' | 'farther' | 'level' | 'unused' | null {
  if (!measuredRow(r) || typeof r.measuredHere !== 'number' || typeof r.mca !== 'number') return null;
  if (!r.linesMeasured || r.linesMeasured[0] === 0) return 'unused';
  // as the table shows them (toFixed, which rounds the binary value: 3.075 shows as 3.08)
  const hundredths = (x: number) => Math.round(Number(x.toFixed(2)) * 100);
  const off = (x: number) => Math.abs(hundredths(x) - hundredths(r.measured!));
  const here = off(r.measuredHere),
    mca = off(r.mca);
  return here < mca ? 'closer' : here > mca ? 'farther' : 'level';
}

const VERDICT_CELL = { closer: 'yes', farther: 'no', level: 'level', unused: 'none used' } as const;

/** What the figures measured here change against the same model without them (LLVM's figures with
 *  the cited corrections where they replace them): 'better' or 'worse' when the refined model with
 *  them is closer to or farther from the measurement, 'same' when the shown figures' errors are
 *  equal; 'unused' and null as for verdict. */
export function effect(r: Row): 'better' | 'worse' | 'same' | 'unused' | null {
  const v = verdict({ ...r, mca: r.refined ?? null });
  return v === 'closer' ? 'better' : v === 'farther' ? 'worse' : v === 'level' ? 'same' : v;
}

const EFFECT_CELL = { better: 'better', worse: 'worse', same: 'same', unused: '–' } as const;

/** Mean absolute percentage error of one column over the measured rows that have it. */
export function mape(rows: readonly Row[], pick: (r: Row) => number | null | undefined): string {
  const xs = rows.filter((r) => measuredRow(r) && typeof pick(r) === 'number');
  if (!xs.length) return '–';
  return `${((100 * xs.reduce((s, r) => s + Math.abs(pick(r)! - r.measured!) / r.measured!, 0)) / xs.length).toFixed(1)} % (${xs.length} loops)`;
}

/** The sentences on the figures measured here: which file, how many forms it gives, how many
 *  loops use them, and where they are used whether they beat llvm-mca-19. */
export function measuredSummary(run: Run): string {
  const corpus = run.rows.filter((r) => !r.micro && measuredRow(r));
  const files = run.measuredFiles ?? [];
  const file = files.length
    ? files
        .map(
          (f) =>
            `${f.path} (measured on ${f.on}): ${f.forms} form(s) used, ${f.failed} failed their checks and are not used`,
        )
        .join('; ')
    : `no measured file for ${run.arch}`;
  if (!run.rows.some((r) => r.measuredHere !== undefined))
    return 'This run predates the column of the figures measured here (it has none).';
  const using = corpus.filter((r) => verdict(r) !== 'unused' && verdict(r) !== null);
  const lines = corpus.reduce((n, r) => n + (r.linesMeasured?.[0] ?? 0), 0);
  const total = corpus.reduce((n, r) => n + (r.linesMeasured?.[1] ?? 0), 0);
  const head = `The figures measured here (\`uopscope data measure\` on this host): ${file}. The column "refined, measured here" is the refined model with them (what \`uopscope report\` gives on this host); the columns suaca and refined leave them out (\`--no-measured\`), so they show the models on uopscope's other sources.`;
  if (!using.length)
    return `${head} **No loop uses them**: none of the ${total} lines of the ${corpus.length} measured loops has a form whose measured figures passed their checks, so the column is the refined model's and this table cannot say whether measured figures beat LLVM's.`;
  const count = (v: ReturnType<typeof verdict>) => using.filter((r) => verdict(r) === v).length;
  const without = using.filter((r) => {
    const here = { ...r, measuredHere: r.refined ?? null };
    return verdict(here) === 'closer';
  }).length;
  const changed = (e: ReturnType<typeof effect>) => using.filter((r) => effect(r) === e).length;
  return `${head} ${using.length} of the ${corpus.length} measured loops use them (${lines} of ${total} lines). On those loops the refined model with them is closer to the measurement than llvm-mca-19 on **${count('closer')}**, farther on **${count('farther')}**, level on ${count('level')} (without them: closer on ${without}). Against the same model without them (column "measured here vs without"), the figures measured here make the prediction better on **${changed('better')}**, worse on **${changed('worse')}** and change nothing shown on ${changed('same')}; mean absolute percentage error over those loops: with them ${mape(using, (r) => r.measuredHere)}, without them ${mape(using, (r) => r.refined)}, llvm-mca-19 ${mape(using, (r) => r.mca)}.`;
}

/** The sections of docs/measure.md (`doc`) and README.md (`readme`), each without its markers. */
export function tableSections(run: Run, env: Env): { doc: string[]; readme: string[] } {
  const { rows, arch, archFlag } = run;
  const started = new Date(run.started);
  const corpus = rows.filter((r) => !r.micro);
  const micro = rows.filter((r) => r.micro);
  const ok = corpus.filter(measuredRow);
  const of = (pick: (r: Row) => number | null | undefined) => mape(corpus, pick);
  const loads = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const noisy = rows.filter((r) => r.canary && !quiet(...r.canary)).map((r) => r.name);
  const dropped = rows.reduce((n, r) => n + (r.name.endsWith('(taken)') ? 0 : (r.dropped ?? 0)), 0);
  const canaryCell = (r: Row): string =>
    r.canary ? `${r.canary.map((c) => c.toFixed(2)).join('/')}${quiet(...r.canary) ? '' : ' †'}` : '';
  const linesCell = (r: Row): string => (r.linesMeasured ? `${r.linesMeasured[0]} of ${r.linesMeasured[1]}` : '–');
  const verdictCell = (r: Row): string => {
    const v = verdict(r);
    return v ? VERDICT_CELL[v] : '–';
  };
  const effectCell = (r: Row): string => {
    const e = effect(r);
    return e ? EFFECT_CELL[e] : '–';
  };
  const cols = 11;
  const lineOf = (r: Row): string =>
    r.why !== undefined
      ? `| ${r.name} | not measurable: ${r.why.replace(/\|/g, '\\|')} |${' |'.repeat(cols - 2)}`
      : `| ${r.name} | ${f2(r.measured)} | ${((r.spread ?? 0) * 100).toFixed(1)} % | ${canaryCell(r)} | ${f2(r.uopscope)} | ${f2(r.refined)} | ${f2(r.measuredHere)} | ${f2(r.mca)} | ${linesCell(r)} | ${verdictCell(r)} | ${effectCell(r)} |`;
  const header = [
    '| loop | measured | spread | canary before/after | suaca | refined | refined, measured here | llvm-mca-19 | lines measured here | measured here beats llvm-mca-19 | measured here vs without |',
    `|---|${'---:|'.repeat(cols - 3)}:---:|:---:|`,
  ];
  const errorRow = `| mean absolute % error | | | | ${of((r) => r.uopscope)} | ${of((r) => r.refined)} | ${of((r) => r.measuredHere)} | ${of((r) => r.mca)} | | | |`;
  const out: string[] = [
    '',
    `Generated ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC by \`${run.command}\`. Machine: ${run.machine}; load average ${loads(run.loadStart)} at the start, ${loads(run.loadEnd)} at the end. Predictions for ${arch}${archFlag ? ' (--arch)' : ` (the host's core: ${run.hostWhy ?? 'unknown'})`}; llvm-mca: ${env.mcaVersion}, \`-mcpu=${env.llvmCpu ?? '?'} -iterations=200\`, Total Cycles / Iterations. Measured: \`uopscope measure\`, the variant that corresponds to the simulation (loop for a loop), 10th percentile of ${REPS} repetitions, cycles per iteration.${run.predicted ? ` uopscope's predictions made again ${run.predicted.slice(0, 16).replace('T', ' ')} UTC from this run's saved measurements (\`tools/measure/table.ts --predict\`: nothing measured again; llvm-mca's figures kept).` : ''}`,
    '',
    `Noise: each measurement ran between two runs of the contention canary (bench/measure/canary.ts: 16 independent adds, ${CANARY_IDLE.toFixed(2)} cycles per iteration on an idle core); one with a canary above ${CANARY_GATE} (the core was shared) or below ${CANARY_LOW} (the cycle calibration ran slow, so the measurement reads low with it) was dropped and measured again, 2 s later, at most ${ATTEMPTS} times. ${dropped} measurement(s) were dropped; ${noisy.length ? `${noisy.length} loop(s) never had a quiet run and keep their last one (marked †): ${noisy.join(', ')}` : 'every loop kept has quiet canaries'}. The spread is (median − 10th percentile) / 10th percentile of the repetitions.`,
    '',
    `Mean absolute percentage error against the measurement: **uopscope --model suaca ${of((r) => r.uopscope)}**, **uopscope --model refined ${of((r) => r.refined)}**, **uopscope --model refined with the figures measured here ${of((r) => r.measuredHere)}**, **llvm-mca-19 ${of((r) => r.mca)}**. The default model (src/sim/mechanisms.ts DEFAULT_MODEL_NAME) is ${DEFAULT_MODEL_NAME}.`,
    '',
    measuredSummary(run),
    '',
    `The refined model with one mechanism switched off (without the figures measured here; each row's MAPE over the same loops; lower than the refined model's means that mechanism, as modelled, makes these predictions worse): ${MECHANISM_INFO.map((m) => `without ${m.flag} ${of((r) => r.without?.[m.id])}`).join('; ')}.`,
    '',
    `"lines measured here": the loop's lines whose figures come from the measured file (the rest from uopscope's other sources); "measured here beats llvm-mca-19": whether "refined, measured here" is closer to the measurement than llvm-mca-19 as the figures are shown (yes, no, level; "none used" when no line has measured figures); "measured here vs without": whether it is closer than the refined model without them (better, worse, same): what the measured figures themselves change.`,
    '',
    ...header,
    ...corpus.map(lineOf),
    errorRow,
    '',
    ...(micro.length
      ? [
          `The micro-loops of test/fixtures/zen4-micro (straight blocks assembled by GNU as; not in the error figures above; test/sim/zen4Micro.test.ts holds the default model on ZEN4 to within 10 % of the Zen 4 figures):`,
          '',
          ...header,
          ...micro.map(lineOf),
          '',
        ]
      : []),
  ];
  const readme = [
    `Measured on ${run.hostName ?? 'an unknown host'}, ${started.toISOString().slice(0, 10)}: ${ok.length} of ${corpus.length} loops measurable (the corpus and the thesis examples); mean absolute percentage error of the predictions for ${arch}: uopscope's SUACA model ${of((r) => r.uopscope)}, its refined model ${of((r) => r.refined)}, the refined model with the figures measured here ${of((r) => r.measuredHere)}, llvm-mca-19 ${of((r) => r.mca)}. The table, how to read it and the largest misses: [docs/measure.md](docs/measure.md#measured-against-the-predictions).`,
    '',
    ...out,
  ];
  return { doc: out, readme };
}
