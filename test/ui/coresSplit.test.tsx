// Two cores side by side through the explorer's own rendering (tools/docScreens.ts, as the
// documentation's screens): Intel beside Intel (80×24 and 120×40), Zen beside Zen and Zen beside
// Intel (120×40). Each pane names its ports as its core does, nothing is wider than the terminal, and
// the header and the comparison line name both cores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderScreens, type ScreenSpec } from '../../tools/docScreens.js';
import { loadMachine } from '../../src/data/machines.js';

const pairs = [
  ['SKL', 'ICL'],
  ['ZEN2', 'ZEN5'],
  ['ZEN4', 'SKL'],
] as const;

const spec = (a: string, b: string, columns: number, rows: number, tab: string): ScreenSpec => ({
  name: `${a}-${b}-${columns}-${tab}`,
  file: 'examples/bin/stencil',
  arch: a as Uppercase<string>,
  compareArch: b as Uppercase<string>,
  iterations: 50,
  columns,
  rows,
  steps: [
    { keys: '', until: /cycle 0 of \d+/ },
    { keys: `g30\r${tab}`, until: /cycle 30 of \d+/ },
  ],
  done: /cycle 30 of \d+[\s\S]*(diverge at cycle \d+|identical for all)/,
  pending: /searching/,
});

/** The names a core gives its ports, in order (Intel's: p0, p1, …). */
function portNames(arch: string): string[] {
  const m = loadMachine(arch as Uppercase<string>);
  return m.ports.map((p, i) => m.portNames?.[i] ?? `p${p}`);
}

test('two cores side by side: each pane its core, its ports by its names, nothing wider than the screen', async () => {
  // at 80×24 a Zen core's 12 to 21 pipes take more bands than half the width leaves rows for
  // (the explorer says `terminal too small` then): Intel beside Intel there
  const specs = [spec('SKL', 'ICL', 80, 24, '3'), ...pairs.map(([a, b]) => spec(a, b, 120, 40, '3'))];
  const screens = await renderScreens(specs);
  for (const s of specs) {
    const screen = screens.get(s.name)!;
    const [a, b] = [s.arch, s.compareArch!];
    for (const line of screen.split('\n')) assert.ok(line.length <= s.columns, `${s.name}: ${line}`);
    assert.match(screen.split('\n')[0]!, new RegExp(`${a}( \\(.*\\))? beside ${b}`), s.name);
    assert.match(screen, new RegExp(`c/iter done/run: ${a} .*│ ${b} `), s.name);
    // the Ports section, each pane's port names in its own half of the rows
    const half = Math.floor((s.columns - 1) / 2);
    const rows = screen.split('\n');
    const left = rows.map((r) => r.slice(0, half)).join('\n');
    const right = rows.map((r) => r.slice(half + 1)).join('\n');
    for (const [side, arch] of [
      [left, a],
      [right, b],
    ] as const) {
      const want = portNames(arch);
      const got = side
        .slice(side.indexOf('Ports:'))
        .split('\n')
        .filter((r) => /^ (p\d+|[A-Z]+\d+)( |$)/.test(r))
        .flatMap((r) => r.trim().split(/\s+/))
        .filter((w) => /^(p\d+|[A-Z]+\d+)$/.test(w));
      assert.deepEqual(got, want, `${s.name}: ${arch}'s ports\n${screen}`);
    }
  }
});

test("a variant's pane on a Zen core says what it does on the queues; on an Intel core, its label alone", async () => {
  const variant = (arch: string, keys: string): ScreenSpec => ({
    name: `${arch}-${keys}`,
    file: 'examples/bin/stencil',
    arch: arch as Uppercase<string>,
    iterations: 50,
    columns: 120,
    rows: 40,
    steps: [
      { keys: '', until: /cycle 0 of \d+/ },
      { keys, until: /│ perfect FE|│ inf/ },
    ],
    done: /(diverge at cycle \d+|identical for all)/,
    pending: /searching/,
  });
  const specs = [variant('ZEN4', 'f'), variant('ZEN4', 'p'), variant('SKL', 'f')];
  const screens = await renderScreens(specs);
  const total = (loadMachine('ZEN4').schedulers?.queues ?? []).reduce((a, q) => a + q.size.value, 0);
  assert.match(
    screens.get('ZEN4-f')!,
    new RegExp(`^ baseline +perfect front-end: ${total}/cycle into the queues$`, 'm'),
  );
  assert.match(screens.get('ZEN4-p')!, /^ baseline +infinitely usable ports: every queue's pipes$/m);
  assert.match(screens.get('SKL-f')!, /^ baseline +perfect front-end$/m);
});
