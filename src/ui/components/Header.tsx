import { Box, Text } from 'ink';
import { clip, num } from '../format.js';
import { tint } from '../theme.js';

export interface HeaderProps {
  width: number;
  color: boolean;
  file: string;
  region: string;
  arch: string;
  archName: string;
  iterations: number;
  variants: string;
  branches: boolean;
  cycle: number;
  total: number | null;
  throughput: number;
  finished: boolean;
  playing: boolean;
  speed: number;
  busy: string | null;
  /** lines without figures (marked ? in the Program pane); 0 when every line has figures */
  missing?: number;
}

/** Two lines: what is simulated, and where the run is. */
export function Header(p: HeaderProps) {
  const file = p.file.split(/[\\/]/).pop() ?? p.file;   // the name; the export has the path
  const tail = ` · ${p.iterations} iter · ${p.branches ? 'branches' : 'variant'}: ${p.variants}`;
  const full = `${file} · ${p.region} · ${p.arch} (${p.archName})${tail}`;
  const what = full.length <= p.width ? full : `${file} · ${p.region} · ${p.arch}${tail}`;
  const total = p.total === null ? '…' : String(p.total);
  const status = p.busy ?? (p.finished ? 'finished' : p.playing ? `playing ${p.speed}/s` : `paused (${p.speed}/s)`);
  const warn = p.missing ? `INCOMPLETE: ${p.missing} line${p.missing === 1 ? '' : 's'} without figures (?) · ` : '';
  const where = `${warn}cycle ${p.cycle} of ${total} · block throughput so far ${num(p.throughput)} c/iter · ${status}`;
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold color={tint(p.color, 'cyan')}>{clip(what, p.width)}</Text>
      <Text color={warn ? tint(p.color, 'red') : undefined}>{clip(where, p.width)}</Text>
    </Box>
  );
}
