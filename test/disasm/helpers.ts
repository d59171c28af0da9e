import { spawnSync } from 'node:child_process';

export function hasTool(tool: string): boolean {
  const r = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  return !r.error;
}
