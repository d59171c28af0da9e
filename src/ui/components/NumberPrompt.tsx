import { Text } from 'ink';

export interface NumberPromptProps { label: string; text: string }

/** The one-line prompt of g (go to cycle) and i (iterations); the keys are handled by useKeys. */
export function NumberPrompt(p: NumberPromptProps) {
  return <Text>{p.label}: <Text inverse>{p.text || ' '}</Text> (digits, enter: ok, esc: cancel)</Text>;
}
