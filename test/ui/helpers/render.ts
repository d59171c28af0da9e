// Render helpers: ink-testing-library plus a wait for the frame to settle.
import { setTimeout as sleep } from 'node:timers/promises';

export const tick = (ms = 15) => sleep(ms);

/**
 * Presses keys one by one; after each, waits for Ink to draw a new frame (Ink renders
 * asynchronously; on a loaded machine that can take a while), or at most `settle` ms for a key
 * that changes nothing on screen.
 */
export async function press(
  r: { stdin: { write(s: string): void }; frames: string[] },
  ...keys: string[]
): Promise<void> {
  for (const k of keys) {
    const before = r.frames.length;
    r.stdin.write(k);
    const end = Date.now() + 1000;
    while (r.frames.length === before && Date.now() < end) await tick(2);
    await tick(2);
  }
}

export const KEY = {
  right: '\u001B[C',
  left: '\u001B[D',
  up: '\u001B[A',
  down: '\u001B[B',
  enter: '\r',
  escape: '\u001B',
  end: '\u001B[F',
  home: '\u001B[H',
  tab: '\t',
  ctrlC: '\u0003',
};

/** Removes ANSI escapes. */
export function plain(frame: string | undefined): string {
  return (frame ?? '').replace(/\u001B\[[0-9;?]*[A-Za-z]/g, '');
}

export async function until(cond: () => boolean, what: string, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await tick(10);
  }
}
