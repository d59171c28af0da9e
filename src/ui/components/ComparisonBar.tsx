import { Text } from 'ink';
import { clip, num } from '../format.js';
import { useTint } from './ThemeContext.js';

export interface ComparisonBarProps {
  width: number;
  panes: { title: string; throughput: number; final: number | null }[];
  divergence: string;
}

/** Split panes: each pane's block throughput (over the iterations done so far, and for the whole
 *  run; '–' when there is none) and where they part. */
export function ComparisonBar(p: ComparisonBarProps) {
  const tint = useTint();
  const parts = p.panes.map((x) => `${x.title} ${num(x.throughput)}/${x.final === null ? '…' : num(x.final)}`);
  const text = `${p.divergence ? `${p.divergence} │ ` : ''}c/iter done/run: ${parts.join(' │ ')}`;
  return <Text color={tint('yellow')}>{clip(text, p.width)}</Text>;
}
