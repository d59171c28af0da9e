import { useRef, useState } from 'react';
import { useInput, useStdout } from 'ink';
import { ChoiceList } from './ChoiceList.js';
import { splitKeys } from '../keys.js';
import { colorEnabled } from '../theme.js';
import { ThemeContext } from './ThemeContext.js';

export interface RegionChoice {
  index: number;
  label: string;
}

export interface RegionPickerProps {
  file: string;
  regions: RegionChoice[];
  /** the entry highlighted first (the region analysed without a choice); default the first */
  initial?: number;
  onPick(index: number): void;
  /** q or esc: 'quit'; Ctrl-C: 'interrupt' */
  onCancel(how: 'quit' | 'interrupt'): void;
}

/**
 * When a file holds several marked regions or candidate loops (or a function several loops):
 * choose one (↑/↓, enter; q quits). The highlighted entry is kept in a ref as well as in state,
 * so that keys arriving in one burst (Down Down Enter) each move it.
 */
export function RegionPicker(p: RegionPickerProps) {
  const { stdout } = useStdout();
  const first = Math.max(0, Math.min(p.regions.length - 1, p.initial ?? 0));
  const [index, setIndex] = useState(first);
  const at = useRef(first);
  const done = useRef(false);
  const move = (by: number) => {
    at.current = Math.max(0, Math.min(p.regions.length - 1, at.current + by));
    setIndex(at.current);
  };
  useInput((input, key) => {
    for (const ev of splitKeys(input, key)) {
      if (done.current) return;
      const k = ev.key;
      if (k.ctrl && ev.input === 'c') {
        done.current = true;
        p.onCancel('interrupt');
        return;
      }
      if (ev.input === 'q' || k.escape) {
        done.current = true;
        p.onCancel('quit');
        return;
      }
      if (k.upArrow || ev.input === 'k') move(-1);
      else if (k.downArrow || ev.input === 'j') move(1);
      else if (k.pageUp) move(-10);
      else if (k.pageDown) move(10);
      else if (k.return) {
        done.current = true;
        p.onPick(p.regions[at.current]!.index);
        return;
      }
    }
  });
  return (
    <ThemeContext.Provider value={{ color: colorEnabled() }}>
      <ChoiceList
        title={`${p.file} holds ${p.regions.length} regions: pick one (↑/↓, enter; q quits)`}
        count={p.regions.length}
        label={(i) => p.regions[i]!.label}
        keyOf={(i) => p.regions[i]!.index}
        index={index}
        rows={Math.max(3, (stdout.rows || 24) - 3)}
        width={stdout.columns || 80}
      />
    </ThemeContext.Provider>
  );
}
