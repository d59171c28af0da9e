// A tmux server of the test's own (its socket named after the test and the process) for the
// end-to-end tests in a real pseudo-terminal: commands, polling the pane, and a stop that waits
// until the server is gone.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export interface Tmux {
  socket: string;
  tmux(...args: string[]): string;
  /** A detached session of `cols`×`rows` (80×24 unless said) in `cwd`, running `command` with
   *  `env` (NAME=value) added. */
  newSession(
    session: string,
    cwd: string,
    command: string,
    opts?: { cols?: number; rows?: number; env?: string[] },
  ): void;
  /** Polls the pane until `re` shows up; fails with the screen when it does not. */
  waitFor(session: string, re: RegExp, what: string, ms?: number): Promise<string>;
  /** Ends the server and waits until it is gone: `kill-server` returns before the server has
   *  exited, and the next test's `new-session` would otherwise reach the dying server ("server
   *  exited unexpectedly", seen on the loaded CI machine). */
  stopServer(): Promise<void>;
}

/** The process has exited (gone, or a zombie nobody has reaped yet). */
function exited(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; comm may hold spaces and parentheses
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

export function tmuxServer(name: string, waitMs = 20_000): Tmux {
  const socket = `${name}-${process.pid}`;
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  return {
    socket,
    tmux,
    newSession(session, cwd, command, { cols = 80, rows = 24, env = [] } = {}) {
      const envArgs = env.flatMap((e) => ['-e', e]);
      tmux('new-session', '-d', '-s', session, '-x', String(cols), '-y', String(rows), '-c', cwd, ...envArgs, command);
    },
    async waitFor(session, re, what, ms = waitMs) {
      const end = Date.now() + ms;
      for (;;) {
        const s = tmux('capture-pane', '-p', '-t', session);
        if (re.test(s)) return s;
        if (Date.now() > end) assert.fail(`timed out waiting for ${what} (${re}); the screen:\n${s}`);
        await sleep(100);
      }
    },
    async stopServer() {
      // the server's process: `list-sessions` fails as soon as the sessions are gone, while the
      // server may still be exiting and a `new-session` would reach it
      let pid = 0;
      try {
        pid = Number(tmux('display-message', '-p', '#{pid}').trim());
      } catch {
        /* no server */
      }
      try {
        tmux('kill-server');
      } catch {
        /* already gone */
      }
      const end = Date.now() + 5_000;
      while (Date.now() < end) {
        const gone = pid > 0 ? exited(pid) : spawnSync('tmux', ['-L', socket, 'list-sessions']).status !== 0;
        if (gone) return;
        await sleep(50);
      }
    },
  };
}
