import { Text } from 'ink';
import { TABS, type TabId } from '../types.js';

interface TabBarProps {
  active: TabId;
  width: number;
}

/** The pane tabs of small terminals; the active one is bracketed (and inverse). */
export function TabBar(p: TabBarProps) {
  const narrow = p.width < 90;
  return (
    <Text wrap="truncate-end">
      {TABS.map((t, i) => {
        const label = `${i + 1} ${narrow ? t.label.split(' ')[0] : t.label}`;
        const on = t.id === p.active;
        return (
          <Text key={t.id} inverse={on} bold={on}>
            {on ? `[${label}]` : ` ${label} `}
          </Text>
        );
      })}
      <Text> tab: next pane</Text>
    </Text>
  );
}
