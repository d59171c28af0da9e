import React, { useState } from 'react';
import { Text, useInput } from 'ink';

export interface NumberPromptProps {
  label: string;
  initial?: string;
  onSubmit(value: number): void;
  onCancel(): void;
}

/** A one-line prompt for a whole number: digits, backspace, enter, esc. */
export function NumberPrompt(p: NumberPromptProps) {
  const [text, setText] = useState(p.initial ?? '');
  useInput((input, key) => {
    if (key.escape) { p.onCancel(); return; }
    if (key.return) {
      const n = Number(text);
      if (text === '' || !Number.isFinite(n)) p.onCancel(); else p.onSubmit(n);
      return;
    }
    if (key.backspace || key.delete) { setText((t) => t.slice(0, -1)); return; }
    if (/^[0-9]+$/.test(input)) setText((t) => (t + input).slice(0, 9));
  });
  return <Text>{p.label}: <Text inverse>{text || ' '}</Text> (enter: ok, esc: cancel)</Text>;
}
