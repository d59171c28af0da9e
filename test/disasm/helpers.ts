import { spawnSync } from 'node:child_process';

/** Runs the real CLI (`node --import tsx src/cli/main.cts …`) and returns what it printed. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { code: number | null; stdout: string; stderr: string } {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', ...args], {
    encoding: 'utf8',
    env,
    timeout: 60_000,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

export function hasTool(tool: string): boolean {
  const r = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  return !r.error;
}
