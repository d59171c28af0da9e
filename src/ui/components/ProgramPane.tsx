import { Box, Text } from 'ink';
import { clip, count, firstFitting, fit } from '../format.js';
import type { LineState } from '../lineStates.js';
import { scrollStart } from '../layout.js';
import { useTint } from './ThemeContext.js';
import { ORIGIN_LETTER } from '../../data/types.js';
import type { SessionLine } from '../types.js';
import { COUNT_KEYS, type CountKey } from '../splitDiff.js';
import { DiffCell } from './DiffCell.js';

interface ProgramPaneProps {
  width: number;
  height: number; // rows including the title
  lines: SessionLine[];
  /** per line of `lines` (null: the line is not on this pane's path) */
  states: (LineState | null)[];
  selected: number; // index into lines
  /** lines (original numbers) that are the first half of a macro-fused pair (the snapshot's
   *  frontEnd.fusedPairs): the pair is marked F on both lines, as IACA marks fused pairs */
  fusedPairs?: readonly number[];
  /** in a split view: per line number, the counts that differ from the other side's (marked ▸) */
  diff?: ReadonlyMap<number, ReadonlySet<CountKey>> | null;
}

const LETTER: Record<CountKey, string> = { waiting: 'W', ready: 'R', executing: 'E', done: 'D' };

/** The counts of a line as the pane prints them (`W0 R1 E0 D2`), one string per count. */
function countParts(st: LineState, w: number): string[] {
  return COUNT_KEYS.map((k) => `${LETTER[k]}${count(st[k], w)}`);
}

/** The region's instructions, each with how many of its instances wait, are ready, execute, are done. */
export function ProgramPane(p: ProgramPaneProps) {
  const tint = useTint();
  const rows = Math.max(1, p.height - 1);
  const start = scrollStart(p.selected, p.lines.length, rows);
  const shown = p.lines.slice(start, start + rows);
  // the source letter (M T L ?) when the session knows where the figures come from
  const src = p.lines.some((l) => l.origin !== undefined);
  // the macro-fused pairs' mark column: F on the first half and on its Jcc
  const fusedLines = new Set<number>();
  for (const l of p.fusedPairs ?? []) {
    const k = p.lines.findIndex((x) => x.line === l);
    if (k >= 0) {
      fusedLines.add(l);
      const nx = p.lines[k + 1];
      if (nx) fusedLines.add(nx.line);
    }
  }
  const fusedW = fusedLines.size > 0 ? 2 : 0;
  const srcW = (src ? 2 : 0) + fusedW;
  // line numbers are never cut: the column takes the widest one's digits
  const numW = Math.max(3, String(Math.max(0, ...p.lines.map((l) => l.line))).length);
  // the counts are never cut: abbreviated (12k) when long, and the instruction gives way
  const countsOf = (st: LineState | null, w: number) => (st ? countParts(st, w).join(' ') : 'not on this path');
  const widest = (w: number) => Math.max(16, ...shown.map((_, k) => countsOf(p.states[start + k] ?? null, w).length));
  let digits = 6;
  while (digits > 3 && widest(digits) > Math.max(16, p.width - 2 - numW - 1 - srcW - 6)) digits--;
  const countsW = Math.min(
    Math.max(widest(digits), Math.min(28, Math.floor(p.width * 0.4))),
    p.width - 2 - numW - 1 - srcW - 6,
  );
  const asmW = Math.max(6, Math.min(44, p.width - 2 - numW - 1 - srcW - countsW));
  // the lines shown, by their numbers (as in the first column), of how many
  const more =
    p.lines.length > rows && shown.length > 0
      ? ` lines ${shown[0]!.line}-${shown[shown.length - 1]!.line} of ${p.lines.length}`
      : '';
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold>
        {clip(
          firstFitting(p.width, [
            `Program  W wait R ready E exec D done${more}`,
            `Program${more}  W R E D`,
            `Program${more}`,
          ]),
          p.width,
        )}
      </Text>
      {shown.map((l, k) => {
        const i = start + k;
        const st = p.states[i];
        const sel = i === p.selected;
        const counts = countsOf(st ?? null, digits);
        const busy = st && (st.executing > 0 ? 'green' : st.ready > 0 ? 'cyan' : st.waiting > 0 ? 'yellow' : undefined);
        return (
          <Text key={l.line} inverse={sel}>
            {sel ? '>' : ' '}
            {String(l.line).padStart(numW)}{' '}
            {src ? (
              <Text bold={l.origin === 'none'} color={l.origin === 'none' ? tint('red') : undefined}>
                {l.origin ? ORIGIN_LETTER[l.origin] : ' '}{' '}
              </Text>
            ) : null}
            {fusedW > 0 ? <Text color={tint('cyan')}>{fusedLines.has(l.line) ? 'F' : ' '} </Text> : null}
            {fit(l.asm, asmW)}
            <Text color={busy ? tint(busy) : undefined}>
              {st ? <LineCounts parts={countParts(st, digits)} marked={p.diff?.get(l.line)} /> : ` ${counts}`}
              {sel ? ''.padEnd(countsW - counts.length) : ''}
            </Text>
          </Text>
        );
      })}
    </Box>
  );
}

/** A line's counts, each after its space (the first after the instruction's column); a count
 *  that differs from the other side's takes the mark (▸) in that space. */
function LineCounts(p: { parts: string[]; marked: ReadonlySet<CountKey> | undefined }) {
  return (
    <>
      {p.parts.map((t, k) => (
        <DiffCell key={k} text={` ${t}`} differs={p.marked?.has(COUNT_KEYS[k]!) ?? false} />
      ))}
    </>
  );
}
