import { Box, Text } from 'ink';
import type { Snapshot } from '../../sim/types.js';
import { clip, bar, fit, inst } from '../format.js';
import { tint } from '../theme.js';

export interface PortsPaneProps {
  width: number;
  color: boolean;
  snapshot: Snapshot;
}

/** One column per port (µop now, cumulative µops and use as a bar), the divider, ready, front end. */
export function PortsPane(p: PortsPaneProps) {
  const s = p.snapshot;
  const n = Math.max(1, s.ports.length);
  const cw = Math.max(3, Math.floor(p.width / n));
  const cell = (t: string) => fit(t, cw - 1) + ' ';
  const now = s.ports.map((ps) => {
    if (ps.uops.length === 0) return '·';
    const first = ps.uops[0]!;
    const label = cw >= 9 ? inst(first) : `L${first.line}`;
    return ps.uops.length > 1 ? `${label}+${ps.uops.length - 1}` : label;
  });
  const d = s.divider;
  const divider = d.busy
    ? `divider: busy, ${d.cyclesLeft} cycle${d.cyclesLeft === 1 ? '' : 's'} left${d.owner ? `, held by ${inst(d.owner)}` : ''}`
    : 'divider: free';
  const ready = s.ready.length ? s.ready.map(inst).join(' ') : 'none';
  const fe = s.frontEnd.next
    ? `front end: next ${inst(s.frontEnd.next)} (${s.frontEnd.next.uopsLeft} µop${s.frontEnd.next.uopsLeft === 1 ? '' : 's'} left), loaded ${s.frontEnd.loadedThisCycle} this cycle`
    : `front end: all loaded, ${s.frontEnd.loadedThisCycle} this cycle`;
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold>{clip('Ports: µop now / µops so far / use', p.width)}</Text>
      <Text wrap="truncate-end">{s.ports.map((ps) => cell(`p${ps.port}`)).join('').trimEnd()}</Text>
      <Text wrap="truncate-end" color={tint(p.color, 'green')}>{now.map(cell).join('').trimEnd()}</Text>
      <Text wrap="truncate-end">{s.ports.map((ps) => cell(String(ps.cumulative))).join('').trimEnd()}</Text>
      <Text wrap="truncate-end" color={tint(p.color, 'magenta')}>{s.ports.map((ps) => bar(ps.use, cw - 1) + ' ').join('')}</Text>
      <Text wrap="truncate-end" color={d.busy ? tint(p.color, 'red') : undefined}>{clip(divider, p.width)}</Text>
      <Text wrap="truncate-end">{clip(`ready: ${ready}`, p.width)}</Text>
      <Text wrap="truncate-end">{clip(fe, p.width)}</Text>
    </Box>
  );
}
