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
  /** the model that runs: 'suaca', 'refined', 'refined −macro-fus', … */
  model: string;
  iterations: number;
  variants: string;
  branches: boolean;
  cycle: number;
  total: number | null;
  /** the rate so far: cycles ÷ the iterations completed (NaN before the first) */
  throughput: number;
  /** iterations' worth of instances completed (the divisor of `throughput`) */
  completed: number;
  /** no line has figures: nothing is simulated, no throughput is shown */
  nothingSimulated: boolean;
  finished: boolean;
  playing: boolean;
  speed: number;
  busy: string | null;
  /** lines without figures (marked ? in the Program pane); 0 when every line has figures */
  missing?: number;
  /** the measure key's segment (hooks/useMeasure.ts measureText), kept whole when it fits */
  measure?: string | null;
}

/** Iterations' worth of completed instances: whole when large, else to one decimal (2.5). */
export function iterationsDone(x: number): string {
  return Number.isInteger(x) || x >= 100 ? String(Math.floor(x)) : x.toFixed(1);
}

/** The rate so far and what it is over: the iterations completed, not all of them. */
export function throughputSoFar(p: Pick<HeaderProps, 'throughput' | 'completed' | 'nothingSimulated' | 'finished'>): string {
  if (p.nothingSimulated) return 'no throughput: no line has data, nothing simulated';
  if (!(p.completed > 0)) return 'throughput – (nothing completed yet)';
  return p.finished ? `${num(p.throughput)} c/iter over all ${iterationsDone(p.completed)} iterations` : `${num(p.throughput)} c/iter over ${iterationsDone(p.completed)} iter. done`;
}

/** Two lines: what is simulated, and where the run is. */
export function Header(p: HeaderProps) {
  const file = p.file.split(/[\\/]/).pop() ?? p.file;   // the name; the export has the path
  const tail = ` · ${p.iterations} iter · ${p.model} · ${p.branches ? 'branches' : 'variant'}: ${p.variants}`;
  const m = p.measure ? ` · ${p.measure}` : '';
  const full = `${file} · ${p.region} · ${p.arch} (${p.archName})${tail}${m}`;
  const shorter = [`${file} · ${p.region} · ${p.arch}${tail}${m}`, ...(m ? [`${file} · ${p.arch}${m}`, `${p.arch}${m}`] : [])];
  const what = full.length <= p.width ? full : shorter.find((c) => c.length <= p.width) ?? shorter[shorter.length - 1]!;
  const total = p.total === null ? '…' : String(p.total);
  const status = p.busy ?? (p.finished ? 'finished' : p.playing ? `playing ${p.speed}/s` : `paused (${p.speed}/s)`);
  const warn = p.missing ? `INCOMPLETE: ${p.missing} line${p.missing === 1 ? '' : 's'} without figures (?) · ` : '';
  // busy: said before the rest, so that it is never cut off
  const where = warn + (p.busy ? `cycle ${p.cycle} of ${total} · ${p.busy} · ${throughputSoFar(p)}` : `cycle ${p.cycle} of ${total} · ${throughputSoFar(p)} · ${status}`);
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold color={tint(p.color, 'cyan')}>{clip(what, p.width)}</Text>
      <Text color={warn ? tint(p.color, 'red') : undefined}>{clip(where, p.width)}</Text>
    </Box>
  );
}
