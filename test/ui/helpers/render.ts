// Render helpers: ink-testing-library plus a wait for the frame to settle.
import { setTimeout as sleep } from 'node:timers/promises';

export const tick = (ms = 15) => sleep(ms);

/** Presses keys one by one, letting Ink render between them. */
export async function press(stdin: { write(s: string): void }, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    stdin.write(k);
    await tick();
  }
}

export const KEY = {
  right: '\u001B[C', left: '\u001B[D', up: '\u001B[A', down: '\u001B[B', enter: '\r', escape: '\u001B', end: '\u001B[F', tab: '\t', ctrlC: '\u0003',
};

/** Removes ANSI escapes. */
export function plain(frame: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  return (frame ?? '').replace(/\u001B\[[0-9;?]*[A-Za-z]/g, '');
}

export async function until(cond: () => boolean, what: string, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await tick(10);
  }
}
