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
 * never cut: the divergence's wording shortens first, then the pane names are cut with '…'.
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
  // the pane names whole with a shorter head, before they are cut
  for (const head of heads) if (line(head, titles).length <= width) return line(head, titles);
  for (const head of heads) {
    const whole = line(head, titles);
    // the longest name gives way first, each down to 4 columns
    const cut = [...titles];
    let over = whole.length - width;
    while (over > 0) {
      const i = cut.reduce((m, t, k) => (t.length > cut[m]!.length ? k : m), 0);
      const t = cut[i]!;
      if (t.length <= 4) break;
      const keep = Math.max(4, t.length - over);
      over -= t.length - keep;
      cut[i] = clip(titles[i]!, keep);
    }
    if (over <= 0) return line(head, cut);
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
  return <Text color={tint('magenta')}>{comparisonText(p, p.width)}</Text>;
}
