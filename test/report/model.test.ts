// The model switches from the flags to the engine and into the report: which
// mechanisms reach every simulation, the runs with each mechanism flipped, the report's Model line,
// Mechanisms section and JSON `model`. The engine does not implement the mechanisms yet, so no
// test here asserts an effect's value from the engine: a recording Simulate stands in for it and
// says what each run was asked, and its made-up throughputs check only the wiring.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BASELINE,
  DEFAULT_MODEL_NAME,
  MECHANISMS,
  MECHANISM_INFO,
  REFINED_MECHANISMS,
  REFINED_OFF,
  SUACA_MECHANISMS,
  jobKey,
  simulate,
  simulateWhatIfs,
  whatIfJobs,
  type EngineOptions,
  type Mechanism,
  type MechanismSet,
  type Simulate,
} from '../../src/sim/index.js';
import type { MachineParams, SimConfig, SimProgram } from '../../src/sim/types.js';
import { buildReport } from '../../src/cli/commands/reportRun.js';
import { mechanismsFromArgv } from '../../src/cli/modelOptions.js';
import { renderText } from '../../src/report/text.js';
import { reportJson } from '../../src/report/json.js';
import { collectReport } from '../../src/report/collect.js';

const SKL: MachineParams = { arch: 'SKL', ports: [0, 1, 2, 3, 4, 5, 6, 7], issueWidth: 4, rsSize: 97, dividerPort: 0 };
const program: SimProgram = {
  instructions: [
    {
      line: 0,
      asm: 'add rax, rbx',
      uops: [[0, 1, 5, 6]],
      latency: 1,
      latencyByResource: {},
      divCycles: 0,
      unknown: false,
    },
    { line: 1, asm: 'dec rcx', uops: [[0, 1, 5, 6]], latency: 1, latencyByResource: {}, divCycles: 0, unknown: false },
    { line: 2, asm: 'jnz 0x0', uops: [[0, 6]], latency: 1, latencyByResource: {}, divCycles: 0, unknown: false },
  ],
  deps: [
    { from: 0, to: 0, resource: 'RAX', loopCarried: true },
    { from: 1, to: 1, resource: 'RCX', loopCarried: true },
  ],
};

/** A Simulate that records each run's mechanisms and gives a made-up cycle count per switch
 *  setting (1000 + 10 per mechanism on + the mechanism's index), so that a mix-up shows. */
function recording(): { sim: Simulate; runs: { config: SimConfig; mechanisms: Partial<MechanismSet> | undefined }[] } {
  const runs: { config: SimConfig; mechanisms: Partial<MechanismSet> | undefined }[] = [];
  const sim: Simulate = (p, m, config, opts?: EngineOptions) => {
    runs.push({ config, mechanisms: opts?.model?.mechanisms && { ...opts.model.mechanisms } });
    const r = simulate(p, m, config, opts);
    const on = MECHANISMS.map((k, i) => (opts?.model?.mechanisms?.[k] ? 10 + i : 0)).reduce((a, b) => a + b, 0);
    const cycles = 1000 + on;
    return { ...r, stats: { ...r.stats, cycles, blockThroughput: cycles / config.iterations } };
  };
  return { sim, runs };
}

const near = (a: number, b: number, what = ''): void => assert.ok(Math.abs(a - b) < 1e-9, `${what} ${a} ≠ ${b}`);
const only = (on: boolean, k: string): MechanismSet =>
  Object.fromEntries(MECHANISMS.map((x) => [x, x === k ? on : !on])) as MechanismSet;
/** the refined model with mechanism k switched to `on` */
const refinedWith = (k: Mechanism, on: boolean): MechanismSet => ({ ...REFINED_MECHANISMS, [k]: on });
/** the refined model's mechanisms (every one but REFINED_OFF), in MECHANISMS' order */
const REFINED_ON = MECHANISMS.filter((k) => !REFINED_OFF.includes(k));

test('the refined model is every mechanism but those REFINED_OFF names (port choice: the README says why)', () => {
  assert.deepEqual(REFINED_OFF, ['portChoice']);
  for (const k of MECHANISMS) assert.equal(REFINED_MECHANISMS[k], k !== 'portChoice', k);
});

test('refined: every run gets the refined mechanisms, one run per mechanism on has exactly that one off, none for those off', () => {
  const { sim, runs } = recording();
  const r = simulateWhatIfs(
    program,
    SKL,
    { iterations: 100, variant: BASELINE, mechanisms: { ...REFINED_MECHANISMS } },
    sim,
  );
  assert.deepEqual(runs[0]!.mechanisms, REFINED_MECHANISMS, 'the main run');
  // the three what-ifs run under the same model
  assert.equal(
    runs.filter(
      (x) => x.config.variant !== BASELINE && JSON.stringify(x.mechanisms) === JSON.stringify(REFINED_MECHANISMS),
    ).length,
    3,
  );
  assert.deepEqual(
    r.mechanismEffects!.map((e) => e.mechanism),
    REFINED_ON,
  );
  for (const e of r.mechanismEffects!) {
    const i = MECHANISMS.indexOf(e.mechanism);
    assert.equal(e.on, true);
    assert.equal(
      runs.filter((x) => JSON.stringify(x.mechanisms) === JSON.stringify(refinedWith(e.mechanism, false))).length,
      1,
      `one run without ${e.mechanism}`,
    );
    // with it (the main run) minus without it: the made-up cost of mechanism i is 10 + i cycles
    near(e.delta, (10 + i) / 100);
    near(e.flipped.blockThroughput, r.main.stats.blockThroughput - (10 + i) / 100);
  }
  assert.equal(runs.length, 4 + REFINED_ON.length);
  for (const k of REFINED_OFF)
    assert.ok(!runs.some((x) => x.mechanisms?.[k] === true), `no run with ${k} on unless asked`);
});

test('suaca: every run gets all mechanisms off; no mechanism runs unless asked, then each one switched on; --fast none', () => {
  const { sim, runs } = recording();
  const r = simulateWhatIfs(
    program,
    SKL,
    { iterations: 100, variant: BASELINE, mechanisms: { ...SUACA_MECHANISMS } },
    sim,
  );
  assert.equal(r.mechanismEffects, null);
  assert.equal(runs.length, 4);
  for (const x of runs)
    assert.deepEqual(x.mechanisms, SUACA_MECHANISMS, 'ModelOptions.mechanisms all false reach the engine');
  const all = recording();
  const e = simulateWhatIfs(
    program,
    SKL,
    { iterations: 100, variant: BASELINE, mechanisms: { ...SUACA_MECHANISMS }, allMechanismEffects: true },
    all.sim,
  );
  assert.deepEqual(
    e.mechanismEffects!.map((x) => [x.mechanism, x.on]),
    MECHANISMS.map((k) => [k, false]),
  );
  for (const [i, x] of e.mechanismEffects!.entries()) {
    assert.equal(
      all.runs.filter((y) => JSON.stringify(y.mechanisms) === JSON.stringify(only(true, x.mechanism))).length,
      1,
    );
    near(x.delta, (10 + i) / 100, 'with it minus without it');
  }
  const fast = recording();
  assert.equal(
    simulateWhatIfs(
      program,
      SKL,
      { iterations: 100, variant: BASELINE, mechanisms: { ...REFINED_MECHANISMS }, fast: true },
      fast.sim,
    ).mechanismEffects,
    null,
  );
  assert.equal(fast.runs.length, 1);
});

test('whatIfJobs lists exactly the runs simulateWhatIfs makes (the list the worker pool runs)', () => {
  for (const req of [
    { iterations: 50, variant: BASELINE, mechanisms: { ...REFINED_MECHANISMS, frontEnd: false } },
    {
      iterations: 50,
      variant: BASELINE,
      mechanisms: { ...SUACA_MECHANISMS },
      allVariants: true,
      allMechanismEffects: true,
    },
    { iterations: 50, variant: BASELINE, mechanisms: { ...REFINED_MECHANISMS }, fast: true },
  ]) {
    const { sim, runs } = recording();
    simulateWhatIfs(program, SKL, req, sim);
    const made = runs.map((x) => jobKey({ variant: x.config.variant, mechanisms: x.mechanisms as MechanismSet }));
    assert.deepEqual(whatIfJobs(req).map(jobKey), made);
  }
});

test('the flags: --model and one switch per mechanism over it; the default model is DEFAULT_MODEL_NAME', () => {
  assert.deepEqual(
    mechanismsFromArgv({}).mechanisms,
    DEFAULT_MODEL_NAME === 'suaca' ? SUACA_MECHANISMS : REFINED_MECHANISMS,
  );
  assert.deepEqual(mechanismsFromArgv({ model: 'suaca' }).mechanisms, SUACA_MECHANISMS);
  assert.deepEqual(mechanismsFromArgv({ model: 'Refined' }).mechanisms, REFINED_MECHANISMS);
  for (const m of MECHANISM_INFO) {
    assert.deepEqual(
      mechanismsFromArgv({ model: 'refined', [m.flag]: false } as never).mechanisms,
      refinedWith(m.id, false),
      `--no-${m.flag}`,
    );
    assert.deepEqual(
      mechanismsFromArgv({ model: 'refined', [m.flag]: true } as never).mechanisms,
      refinedWith(m.id, true),
      `refined --${m.flag}`,
    );
    assert.deepEqual(
      mechanismsFromArgv({ model: 'suaca', [m.flag]: true } as never).mechanisms,
      only(true, m.id),
      `--${m.flag}`,
    );
  }
  assert.throws(() => mechanismsFromArgv({ model: 'uica' }), /--model: 'uica' is not a model; use suaca .* or refined/);
  assert.throws(() => mechanismsFromArgv({ model: ['suaca', 'refined'] as never }), /--model is given more than once/);
});

test('uopscope report --model suaca: every simulation gets ModelOptions.mechanisms all false', async () => {
  const { sim, runs } = recording();
  const { model } = await buildReport(
    { hex: '4801d848ffc9' },
    { model: 'suaca', arch: 'SKL', iterations: 20, branch: true },
    sim,
  );
  assert.ok(runs.length >= 4);
  for (const x of runs) assert.deepEqual(x.mechanisms, SUACA_MECHANISMS);
  assert.equal(model.model.effects, null);
  assert.deepEqual(model.model.mechanisms, SUACA_MECHANISMS);
});

test('uopscope report --model refined --no-front-end: the main run without the front end, one run per other mechanism without it', async () => {
  const { sim, runs } = recording();
  const { model } = await buildReport(
    { hex: '4801d848ffc9' },
    { model: 'refined', 'front-end': false, arch: 'SKL', iterations: 20 } as never,
    sim,
  );
  const want = { ...REFINED_MECHANISMS, frontEnd: false };
  assert.deepEqual(runs[0]!.mechanisms, want);
  assert.deepEqual(
    model.model.effects!.map((e) => e.mechanism),
    REFINED_ON.filter((k) => k !== 'frontEnd'),
  );
  for (const e of model.model.effects!) {
    assert.ok(
      runs.some((x) => JSON.stringify(x.mechanisms) === JSON.stringify({ ...want, [e.mechanism]: false })),
      e.mechanism,
    );
  }
  const text = renderText(model);
  assert.match(text, /^Iterations: 20\nModel: refined −front end\n/m);
  assert.match(text, /\nMechanisms: block throughput with each one switched off/);
  for (const m of MECHANISM_INFO.filter((x) => x.id !== 'frontEnd' && REFINED_MECHANISMS[x.id]))
    assert.match(text, new RegExp(`\\n  without ${m.flag}: +\\d+\\.\\d\\d cycles \\(change [+−±]\\d+\\.\\d\\d\\)`));
  assert.match(text, /\n {2}off: front-end, port-choice \(--all-variants runs each one switched on\)\n/);
  const j = reportJson(model);
  assert.equal(j.model.name, 'refined −front end');
  assert.deepEqual(j.model.mechanisms, want);
  assert.equal(j.model.effects!.length, REFINED_ON.length - 1);
  for (const e of j.model.effects!) {
    assert.deepEqual(Object.keys(e).sort(), [
      'delta',
      'flag',
      'mechanism',
      'on',
      'throughputWith',
      'throughputWithout',
    ]);
    assert.equal(e.on, true);
    assert.equal(e.throughputWith, j.blockThroughput);
    assert.equal(e.delta, e.throughputWith - e.throughputWithout);
    assert.equal(e.flag, MECHANISM_INFO.find((m) => m.id === e.mechanism)!.flag);
  }
});

test("the branch sides run under the model but without the mechanisms' runs", () => {
  const { sim, runs } = recording();
  collectReport(
    {
      program,
      params: SKL,
      unknown: [],
      origins: ['thesis', 'thesis', 'thesis'],
      branch: { branchLine: 2, left: program, right: { ...program, instructions: program.instructions.slice(0, 2) } },
    },
    { iterations: 10, variant: BASELINE, mechanisms: { ...REFINED_MECHANISMS } },
    sim,
  );
  // main: 4 + one per mechanism on; each side: 4
  assert.equal(runs.length, 4 + REFINED_ON.length + 8);
  for (const x of runs.slice(-8)) assert.deepEqual(x.mechanisms, REFINED_MECHANISMS);
});

// ---- the command line, as a user runs it

const cfgRoot = mkdtempSync(join(tmpdir(), 'uopscope-model-cli-'));
process.on('exit', () => rmSync(cfgRoot, { recursive: true, force: true }));
function uopscope(args: string[], configDir = join(cfgRoot, 'none')) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, UOPSCOPE_CONFIG_DIR: configDir },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("every simulating command's --help lists --model and every mechanism's switch (generated from MECHANISM_INFO)", () => {
  for (const cmd of [['report'], ['measure'], []]) {
    const h = uopscope([...cmd, '--help']);
    assert.equal(h.status, 0, h.stderr);
    assert.match(h.stdout, /--model +the model: suaca/, cmd.join(' '));
    for (const m of MECHANISM_INFO)
      assert.match(h.stdout, new RegExp(`\\n +--${m.flag} `), `${cmd.join(' ') || 'explore'} --${m.flag}`);
  }
});

test('report --json names the model; a bad --model or config value is one line and exit 2; config set model is used', () => {
  const r = uopscope([
    'report',
    'examples/bin/branch',
    '--arch',
    'SNB',
    '--iterations',
    '50',
    '--json',
    '--model',
    'refined',
    '--no-macro-fusion',
  ]);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.model.name, 'refined −macro-fus');
  assert.equal(j.model.mechanisms.macroFusion, false);
  assert.deepEqual(
    j.model.effects.map((e: { mechanism: string }) => e.mechanism),
    REFINED_ON.filter((k) => k !== 'macroFusion'),
  );
  const fast = JSON.parse(
    uopscope(['report', 'examples/bin/branch', '--iterations', '5', '--json', '--fast', '--model', 'refined']).stdout,
  );
  assert.equal(fast.model.effects, null);
  const bad = uopscope(['report', 'examples/bin/branch', '--model', 'iaca']);
  assert.equal(bad.status, 2);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /^uopscope: --model: 'iaca' is not a model; use suaca .*\n$/);
  const dir = join(cfgRoot, 'model');
  assert.equal(uopscope(['config', 'set', 'model', 'refined'], dir).status, 0);
  assert.match(uopscope(['config', 'show'], dir).stdout, /\nmodel: refined \(config file\)\n/);
  const saved = JSON.parse(
    uopscope(['report', 'examples/bin/branch', '--iterations', '5', '--json', '--fast'], dir).stdout,
  );
  assert.equal(saved.model.name, 'refined');
  const over = JSON.parse(
    uopscope(['report', 'examples/bin/branch', '--iterations', '5', '--json', '--fast', '--model', 'suaca'], dir)
      .stdout,
  );
  assert.equal(over.model.name, 'suaca', 'the flag beats the config file');
  const badSet = uopscope(['config', 'set', 'model', 'nope'], dir);
  assert.equal(badSet.status, 2);
  assert.match(badSet.stderr, /^uopscope: model: 'nope' is not a model/);
});

test('the report says what the front end did, and which front-end limit it could not apply for want of a figure', async () => {
  const file = join(import.meta.dirname, '..', '..', 'examples', 'corpus', 'bin', 'daxpy.gcc.O2.sse2.o');
  const notesFor = async (arch: string): Promise<string[]> => {
    const { model } = await buildReport({ file }, { arch, fast: true, model: 'refined' });
    const text = renderText(model);
    // the text wraps notes at 80 columns
    const flat = text.replace(/\s+/g, ' ');
    for (const n of model.model.notes ?? [])
      assert.ok(flat.includes(`note: ${n}`.replace(/\s+/g, ' ')), `the text shows ${n}`);
    assert.deepEqual(reportJson(model).model.notes, model.model.notes);
    return model.model.notes ?? [];
  };
  // SNB: no cited size of its instruction decode queue, so no delivery limits — said, not hidden
  const snb = await notesFor('SNB');
  assert.ok(
    snb.some((n) => /^front end: delivery .* not modelled: no citable size of SNB's instruction decode queue/.test(n)),
    snb.join('\n'),
  );
  assert.ok(
    snb.some((n) => /^macro-fusion: lines 5\+6 \(cmp rdx, rax \+ jne/.test(n)),
    snb.join('\n'),
  );
  // and the header says so before any throughput
  const { model: rm } = await buildReport({ file }, { arch: 'SNB', fast: true, model: 'refined' });
  const head = renderText(rm).split('Block throughput')[0]!;
  assert.match(
    head.replace(/\s+/g, ' '),
    /Not modelled on SNB: the front end's delivery .* \(no citable size of SNB's instruction decode queue\)/,
  );
  // RKL has Sunny Cove's front end (its record inherits ICL's): its loop stream detector holds the loop
  assert.ok(
    (await notesFor('RKL')).some((n) =>
      /^front end: the loop is delivered by the loop stream detector .*instruction decode queue \(µops\) 70/.test(n),
    ),
  );
  // Golden Cove: figures cited, delivery not modelled, and the reason said
  assert.ok(
    (await notesFor('SPR')).some((n) =>
      /^front end: delivery .* not modelled: Golden Cove's loop stream detector unrolling and taken jumps per cycle are not published/.test(
        n,
      ),
    ),
  );
  // SKL (no loop stream detector) delivers from the µop cache; HSW's LSD holds the loop
  assert.ok((await notesFor('SKL')).some((n) => /^front end: the loop is delivered by the µop cache/.test(n)));
  assert.ok(
    (await notesFor('HSW')).some((n) => /^front end: the loop is delivered by the loop stream detector/.test(n)),
  );
  // SUACA: no mechanism, no note
  const { model } = await buildReport({ file }, { arch: 'SKL', fast: true, model: 'suaca' });
  assert.equal(model.model.notes, undefined);
});

test("--model's help and message say which mechanisms the refined model leaves off", () => {
  assert.throws(
    () => mechanismsFromArgv({ model: 'uica' }),
    (e: Error) =>
      /refined \(every mechanism on but port-choice\)/.test(e.message) && !/every mechanism on\)/.test(e.message),
  );
});
