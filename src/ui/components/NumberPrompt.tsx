import { Text } from 'ink';
import type { PromptKind } from '../state.js';

interface NumberPromptProps {
  what: PromptKind;
  text: string;
  /** the proposed value, shown selected: typing replaces it */
  fresh: boolean;
  width: number;
}

const LABELS: Record<PromptKind, string> = {
  goto: 'go to cycle',
  iterations: 'iterations',
  export: 'export to',
  search: 'search the program for',
};

/** The one-line prompt of g (go to cycle), i (iterations), x (export path) and / (search); owns its keys. */
export function NumberPrompt(p: NumberPromptProps) {
  const label = `${LABELS[p.what]}: `;
  const hint = p.fresh ? ' (type to replace, → to edit)' : '';
  // a long path: its end, where the user edits, stays visible; the hint only when there is room
  // (the footer lists the prompt's keys too)
  const room = Math.max(8, p.width - label.length - 2);
  const shown = p.text.length > room ? `…${p.text.slice(p.text.length - room + 1)}` : p.text;
  const tail = label.length + shown.length + 1 + hint.length <= p.width ? hint : '';
  return (
    <Text>
      {label}
      <Text inverse={p.fresh}>{shown || ' '}</Text>
      {p.fresh ? '' : '▏'}
      {tail}
    </Text>
  );
}
