// The keyboard: one table from keys to actions (the footer and the help overlay list the same keys).
import { useRef } from 'react';
import { useApp, useInput, type Key } from 'ink';
import type { ExplorerActions, ExplorerState } from './useExplorer.js';
import { TABS } from '../types.js';

export function useKeys(current: ExplorerState, currentActions: ExplorerActions, quit: (how: 'quit' | 'interrupt') => void): void {
  const { exit } = useApp();
  // the handler reads the latest state through a ref: keys can arrive before a re-subscription
  const ref = useRef(current);
  ref.current = current;
  const actionsRef = useRef(currentActions);
  actionsRef.current = currentActions;
  // one handler, always active (toggling Ink's raw mode between handlers can drop a key)
  useInput((input, key) => {
    const actions = actionsRef.current;
    if (key.ctrl && input === 'c') { quit('interrupt'); exit(); return; }
    const live = actions.live();
    const ov = live.overlay;
    if (ov.kind === 'arch') return;          // the picker has the keys (esc, ↑/↓, enter)
    if (ov.kind === 'prompt') {
      if (key.escape) actions.setOverlay({ kind: 'none' });
      else if (key.return) {
        const text = live.promptText;
        actions.setOverlay({ kind: 'none' });
        if (text !== '') {
          if (ov.what === 'goto') actions.goTo(Number(text)); else actions.setIterations(Number(text));
        }
      } else if (key.backspace || key.delete) actions.setPromptText(live.promptText.slice(0, -1));
      else if (/^[0-9]+$/.test(input)) actions.setPromptText((live.promptText + input).slice(0, 9));
      return;
    }
    if (input === 'q') { quit('quit'); exit(); return; }
    if (live.busy) return;
    // several keys in one chunk (fast typing, key repeat): one at a time
    if (input.length > 1 && /^[ -~]+$/.test(input)) {
      for (const ch of input) handleKey(ch, key);
      return;
    }
    handleKey(input, key);
  });

  function handleKey(input: string, key: Key): void {
    const state = ref.current;
    const actions = actionsRef.current;
    const ov = actions.live().overlay;
    if (ov.kind === 'prompt' || ov.kind === 'arch') return;   // opened by an earlier key of the same chunk
    if (ov.kind === 'help' || ov.kind === 'detail') {
      if (key.escape || input === '?' || (key.return && ov.kind === 'detail')) { actions.setOverlay({ kind: 'none' }); return; }
    }
    if (key.rightArrow || input === 'l') actions.stepBy(1);
    else if (key.leftArrow || input === 'h') actions.stepBy(-1);
    else if (input === ']') actions.stepBy(10);
    else if (input === '[') actions.stepBy(-10);
    else if (input === '}') actions.stepBy(100);
    else if (input === '{') actions.stepBy(-100);
    else if (input === 'g') { actions.setPromptText(''); actions.setOverlay({ kind: 'prompt', what: 'goto' }); }
    else if (input === ' ') actions.togglePlay();
    else if (input === '+' || input === '=') actions.changeSpeed(1);
    else if (input === '-') actions.changeSpeed(-1);
    else if (input === 'G' || key.end) actions.runToEnd();
    else if (key.home) actions.goTo(0);
    else if (input === 'n') actions.runUntilSelectedIssues();
    else if (key.upArrow || input === 'k') actions.select(-1);
    else if (key.downArrow || input === 'j') actions.select(1);
    else if (key.pageUp) actions.select(-10);
    else if (key.pageDown) actions.select(10);
    else if (key.return) actions.setOverlay(ov.kind === 'detail' ? { kind: 'none' } : { kind: 'detail' });
    else if (input === 'f') actions.toggleVariant('perfectFrontEnd');
    else if (input === 'p') actions.toggleVariant('infinitePorts');
    else if (input === 'd') actions.toggleVariant('noDependencies');
    else if (input === 'b') actions.toggleBranches();
    else if (input === 'a') actions.setOverlay({ kind: 'arch' });
    else if (input === 'i') { actions.setPromptText(String(state.iterations)); actions.setOverlay({ kind: 'prompt', what: 'iterations' }); }
    else if (input === 'x') void actions.exportSession();
    else if (input === '?') actions.setOverlay(ov.kind === 'help' ? { kind: 'none' } : { kind: 'help' });
    else if (key.escape) actions.setOverlay({ kind: 'none' });
    else if (key.tab) actions.setTab(key.shift ? 'prev' : 'next');
    else if (/^[1-9]$/.test(input) && Number(input) <= TABS.length) actions.setTab(TABS[Number(input) - 1]!.id);
  }
}

/** Footer hints: the full list when there is room, abbreviated at 80 columns. */
export const KEY_HINTS: { keys: string; short: string; what: string; priority: number }[] = [
  { keys: '←/→ h/l', short: '←→', what: 'step', priority: 0 },
  { keys: '[ ] { }', short: '[]', what: '±10', priority: 9 },
  { keys: 'g', short: 'g', what: 'go to', priority: 10 },
  { keys: 'space', short: '␣', what: 'play', priority: 7 },
  { keys: 'G', short: 'G', what: 'end', priority: 11 },
  { keys: 'n', short: 'n', what: 'next issue', priority: 13 },
  { keys: '↑/↓', short: '↑↓', what: 'line', priority: 8 },
  { keys: 'enter', short: '⏎', what: 'detail', priority: 12 },
  { keys: 'f p d', short: 'fpd', what: 'variants', priority: 2 },
  { keys: 'b', short: 'b', what: 'branches', priority: 3 },
  { keys: 'a', short: 'a', what: 'arch', priority: 4 },
  { keys: 'i', short: 'i', what: 'iters', priority: 14 },
  { keys: 'x', short: 'x', what: 'export', priority: 5 },
  { keys: 'tab', short: 'tab', what: 'pane', priority: 6 },
  { keys: '?', short: '?', what: 'help', priority: 1 },
  { keys: 'q', short: 'q', what: 'quit', priority: 0 },
];

export const HELP_LINES: [string, string][] = [
  ['→ / l, ← / h', 'step one cycle forward / back'],
  ['] / [', '10 cycles forward / back'],
  ['} / {', '100 cycles forward / back'],
  ['g', 'go to a cycle (type it, enter)'],
  ['space', 'play / pause;  + / - speed'],
  ['G / End, Home', 'run to the end, back to cycle 0'],
  ['n', 'run until the selected line next issues'],
  ['↑ / k, ↓ / j', 'select a line (PgUp/PgDn: 10)'],
  ['enter', 'detail of the selected line (thesis §2.6)'],
  ['f  p  d', 'variant: perfect front end, infinite ports, no dependencies'],
  ['b', 'compare the two sides of the first conditional jump'],
  ['a', 'switch architecture (keeps the cycle)'],
  ['i', 'change the number of iterations'],
  ['x', 'export the session as a text report'],
  ['tab / 1-4', 'switch pane (small terminals)'],
  ['?  esc', 'this help / close'],
  ['q / Ctrl-C', 'quit'],
];
