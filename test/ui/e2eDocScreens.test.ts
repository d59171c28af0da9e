// The screens of docs/explorer.md are what a terminal shows: the CLI runs in a real
// pseudo-terminal (tmux) of each screen's size, the screen's keys typed, and the pane's text must
// be the page's screen, line for line (tools/docScreens.ts renders the page's screens through
// ink-testing-library; this checks that path against the real one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { hasTmux, tmuxServer } from './helpers/tmux.js';
import { DOC, SCREENS, blockInDoc, fenced } from '../../tools/docScreens.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { tmux, newSession, waitFor, stopServer } = tmuxServer('uopscope-docscreens-test', 60_000);
const SKIP = hasTmux ? false : 'tmux is not installed (apt-get install tmux) — the pseudo-terminal test cannot run';

/** The pane's text as the page keeps a screen: trailing blanks and blank bottom rows dropped. */
const asScreen = (s: string) => s.replace(/[ \t]+$/gm, '').replace(/\n+$/, '');

for (const spec of SCREENS)
  test(`docs/explorer.md's ${spec.name} is what the terminal shows`, { skip: SKIP, timeout: 180_000 }, async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'uopscope-e2e-docscreens-'));
    const session = spec.name;
    try {
      newSession(
        session,
        ROOT,
        `node --import tsx src/cli/main.cts ${spec.file} --arch ${spec.arch}${spec.compareArch ? ` --compare-arch ${spec.compareArch}` : ''} --iterations ${spec.iterations}; sleep 120`,
        {
          cols: spec.columns,
          rows: spec.rows,
          env: [`UOPSCOPE_CACHE_DIR=${join(scratch, 'cache')}`, `UOPSCOPE_CONFIG_DIR=${join(scratch, 'config')}`],
        },
      );
      for (const step of spec.steps) {
        for (const k of step.keys) tmux('send-keys', '-t', session, '-l', k);
        await waitFor(session, step.until, `${spec.name}: ${step.until}`);
      }
      let s = await waitFor(session, spec.done, `${spec.name}: ${spec.done}`);
      // the screen once it no longer changes (the background results drawn)
      for (let last = ''; s !== last || spec.pending?.test(s); ) {
        last = s;
        await sleep(500);
        s = tmux('capture-pane', '-p', '-t', session);
      }
      const page = blockInDoc(readFileSync(DOC, 'utf8'), spec.name);
      assert.equal(fenced(asScreen(s)), page, 'the terminal differs from the page: run `npm run docs:screens`');
    } finally {
      await stopServer();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
