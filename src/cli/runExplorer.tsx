// Runs the Ink explorer on the real terminal: alternate screen, raw mode, and the terminal put
// back on every way out (q, Ctrl-C, an error, SIGTERM/SIGHUP).
import { render } from 'ink';
import { Explorer, RegionPicker } from '../ui/index.js';
import { shareInkOutputCache } from '../ui/inkOutputCache.js';
import type { ExplorerProps } from '../ui/index.js';
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
    try { if (process.stdin.isTTY && process.stdin.isRaw) process.stdin.setRawMode(false); } catch { /* closed */ }
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
  return () => { for (const s of sigs) process.removeListener(s, handler); };
}

export async function runExplorer(props: Omit<ExplorerProps, 'onQuit'>): Promise<void> {
  await shareInkOutputCache();
  const restore = alternateScreen(process.stdout);
  const unhook = onSignals(restore);
  try {
    const app = render(<Explorer {...props} />, { exitOnCtrlC: false, patchConsole: true, maxFps: 60 });
    await app.waitUntilExit();
  } finally {
    unhook();
    restore();
  }
}

/** Lets the user choose one of several regions; null when they quit. */
export async function pickRegion(file: string, regions: RegionChoice[]): Promise<number | null> {
  let picked: number | null = null;
  const app = render(<RegionPicker file={file} regions={regions} onPick={(i) => { picked = i; }} onCancel={() => { picked = null; }} />,
    { exitOnCtrlC: false });
  try {
    await app.waitUntilExit();
  } finally {
    app.cleanup();
  }
  return picked;
}
