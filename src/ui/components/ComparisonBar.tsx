import { Text } from 'ink';
import { clip, num } from '../format.js';
import { useTint } from './ThemeContext.js';

export interface ComparisonBarProps {
  width: number;
  panes: { title: string; throughput: number; final: number | null }[];
  divergence: string;
}

/**
 * Split panes: each pane's cycles per iteration (over the iterations done so far, and for the
 * whole run; '–' when there is none) and where they part, in `width` columns. The figures are
 * never cut: the pane names give way first (cut with '…'), then the divergence's wording.
 */
export function comparisonText(p: Omit<ComparisonBarProps, 'width'>, width: number): string {
  const figs = p.panes.map((x) => `${num(x.throughput)}/${x.final === null ? '…' : num(x.final)}`);
  const line = (head: string, titles: string[]) =>
    `${head}c/iter done/run: ${titles.map((t, i) => `${t} ${figs[i]}`).join(' │ ')}`;
  const heads = p.divergence
    ? [
        `${p.divergence} │ `,
        `${p.divergence.replace(/^diverge at cycle /, 'diverge@').replace(/^diverge: searching.*$/, 'diverge: …')} │ `,
      ]
    : [''];
  const titles = p.panes.map((x) => x.title);
  const full = line(heads[0]!, titles);
  if (full.length <= width) return full;
  for (const head of heads) {
    const fixed = line(
      head,
      titles.map(() => ''),
    ).length;
    const room = Math.floor((width - fixed) / titles.length);
    if (room >= 4)
      return line(
        head,
        titles.map((t) => clip(t, room)),
      );
  }
  // nothing left for names: the figures alone, in the panes' order
  return clip(
    line(
      heads[heads.length - 1]!,
      titles.map((_, i) => (i === 0 ? 'left' : 'right')),
    ),
    width,
  );
}

export function ComparisonBar(p: ComparisonBarProps) {
  const tint = useTint();
  return <Text color={tint('yellow')}>{comparisonText(p, p.width)}</Text>;
}
