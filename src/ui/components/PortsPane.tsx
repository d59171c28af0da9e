import { Box, Text } from 'ink';
import type { Snapshot } from '../../sim/types.js';
import { clip, bar, firstFitting, fit, fitList, inst } from '../format.js';
import { useTint } from './ThemeContext.js';

export interface PortsPaneProps {
  width: number;
  snapshot: Snapshot;
}

/** One column per port (µop now, cumulative µops and use as a bar), the divider, ready, front end. */
export function PortsPane(p: PortsPaneProps) {
  const tint = useTint();
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
  const ready = fitList('ready: ', s.ready.map(inst), p.width, 'none');
  // the longest form that fits: numbers are never cut
  const next = s.frontEnd.next;
  const r = s.frontEnd.refined;
  // the refined front end: where this cycle's µops came from, delivered and issued
  // (fused domain), the IDQ's occupancy
  const src = r ? (r.source ?? '—') : '';
  const idq = r && r.idq !== null ? `, IDQ ${r.idq}/${r.idqSize}` : '';
  const fe = r
    ? firstFitting(p.width, [
        `front end: ${src} delivered ${r.delivered}, issued ${r.issued}${idq}${next ? `, next ${inst(next)}` : ', all issued'}`,
        `front end: ${src} delivered ${r.delivered}, issued ${r.issued}${idq}`,
        `FE ${src}: in ${r.delivered}, issued ${r.issued}${idq}`,
        `FE ${src} ${r.delivered}/${r.issued}${r.idq !== null ? ` Q${r.idq}` : ''}`,
      ])
    : firstFitting(
        p.width,
        next
          ? [
              `front end: next ${inst(next)} (${next.uopsLeft} µop${next.uopsLeft === 1 ? '' : 's'} left), loaded ${s.frontEnd.loadedThisCycle} this cycle`,
              `front end: next ${inst(next)} (${next.uopsLeft} left), ${s.frontEnd.loadedThisCycle} loaded`,
              `FE: next ${inst(next)} (${next.uopsLeft} left), ${s.frontEnd.loadedThisCycle} loaded`,
              `FE: ${inst(next)}, ${s.frontEnd.loadedThisCycle} loaded`,
            ]
          : [
              `front end: all loaded, ${s.frontEnd.loadedThisCycle} this cycle`,
              `FE: all loaded, ${s.frontEnd.loadedThisCycle} now`,
            ],
      );
  // µops so far: one unit for the row (k, M) when a count would not fit its column
  const scale =
    [1, 1e3, 1e6].find((u) => s.ports.every((ps) => String(Math.round(ps.cumulative / u)).length <= cw - 1)) ?? 1e6;
  const unit = scale === 1 ? '' : scale === 1e3 ? ' (so far in thousands)' : ' (so far in millions)';
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold>{clip(`Ports: µop now / µops so far / use${unit}`, p.width)}</Text>
      <Text wrap="truncate-end">
        {s.ports
          .map((ps) => cell(`p${ps.port}`))
          .join('')
          .trimEnd()}
      </Text>
      <Text wrap="truncate-end" color={tint('green')}>
        {now.map(cell).join('').trimEnd()}
      </Text>
      <Text wrap="truncate-end">
        {s.ports
          .map((ps) => cell(String(Math.round(ps.cumulative / scale))))
          .join('')
          .trimEnd()}
      </Text>
      <Text wrap="truncate-end" color={tint('magenta')}>
        {s.ports.map((ps) => bar(ps.use, cw - 1) + ' ').join('')}
      </Text>
      <Text wrap="truncate-end" color={d.busy ? tint('red') : undefined}>
        {clip(divider, p.width)}
      </Text>
      <Text wrap="truncate-end">{ready}</Text>
      <Text wrap="truncate-end">{clip(fe, p.width)}</Text>
    </Box>
  );
}
