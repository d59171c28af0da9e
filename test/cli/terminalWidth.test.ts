// `disasm` and `data list` in a terminal fit its width: text columns narrow (cut with "…"), then
// whole columns are left out with a note, prose wraps; the figures are never cut. Piped, or with
// --wide, the lines are the full ones. The fitting itself (src/report/fit.ts), and both commands in
// a real 80-column terminal (tmux) — whose lines include this clone's path, of any length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fitTable, fitWidth, wrapProse } from '../../src/report/fit.js';
import { hasTmux, tmuxServer } from '../ui/helpers/tmux.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'cli', 'main.cjs');

test('fitTable: text columns narrow by rank, then columns are dropped, figures never cut', () => {
  const cols = [{}, { min: 4, rank: 1 }, { right: true }, { min: 3, drop: 1 }, { min: 6, cutStart: true }];
  const rows = [
    ['n', 'text', 'fig', 'extra', 'path'],
    ['1', 'a long text cell', '12345', 'more text here', '/a/long/path/to/file.xml'],
  ];
  const full = fitTable(cols, rows);
  assert.equal(full.lines[1], '1  a long text cell  12345  more text here  /a/long/path/to/file.xml');
  assert.deepEqual(full.dropped, []);
  // 50 columns: the rank-0 columns narrow first (the path cut at its start), the text (rank 1) not
  const at50 = fitTable(cols, rows, 50);
  assert.ok(at50.lines.every((l) => l.length <= 50));
  assert.equal(at50.lines[1], '1  a long text cell  12345  more te…  …to/file.xml');
  const at40 = fitTable(cols, rows, 40);
  assert.ok(at40.lines.every((l) => l.length <= 40));
  assert.equal(at40.lines[1], '1  a long text cell  12345  mo…  …le.xml', 'rank 0 at its minimum first');
  const at32 = fitTable(cols, rows, 32);
  assert.equal(at32.lines[1], '1  a long t…  12345  mo…  …e.xml', 'then rank 1');
  // too narrow for every minimum: the droppable column goes, the figure stays whole
  const at24 = fitTable(cols, rows, 24);
  assert.deepEqual(at24.dropped, [3]);
  assert.deepEqual(at24.lines, ['n  text      fig  path', '1  a lon…  12345  …e.xml']);
  assert.deepEqual(wrapProse('one two three four', 9), ['one two', '  three', '  four']);
  assert.equal(fitWidth(false, { isTTY: true, columns: 77 } as NodeJS.WriteStream), 77);
  assert.equal(fitWidth(true, { isTTY: true, columns: 77 } as NodeJS.WriteStream), undefined, '--wide');
  assert.equal(fitWidth(false, { isTTY: false } as NodeJS.WriteStream), undefined, 'a pipe');
});

test('disasm and data list in an 80-column terminal: every line fits, figures whole; piped: full lines', {
  skip: !hasTmux,
  timeout: 90_000,
}, async () => {
  const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-width');
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-width-'));
  try {
    const env = { ...process.env, UOPSCOPE_CACHE_DIR: join(dir, 'cache') };
    const piped = (args: readonly string[]) =>
      spawnSync(process.execPath, [MAIN, ...args], { cwd: ROOT, encoding: 'utf8', env }).stdout;
    for (const [name, args] of [
      ['disasm', ['disasm', 'examples/bin/stencil', '--arch', 'SKL']],
      ['list', ['data', 'list']],
    ] as const) {
      // the pane is the terminal: its lines are read back from it
      newSession(
        name,
        ROOT,
        `UOPSCOPE_CACHE_DIR=${dir}/cache node ${MAIN} ${args.join(' ')}; echo "EXITED rc=$?"; sleep 60`,
        { rows: 60 },
      );
      await waitFor(name, /EXITED rc=\d+/, `${name}: the end`);
      // -J joins the lines the terminal wrapped: a line too long for the pane shows whole
      const screen = tmux('capture-pane', '-p', '-J', '-t', name);
      assert.match(screen, /EXITED rc=0/);
      const lines = screen.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('EXITED'));
      assert.ok(
        lines.every((l) => l.length <= 80),
        `${name}: lines within 80 columns`,
      );
      const full = piped(args);
      assert.ok(
        full.split('\n').some((l) => l.length > 80),
        `${name}: piped, some lines are longer than 80 (the full ones)`,
      );
      assert.equal(
        spawnSync(process.execPath, [MAIN, ...args, '--wide'], { cwd: ROOT, encoding: 'utf8', env }).stdout,
        full,
        `${name}: --wide is the piped output`,
      );
      if (name === 'disasm') {
        // the figures of every line are whole: µops, ports, latency as the full listing has them
        const header = lines.findIndex((l) => /^line +address/.test(l));
        assert.match(lines[header]!, /src +uops +ports +lat$/);
        assert.match(screen, /left out to fit the terminal: bytes, signature, reads, writes, mem/);
        for (const l of lines.slice(header + 1, header + 9))
          assert.match(l, / L +\d +\S+ +\d+$/, `figures whole in: ${l}`);
        assert.match(full, /signature +reads +writes +mem/);
      } else {
        assert.match(screen, /^SKL +\S.* +LLVM model +\d+ \(\+\d+ placeholders\)$/m);
        assert.match(screen, /left out to fit the terminal: date, from/);
        assert.ok(full.includes(join(ROOT, 'assets', 'uarch', 'llvm')), 'piped: the whole path');
      }
    }
  } finally {
    await stopServer();
    rmSync(dir, { recursive: true, force: true });
  }
});
