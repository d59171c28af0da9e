import { Text } from 'ink';
import { KEY_HINTS } from '../hooks/useKeys.js';
import { tint } from '../theme.js';

export interface FooterProps { width: number; compact: boolean; color: boolean }

/**
 * The keys, on one line: as many as fit, most important first (stepping, variants, branches,
 * architecture, export, help, quit), shown in their usual order; abbreviated at 80 columns.
 */
export function footerText(width: number, compact: boolean): string {
  const sep = compact ? '  ' : ' · ';
  const label = (h: (typeof KEY_HINTS)[number]) => `${compact ? h.short : h.keys} ${h.what}`;
  const byPriority = [...KEY_HINTS].sort((a, b) => a.priority - b.priority);
  const chosen = new Set<string>();
  let used = 0;
  for (const h of byPriority) {
    const add = label(h).length + (chosen.size ? sep.length : 0);
    if (used + add > width) continue;
    chosen.add(h.what);
    used += add;
  }
  return KEY_HINTS.filter((h) => chosen.has(h.what)).map(label).join(sep);
}

export function Footer(p: FooterProps) {
  return <Text color={tint(p.color, 'gray')}>{footerText(p.width, p.compact)}</Text>;
}
