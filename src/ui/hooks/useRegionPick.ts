// The region picker's state inside React: the view (regionSearch.ts) kept in a ref as well as
// in state, so that keys arriving in one burst (Down Down Enter) each see the one before.
import { useRef, useState } from 'react';
import { useInput } from 'ink';
import { splitKeys } from '../keys.js';
import { firstView, highlighted, moved, pickerAction, searched } from '../regionSearch.js';
import type { PickerView, RegionChoice } from '../regionSearch.js';

interface RegionPickHandlers {
  regions: RegionChoice[];
  initial?: number;
  onPick(index: number): void;
  onCancel(how: 'quit' | 'interrupt'): void;
}

/** The view the keys made; a pick or a cancel is handed on once, later keys are ignored. */
export function useRegionPick(p: RegionPickHandlers): PickerView {
  const [view, setView] = useState(() => firstView(p.regions.length, p.initial));
  const at = useRef(view);
  const done = useRef(false);
  const show = (v: PickerView) => {
    at.current = v;
    setView(v);
  };
  useInput((input, key) => {
    for (const ev of splitKeys(input, key)) {
      if (done.current) return;
      const action = pickerAction(at.current.query, ev);
      if (action === null) continue;
      if (action.type === 'move') show(moved(at.current, action.by, p.regions.length));
      else if (action.type === 'search') show(searched(at.current, p.regions, action.query));
      else if (action.type === 'cancel') {
        done.current = true;
        p.onCancel(action.how);
        return;
      } else {
        const e = highlighted(at.current);
        if (e === undefined) continue;
        done.current = true;
        p.onPick(p.regions[e]!.index);
        return;
      }
    }
  });
  return view;
}
