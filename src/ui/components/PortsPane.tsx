import { Box, Text } from 'ink';
import type { Snapshot } from '../../sim/types.js';
import { clip, bar, count, dividerForms, firstFitting, fit, fitList, inst, instFit, onPort } from '../format.js';
import { portBands } from '../layout.js';
import { useTint } from './ThemeContext.js';
import type { PortDiff } from '../splitDiff.js';
import { DiffCell } from './DiffCell.js';
import { usePortName } from './PortNameContext.js';

interface PortsPaneProps {
  width: number;
  snapshot: Snapshot;
  /** in a split view: per port, what differs from the other side's (marked ▸) */
  diff?: ReadonlyMap<number, PortDiff> | null;
  /** in a split view: the divider's line and the ready list differ from the other side's */
  dividerDiffers?: boolean;
  readyDiffers?: boolean;
}

/** A `label: figures` line, the figures marked (▸ in the space after the colon) when they differ. */
function LabelledLine({ text, label, differs }: { text: string; label: string; differs: boolean }) {
  if (!differs || !text.startsWith(`${label} `)) return <>{text}</>;
  return (
    <>
      {label}
      <DiffCell text={text.slice(label.length)} differs />
    </>
  );
}

type Slot = Snapshot['ports'][number];

/** One row of a band: a cell per port, each a space and its text (the space takes the mark ▸
 *  when `differs` says the port's figure differs from the other side's); the last cell ends at
 *  its text. */
function BandRow(p: { band: Slot[]; cw: number; text(s: Slot): string; differs?(s: Slot): boolean }) {
  return (
    <>
      {p.band.map((ps, k) => {
        const t = ` ${fit(p.text(ps), p.cw - 1)}`;
        return (
          <DiffCell key={ps.port} text={k === p.band.length - 1 ? t.trimEnd() : t} differs={p.differs?.(ps) ?? false} />
        );
      })}
    </>
  );
}

/** One column per port (µop now, cumulative µops and use as a bar), the divider, ready, front end.
 *  A narrow pane lays the ports out in bands (layout.ts's portBands): no count is cut. */
export function PortsPane(p: PortsPaneProps) {
  const tint = useTint();
  const portName = usePortName();
  const s = p.snapshot;
  const { perBand, cellWidth: cw } = portBands(p.width, s.ports.length);
  const bands: (typeof s.ports)[] = [];
  for (let i = 0; i < s.ports.length; i += perBand) bands.push(s.ports.slice(i, i + perBand));
  // an instance still short of a port for another µop is ready, not executing: ○ says so
  const now = (ps: (typeof s.ports)[number]) => {
    if (ps.uops.length === 0) return '·';
    const first = ps.uops[0]!;
    return onPort(first, instFit(first, ps.uops.length - 1, cw - 1 - (first.waitsForPort ? 1 : 0)));
  };
  const d = s.divider;
  const divider = firstFitting(p.width, dividerForms(s));
  const ready = fitList('ready: ', s.ready.map(inst), p.width, 'none');
  const fe = frontEndLine(s, p.width);
  return (
    <Box flexDirection="column" width={p.width}>
      <Text bold>
        {clip(firstFitting(p.width, ['Ports: µop now / µops so far / use', 'Ports: now / so far / use']), p.width)}
      </Text>
      {bands.map((band) => (
        <Box key={band[0]!.port} flexDirection="column">
          <Text wrap="truncate-end">
            <BandRow band={band} cw={cw} text={(ps) => portName(ps.port)} />
          </Text>
          <Text wrap="truncate-end" color={tint('green')}>
            <BandRow band={band} cw={cw} text={now} differs={(ps) => p.diff?.get(ps.port)?.now ?? false} />
          </Text>
          <Text wrap="truncate-end">
            <BandRow
              band={band}
              cw={cw}
              text={(ps) => count(ps.cumulative, cw - 1)}
              differs={(ps) => p.diff?.get(ps.port)?.count ?? false}
            />
          </Text>
          <Text wrap="truncate-end" color={tint('magenta')}>
            <BandRow band={band} cw={cw} text={(ps) => bar(ps.use, cw - 1)} />
          </Text>
        </Box>
      ))}
      <Text wrap="truncate-end" color={d.busy ? tint('red') : undefined}>
        <LabelledLine text={clip(divider, p.width)} label="divider:" differs={p.dividerDiffers ?? false} />
      </Text>
      <Text wrap="truncate-end">
        <LabelledLine text={ready} label="ready:" differs={p.readyDiffers ?? false} />
      </Text>
      <Text wrap="truncate-end">{clip(fe, p.width)}</Text>
    </Box>
  );
}

/** The front end's line: where this cycle's µops came from (refined) or the next instruction to
 *  load (the export writes its widest form: width Infinity). */
export function frontEndLine(s: PortsPaneProps['snapshot'], width: number): string {
  // the longest form that fits: numbers are never cut
  const next = s.frontEnd.next;
  const r = s.frontEnd.refined;
  // the refined front end: where this cycle's µops came from, delivered and issued
  // (fused domain), the IDQ's occupancy
  const src = r ? (r.source ?? '—') : '';
  const idq = r && r.idq !== null ? `, IDQ ${r.idq}/${r.idqSize}` : '';
  return r
    ? firstFitting(width, [
        `front end: ${src} delivered ${r.delivered}, issued ${r.issued}${idq}${next ? `, next ${inst(next)}` : ', all issued'}`,
        `front end: ${src} delivered ${r.delivered}, issued ${r.issued}${idq}`,
        `FE ${src}: in ${r.delivered}, issued ${r.issued}${idq}`,
        `FE ${src} ${r.delivered}/${r.issued}${r.idq !== null ? ` Q${r.idq}` : ''}`,
      ])
    : firstFitting(
        width,
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
}
