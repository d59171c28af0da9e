// Runs the Ink explorer on the real terminal: alternate screen, raw mode, and the terminal put
// back on every way out (q, Ctrl-C, an error, SIGTERM/SIGHUP).
import { render } from 'ink';
import { Explorer, RegionPicker } from '../ui/index.js';
import { shareInkOutputCache } from '../ui/inkOutputCache.js';
import type { ExplorerProps } from '../ui/index.js';
import type { QuitHow } from '../ui/types.js';
import type { RegionChoice } from '../ui/components/RegionPicker.js';

const ENTER_ALT = '\u001B[?1049h\u001B[H';
const LEAVE_ALT = '\u001B[?25h\u001B[?1049l';

/** Enters the alternate screen; the returned function (idempotent) restores the terminal. */
function alternateScreen(out: NodeJS.WriteStream): () => void {
  out.write(ENTER_ALT);
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      if (process.stdin.isTTY && process.stdin.isRaw) process.stdin.setRawMode(false);
    } catch {
      /* closed */
    }
    out.write(LEAVE_ALT);
  };
  process.once('exit', restore);
  return restore;
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
  const restore = alternateScreen(process.stdout);
  const unhook = onSignals(restore);
  let how: QuitHow = 'quit';
  try {
    // Ctrl-Z: the terminal as the shell expects it, stopped by SIGTSTP as terminal programs are;
    // on SIGCONT (fg) the alternate screen and raw mode again, and the whole frame drawn anew
    const suspend = (resumed: () => void) => {
      try {
        if (process.stdin.isTTY) process.stdin.setRawMode(false);
      } catch {
        /* closed */
      }
      process.stdout.write(LEAVE_ALT);
      process.once('SIGCONT', () => {
        try {
          if (process.stdin.isTTY) process.stdin.setRawMode(true);
        } catch {
          /* closed */
        }
        process.stdout.write(ENTER_ALT);
        app.clear();
        resumed();
      });
      // the whole job (its process group: a shell or npm around uopscope), as terminal programs do
      process.kill(0, 'SIGTSTP');
    };
    const app = render(
      <Explorer
        {...props}
        onQuit={(h) => {
          how = h;
        }}
        onSuspend={suspend}
      />,
      { exitOnCtrlC: false, patchConsole: true, maxFps: 60 },
    );
    await app.waitUntilExit();
  } finally {
    unhook();
    restore();
  }
  return how;
}

/** Lets the user choose one of several regions; 'quit' / 'interrupt' (Ctrl-C) when they leave.
 *  The picker is erased after. */
export async function pickRegion(file: string, regions: RegionChoice[], initial = 0): Promise<number | QuitHow> {
  return new Promise<number | QuitHow>((resolve) => {
    const done = (v: number | QuitHow) => {
      app.clear();
      app.unmount();
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
