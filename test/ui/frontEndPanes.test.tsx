// The explorer's view of the refined front end: the Ports pane's front-end line shows
// the source, the µops delivered and issued and the IDQ when the front end is modelled; the
// Program pane marks macro-fused pairs (F on both lines). Real loops (`as`) through the engine, 80
// columns.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { render, cleanup } from 'ink-testing-library';
import { PortsPane } from '../../src/ui/components/PortsPane.js';
import { ProgramPane } from '../../src/ui/components/ProgramPane.js';
import { BASELINE, createEngine } from '../../src/sim/index.js';
import { SUACA_MECHANISMS } from '../../src/sim/mechanisms.js';
import { loop, on } from '../sim/asmLoop.js';
import { plain } from './helpers/render.js';

afterEach(() => cleanup());

const BODY =
  '1:\n  add rax, 1\n  add rbx, 1\n  add rdx, 1\n  add rsi, 1\n  add r8, 1\n  add r9, 1\n  dec rcx\n  jnz 1b';

test('front end line: source, delivered / issued fused µops and the IDQ each cycle; SUACA keeps its line', async () => {
  const { p, m } = await loop(BODY, 'SKL');
  const e = createEngine(
    p,
    m,
    { iterations: 50, variant: BASELINE },
    { model: { mechanisms: on('macroFusion', 'microFusion', 'frontEnd') } },
  );
  // cycle 1: the µop cache delivers the first group (6 µops), nothing issued yet; cycle 2: the
  // back edge's group (1), 4 of the 6 issued
  const s1 = e.step();
  assert.deepEqual(s1.frontEnd.refined, { source: 'DSB', delivered: 6, issued: 0, idq: 6, idqSize: 64 });
  const s2 = e.step();
  assert.deepEqual(s2.frontEnd.refined, { source: 'DSB', delivered: 1, issued: 4, idq: 3, idqSize: 64 });
  const r = render(<PortsPane width={80} snapshot={s2} />);
  assert.match(plain(r.lastFrame()), /front end: DSB delivered 1, issued 4, IDQ 3\/64, next L4#0/);
  const narrow = render(<PortsPane width={34} snapshot={s2} />);
  assert.match(plain(narrow.lastFrame()), /FE DSB: in 1, issued 4, IDQ 3\/64/);
  // SUACA's model: no refined state, the line as before
  const suaca = createEngine(
    p,
    m,
    { iterations: 50, variant: BASELINE },
    { model: { mechanisms: SUACA_MECHANISMS } },
  ).step();
  assert.equal(suaca.frontEnd.refined, undefined);
  assert.equal(suaca.frontEnd.fusedPairs, undefined);
  assert.match(
    plain(render(<PortsPane width={80} snapshot={suaca} />).lastFrame()),
    /front end: next L4#0 \(1 µop left\), loaded 4 this cycle/,
  );
});

test('Program pane: a macro-fused pair is marked F on both of its lines', async () => {
  const { p, m } = await loop(BODY, 'SKL');
  const s = createEngine(
    p,
    m,
    { iterations: 5, variant: BASELINE },
    { model: { mechanisms: on('macroFusion') } },
  ).step();
  assert.deepEqual(s.frontEnd.fusedPairs, [6]);
  assert.equal(s.frontEnd.refined, undefined, "macro-fusion alone: SUACA's front end");
  const lines = p.instructions.map((x) => ({ line: x.line, asm: x.asm }));
  const r = render(
    <ProgramPane
      width={80}
      height={10}
      lines={lines}
      states={lines.map(() => null)}
      selected={0}
      fusedPairs={s.frontEnd.fusedPairs}
    />,
  );
  const rows = plain(r.lastFrame()).split('\n');
  assert.match(rows.find((l) => /dec rcx/.test(l))!, /^ +6 F dec rcx/);
  assert.match(rows.find((l) => /jne/.test(l))!, /^ +7 F jne/);
  assert.match(rows.find((l) => /add rax/.test(l))!, /^> +0 {3}add rax/);
  assert.ok(rows.every((l) => l.length <= 80));
});
