import { Text } from 'ink';
import { bindingsOf, type KeyContext } from '../keys.js';
import { useTint } from './ThemeContext.js';

interface FooterProps {
  width: number;
  compact: boolean;
  context?: KeyContext;
  /** the panes are tabs (else the keys that switch tabs are left out: they do nothing) */
  tabs?: boolean;
  /** pages of what is shown (one: the keys that page are left out) */
  pages?: number;
}

/**
 * The keys of the context on screen (the explorer, the detail, a prompt, a menu, the help), from
 * its key table, on one line: as many as fit, most important first, shown in the table's order;
 * abbreviated at 80 columns. Keys that do nothing on this screen are left out.
 */
export function footerText(
  width: number,
  compact: boolean,
  context: KeyContext = 'explorer',
  tabs = true,
  pages = 1,
): string {
  const hints = bindingsOf(context).filter(
    (b) => b.priority !== null && (tabs || !b.needsTabs) && (pages > 1 || !b.needsPages),
  );
  const sep = compact ? '  ' : ' · ';
  const label = (h: (typeof hints)[number]) => `${compact ? h.short : (h.hint ?? h.keys)} ${h.what}`;
  const byPriority = [...hints].sort((a, b) => a.priority! - b.priority!);
  const chosen = new Set<string>();
  let used = 0;
  for (const h of byPriority) {
    const add = label(h).length + (chosen.size ? sep.length : 0);
    if (used + add > width) continue;
    chosen.add(h.what);
    used += add;
  }
  return hints
    .filter((h) => chosen.has(h.what))
    .map(label)
    .join(sep);
}

export function Footer(p: FooterProps) {
  const tint = useTint();
  return <Text color={tint('gray')}>{footerText(p.width, p.compact, p.context, p.tabs ?? true, p.pages ?? 1)}</Text>;
}
