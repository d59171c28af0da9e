// Nothing cut without a sign: instance labels, line numbers and port counts keep their figures
// or say they were cut ('…'); lines and ports that do not fit are counted; a terminal too small
// for the panes says so instead of drawing them over each other. Real loops (`as`) through the
// engine, and the explorer on scripted snapshots.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { render, cleanup } from 'ink-testing-library';
import { PortsPane } from '../../src/ui/components/PortsPane.js';
import { ProgramPane } from '../../src/ui/components/ProgramPane.js';
import { StatsPane } from '../../src/ui/components/StatsPane.js';
import { Explorer } from '../../src/ui/components/Explorer.js';
import { fitLeft, instFit } from '../../src/ui/format.js';
import { lineStates } from '../../src/ui/lineStates.js';
import { BASELINE, createEngine } from '../../src/sim/index.js';
import { REFINED_MECHANISMS, SUACA_MECHANISMS } from '../../src/sim/mechanisms.js';
import { analyse } from '../../src/cli/pipeline.js';
import { loop } from '../sim/asmLoop.js';
import { scriptedSession } from './helpers/scriptedEngine.js';
import { plain, tick } from './helpers/render.js';

afterEach(() => cleanup());

test('an instance label keeps its number or shows that it was cut', () => {
  assert.equal(instFit({ line: 6, iteration: 199 }, 0, 9), 'L6#199');
  assert.equal(instFit({ line: 6, iteration: 199 }, 0, 5), 'L6#…');
  assert.equal(instFit({ line: 3, iteration: 25 }, 2, 7), 'L3#25+2');
  assert.equal(instFit({ line: 3, iteration: 25 }, 2, 6), 'L3#…+2');
  // the count of the µops besides it is never dropped without a sign (`L3#129+24` in a 6-column cell)
  assert.equal(instFit({ line: 3, iteration: 25 }, 2, 4), 'L3+…');
  assert.equal(instFit({ line: 3, iteration: 129 }, 24, 6), 'L3…+24');
  assert.equal(instFit({ line: 13, iteration: 129 }, 124, 5), 'L13+…');
  assert.equal(fitLeft('12345', 3), '12…');
  assert.equal(fitLeft('7', 3), '  7');
});

// register operands: Golden Cove executes additions of small immediates at rename, without a port
const BODY = [
  '1:',
  '  add rax, rdx',
  '  imul rbx, rbx',
  '  add rdx, qword ptr [rsi]',
  '  mov qword ptr [rdi], rdx',
  '  add r8, rdx',
  '  add r9, rdx',
  '  add r10, rdx',
  '  add r11, rdx',
  '  add r12, rdx',
  '  add r13, rdx',
  '  dec rcx',
  '  jnz 1b',
].join('\n');

async function adlp(cycles: number) {
  const { p, m } = await loop(BODY, 'ADL-P');
  const e = createEngine(p, m, { iterations: 2000, variant: BASELINE }, { model: { mechanisms: SUACA_MECHANISMS } });
  let s = e.step();
  while (s.cycle < cycles) s = e.step();
  return { s, p };
}

test('a split pane lays twelve ports out in bands: no port name, count or label is cut to nothing', async () => {
  const { s } = await adlp(1200);
  assert.equal(s.ports.length, 12);
  assert.ok(
    s.ports.some((x) => x.cumulative >= 100),
    'a port has taken 100 µops or more',
  );
  const f = plain(render(<PortsPane width={39} snapshot={s} />).lastFrame());
  // every port by its name, every count as it is (no common unit that rounds 400 to 0)
  for (const x of s.ports) assert.match(f, new RegExp(`\\bp${x.port}\\b`), `p${x.port}`);
  for (const x of s.ports) assert.match(f, new RegExp(`(^|\\s)${x.cumulative}(\\s|$)`, 'm'), `count of p${x.port}`);
  for (const line of f.split('\n')) assert.ok(line.length <= 39, line);
  // an instance's label is whole, or its iteration gives way to '…' (never `L6` alone)
  assert.doesNotMatch(f, /(^|\s)L\d+(\+\d+)?(\s|$)/m);
});

test('the Program pane names the lines it shows by their numbers', async () => {
  const { s, p } = await adlp(20);
  const lines = p.instructions.map((x, i) => ({ line: i, asm: x.asm ?? `line ${i}` }));
  const states = lineStates(
    s,
    lines.map((l) => l.line),
  );
  const f = plain(render(<ProgramPane width={80} height={6} lines={lines} states={states} selected={0} />).lastFrame());
  assert.match(f, /lines 0-4 of 12/, 'the range counts as the first column does (from 0)');
  assert.match(f, /^\s+4 /m);
});

test('the Statistics pane counts the lines and ports it cannot show', async () => {
  const { s } = await adlp(1200);
  const ports = s.ports.map((x) => x.port);
  const f = plain(
    render(<StatsPane width={39} height={8} stats={s.stats} ports={ports} selectedLine={0} />).lastFrame(),
  );
  const more = /… (\d+) more lines \(in the total\)/.exec(f);
  assert.ok(more, `a "… N more" row:\n${f}`);
  const rows = f.split('\n').filter((l) => /^\s+\d+ /.test(l)).length;
  assert.equal(rows + Number(more[1]), s.stats.lines.length, 'shown + counted = every line');
  assert.match(f, /(\d+ ports? hidden|hidden: p\d+)/, 'the ports that do not fit are said');
  for (const line of f.split('\n')) assert.ok(line.length <= 39, line);
});

test('a terminal too small for the panes says so, and q still quits', async () => {
  let quit = 0;
  const r = render(
    <Explorer
      session={scriptedSession('SKL')}
      iterations={10}
      archs={[{ arch: 'SKL', name: 'Skylake' }]}
      loadArch={async () => scriptedSession('SKL')}
      saveExport={async () => ''}
      size={{ columns: 40, rows: 10 }}
      color={false}
      onQuit={() => {
        quit++;
      }}
    />,
  );
  await tick(30);
  const f = plain(r.lastFrame());
  assert.match(f.replace(/\n/g, ' '), /terminal too small: need at least 60×\d+ \(this one is 40×10\)/);
  assert.doesNotMatch(f, /cycle 0/);
  for (const line of f.split('\n')) assert.ok(line.length <= 40, line);
  r.stdin.write('q');
  await tick(30);
  assert.equal(quit, 1);
});

test('at 80x24 a long message (no figures for a core, what to do) is shown whole on up to three rows', async () => {
  const why =
    "no figures for NHM: no uops.info data and no LLVM model — available: ADL-P, SNB, SKL; import uops.info's file with 'uopscope data import FILE' or pass --uops-xml FILE";
  const r = render(
    <Explorer
      session={scriptedSession('SKL')}
      iterations={10}
      archs={[
        { arch: 'SKL', name: 'Skylake' },
        { arch: 'NHM', name: 'Nehalem' },
      ]}
      loadArch={async () => {
        throw new Error(why);
      }}
      saveExport={async () => ''}
      size={{ columns: 80, rows: 24 }}
      color={false}
    />,
  );
  await tick(30);
  r.stdin.write('a');
  await tick(30);
  r.stdin.write('\u001B[B');
  await tick(30);
  r.stdin.write('\r');
  const f = async () => plain(r.lastFrame());
  const end = Date.now() + 2000;
  while (!/could not switch/.test(await f()) && Date.now() < end) await tick(10);
  const text = await f();
  assert.ok(text.replace(/\s+/g, ' ').includes(`could not switch to NHM: ${why}`), text);
  for (const line of text.split('\n')) assert.ok(line.length <= 80, line);
  assert.match(text, /q quit/, 'the footer stays');
});

test("the Statistics title at 80 columns keeps µops/c and µops/iter at the run's last cycle (the stencil, 200 iterations)", async () => {
  const a = await analyse({ file: 'examples/bin/stencil', arch: 'SKL' });
  const e = createEngine(
    a.program,
    a.params,
    { iterations: 200, variant: BASELINE },
    { model: { mechanisms: REFINED_MECHANISMS } },
  );
  let s = e.step();
  while (!s.finished) s = e.step();
  const ports = s.ports.map((x) => x.port);
  const f = plain(
    render(<StatsPane width={80} height={14} stats={s.stats} ports={ports} selectedLine={0} />).lastFrame(),
  );
  const title = f.split('\n')[0]!;
  assert.ok(title.length <= 80, title);
  assert.match(title, /\d+\.\d\d c\/iter · \d+\.\d\d µops\/c · 12 µops\/iter/, title);
  assert.match(title, /200 (complete|done)/, title);
});
