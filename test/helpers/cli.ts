import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The CLI's source entry point, run through tsx so a test needs no build. */
const CLI_MAIN = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.cts');

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/**
 * Runs the real CLI (`node --import tsx src/cli/main.cts …`) and returns what it printed.
 * `env` is added to this process's environment (a test's cache directory, a PATH).
 */
export function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeout?: number } = {}): CliRun {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CLI_MAIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...opts.env },
    cwd: opts.cwd,
    timeout: opts.timeout ?? 120_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
