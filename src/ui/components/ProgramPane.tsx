import { Box, Text } from 'ink';
import { clip, fit, fitLeft } from '../format.js';
import type { LineState } from '../lineStates.js';
import { scrollStart } from '../layout.js';
import { tint } from '../theme.js';

export interface ProgramPaneProps {
  width: number;
  height: number;              // rows including the title
  color: boolean;
  lines: { line: number; asm: string }[];
  /** per line of `lines` (null: the line is not on this pane's path) */
  states: (LineState | null)[];
  selected: number;            // index into lines
}

/** The region's instructions, each with how many of its instances wait, are ready, execute, are done. */
export function ProgramPane(p: ProgramPaneProps) {
  const rows = Math.max(1, p.height - 1);
  const start = scrollStart(p.selected, p.lines.length, rows);
  const shown = p.lines.slice(start, start + rows);
  const countsW = Math.min(28, Math.max(16, Math.floor(p.width * 0.4)));
  const asmW = Math.max(6, Math.min(44, p.width - 2 - 4 - countsW));
  const more = p.lines.length > rows ? ` ${start + 1}-${start + shown.length}/${p.lines.length}` : '';
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold>{clip(`Program  W wait R ready E exec D done${more}`, p.width)}</Text>
      {shown.map((l, k) => {
        const i = start + k;
        const st = p.states[i];
        const sel = i === p.selected;
        const counts = st
          ? `W${st.waiting} R${st.ready} E${st.executing} D${st.done}`
          : 'not on this path';
        const busy = st && (st.executing > 0 ? 'green' : st.ready > 0 ? 'cyan' : st.waiting > 0 ? 'yellow' : undefined);
        return (
          <Text key={l.line} inverse={sel} dimColor={!st}>
            {sel ? '>' : ' '}{fitLeft(String(l.line), 3)} {fit(l.asm, asmW)} <Text color={busy ? tint(p.color, busy) : undefined}>{sel ? fit(counts, countsW) : clip(counts, countsW)}</Text>
          </Text>
        );
      })}
    </Box>
  );
}
