// Runs the Ink explorer on the real terminal: alternate screen, raw mode, and the terminal put
// back on every way out (q, Ctrl-C, an error, SIGTERM/SIGHUP, also while stopped by Ctrl-Z).
import { readFileSync } from 'node:fs';
import { render, useStdout } from 'ink';
import { type ReactNode, useEffect } from 'react';
import { Explorer, RegionPicker } from '../ui/index.js';
import { shareInkOutputCache } from '../ui/inkOutputCache.js';
import type { ExplorerProps } from '../ui/index.js';
import type { QuitHow } from '../ui/types.js';
import type { RegionChoice } from '../ui/regionSearch.js';

const ENTER_ALT = '\u001B[?1049h\u001B[H';
const LEAVE_ALT = '\u001B[?25h\u001B[?1049l';
const HIDE_CURSOR = '\u001B[?25l';

interface Screen {
  /** Puts the terminal back (idempotent): cooked mode, the cursor shown, the main screen. */
  restore(): void;
  /** The terminal as the shell expects it while the program is stopped. */
  leave(): void;
  /** Raw mode and the alternate screen again; false when restore() has run meanwhile. */
  reenter(): boolean;
  /** Whether restore() has run: the program is ending. */
  ended(): boolean;
}

function setRaw(on: boolean): void {
  try {
    if (process.stdin.isTTY && process.stdin.isRaw !== on) process.stdin.setRawMode(on);
  } catch {
    /* closed */
  }
}

/** Enters the alternate screen, and restores the terminal at the latest when the process exits.
 *  Leaving the alternate screen twice would be wrong, not idempotent: it restores the cursor
 *  position saved on entering, so what the shell printed since would be overwritten. */
function alternateScreen(out: NodeJS.WriteStream): Screen {
  out.write(ENTER_ALT);
  let onAlt = true;
  let restored = false;
  const leave = () => {
    setRaw(false);
    if (onAlt) out.write(LEAVE_ALT);
    onAlt = false;
  };
  const restore = () => {
    if (restored) return;
    restored = true;
    leave();
  };
  const reenter = () => {
    if (restored) return false;
    setRaw(true);
    out.write(ENTER_ALT + HIDE_CURSOR);
    onAlt = true;
    return true;
  };
  process.once('exit', restore);
  return { restore, leave, reenter, ended: () => restored };
}

/** Hands Ink's stdout writer to `onWriter`: Ink erases its frame, writes the text, then writes
 *  its whole last frame again. */
function InkWriter({ onWriter, children }: { onWriter: (w: (data: string) => void) => void; children: ReactNode }) {
  const { write } = useStdout();
  useEffect(() => onWriter(write), [write, onWriter]);
  return <>{children}</>;
}

/** How long a program continued in the background waits for the terminal (or for the signal that
 *  ends it) before it stops again. */
const BACKGROUND_WAIT_MS = 500;

/** Whether this process's group owns its terminal (/proc/self/stat: pgrp is tpgid); true when
 *  that cannot be read. Taking the terminal from the background (raw mode is a tcsetattr) would
 *  stop the process again with SIGTTOU. */
function inForeground(): boolean {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // after "(comm) ": state ppid pgrp session tty_nr tpgid
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return f[2] === f[5];
  } catch {
    return true;
  }
}

/**
 * Ctrl-Z: the terminal as the shell expects it, then the whole job stopped by SIGTSTP, as terminal
 * programs do (its process group: a shell or npm around uopscope). On SIGCONT (fg) the alternate
 * screen and raw mode again and the whole frame written anew. A new render would not do: Ink
 * writes a frame only when it differs from the last one, and the screen entered is empty.
 * The resume waits for the signals delivered with SIGCONT: bash's `kill %1` sends a stopped job
 * SIGTERM then SIGCONT, and their handlers may run in either order, SIGTERM's even some turns of
 * the event loop later (a worker thread can take it). Continued in the background (`bg`, or such
 * a kill before SIGTERM's handler has run), the program waits up to BACKGROUND_WAIT_MS for the
 * terminal or its end, then stops again instead of writing over the shell's screen.
 */
function suspender(screen: Screen, inkWrite: () => ((data: string) => void) | null) {
  return (resumed: () => void) => {
    const stop = () => {
      process.once('SIGCONT', () => setImmediate(resume, Date.now()));
      process.kill(0, 'SIGTSTP');
    };
    const resume = (since: number) => {
      // a signal that ended the program while it was stopped has put the terminal back already
      if (screen.ended()) return;
      if (!inForeground()) {
        // decided in the check phase, after a poll phase has read the signals already sent: a
        // timer that fires late on a busy machine must not stop the program before SIGTERM is seen
        if (Date.now() - since < BACKGROUND_WAIT_MS) setTimeout(() => setImmediate(resume, since), 20);
        else stop();
        return;
      }
      if (!screen.reenter()) return;
      followSize();
      inkWrite()?.('');
      resumed();
    };
    screen.leave();
    stop();
  };
}

/** The terminal's size read again: the terminal sends SIGWINCH to its foreground job only, so a
 *  resize while the program was stopped is otherwise never seen. The signal sent to itself makes
 *  Node read the size (its stream's cached columns and rows, getWindowSize's too, change only
 *  then) and emit 'resize' when it changed, as on a resize while running. */
function followSize(): void {
  if (process.stdout.isTTY) process.kill(process.pid, 'SIGWINCH');
}

/** Signals that end the process: restore first, then die of the signal as usual. */
function onSignals(restore: () => void): () => void {
  const sigs: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];
  const handler = (sig: NodeJS.Signals) => {
    restore();
    for (const s of sigs) process.removeListener(s, handler);
    process.kill(process.pid, sig);
  };
  for (const s of sigs) process.on(s, handler);
  return () => {
    for (const s of sigs) process.removeListener(s, handler);
  };
}

/** Runs the explorer until the user leaves; 'interrupt' when that was Ctrl-C (exit status 130). */
export async function runExplorer(props: Omit<ExplorerProps, 'onQuit'>): Promise<QuitHow> {
  await shareInkOutputCache();
  const screen = alternateScreen(process.stdout);
  const unhook = onSignals(screen.restore);
  let how: QuitHow = 'quit';
  let inkWrite: ((data: string) => void) | null = null;
  const keepWriter = (w: (data: string) => void) => {
    inkWrite = w;
  };
  try {
    const app = render(
      <InkWriter onWriter={keepWriter}>
        <Explorer
          {...props}
          onQuit={(h) => {
            how = h;
          }}
          onSuspend={suspender(screen, () => inkWrite)}
        />
      </InkWriter>,
      { exitOnCtrlC: false, patchConsole: true, maxFps: 60 },
    );
    await app.waitUntilExit();
  } finally {
    unhook();
    screen.restore();
  }
  return how;
}

/** Lets the user choose one of several regions; 'quit' / 'interrupt' (Ctrl-C) when they leave.
 *  The picker is erased after. */
export async function pickRegion(file: string, regions: RegionChoice[], initial = 0): Promise<number | QuitHow> {
  // on the alternate screen like the explorer: the shell's screen is left as it was
  const screen = alternateScreen(process.stdout);
  const unhook = onSignals(screen.restore);
  return new Promise<number | QuitHow>((resolve) => {
    const done = (v: number | QuitHow) => {
      app.clear();
      app.unmount();
      unhook();
      screen.restore();
      resolve(v);
    };
    const app = render(
      <RegionPicker
        file={file}
        regions={regions}
        initial={initial}
        onPick={(i) => done(i)}
        onCancel={(how) => done(how)}
      />,
      { exitOnCtrlC: false },
    );
  });
}
