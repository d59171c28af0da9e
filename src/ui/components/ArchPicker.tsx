import type { ArchChoice } from '../types.js';
import { ChoiceList } from './ChoiceList.js';

interface ArchPickerProps {
  archs: ArchChoice[];
  current: string;
  /** the highlighted entry (the explorer's state: every key of a burst moves it) */
  index: number;
  height: number;
  width: number;
  /** choosing the core shown beside this one (the core split) rather than switching */
  compare?: boolean;
}

/** Choose another architecture (↑/↓, enter; esc cancels); the keys are the ARCH_KEYS table's. */
export function ArchPicker(p: ArchPickerProps) {
  return (
    <ChoiceList
      title={
        p.compare
          ? 'Compare with another core (↑/↓, enter; esc cancels) — side by side, the cycle is kept'
          : 'Switch architecture (↑/↓, enter; esc cancels) — the cycle is kept'
      }
      count={p.archs.length}
      label={(i) => {
        const a = p.archs[i]!;
        return `${a.arch.padEnd(5)} ${a.name}${a.arch === p.current ? ' (current)' : ''}${a.note ? ` — ${a.note}` : ''}`;
      }}
      keyOf={(i) => p.archs[i]!.arch}
      index={p.index}
      rows={Math.max(3, p.height - 1)}
      width={p.width}
    />
  );
}
