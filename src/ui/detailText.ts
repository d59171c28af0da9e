// The detail (thesis §2.6) of one line as text lines: the screen's DetailPane and the export
// when a pane has no detail.
import type { LineDetail } from '../sim/types.js';
import { num, numberedPort, type PortName } from './format.js';

/**
 * Thesis §2.6 for the selected line, compact enough for half of an 80-column screen: per
 * dependency what the other line waited because of this one and what this line waited because of
 * it; per port what this line waited for the port and what others waited because this line held
 * it.
 */
export function detailLines(line: number, d: LineDetail | null, portName: PortName = numberedPort): string[] {
  if (!d) return [`Detail of line ${line}: not on this path`];
  const out = [`Detail of line ${d.line}: ${d.asm}`, `maximum latency ${d.maxLatency}`];
  const lines = [...new Set([...d.latencies.map((l) => l.line), ...d.dependencyDelays.map((l) => l.line)])].sort(
    (a, b) => a - b,
  );
  if (lines.length) {
    out.push('dependencies: latency, wait c/iter');
    out.push(
      `${'L'.padStart(4)}${'lat→L'.padStart(7)}${'lat←L'.padStart(7)}${'L waits'.padStart(9)}${'this waits'.padStart(11)}`,
    );
    for (const l of lines) {
      const lat = d.latencies.find((x) => x.line === l);
      const dl = d.dependencyDelays.find((x) => x.line === l);
      out.push(
        `${String(l).padStart(4)}${String(lat?.fromThis ?? '–').padStart(7)}${String(lat?.toThis ?? '–').padStart(7)}` +
          `${(dl ? num(dl.otherDelayedByThis) : '–').padStart(9)}${(dl ? num(dl.thisDelayedByOther) : '–').padStart(11)}`,
      );
    }
  } else out.push('no dependencies');
  if (d.portDelays.length) {
    out.push('ports: wait (c/iter)');
    out.push(`${'port'.padStart(4)}${'this waits'.padStart(12)}${'others wait'.padStart(13)}`);
    for (const x of d.portDelays)
      out.push(
        `${portName(x.port).padStart(4)}${num(x.thisDelayedByPort).padStart(12)}${num(x.othersDelayedByThis).padStart(13)}`,
      );
  }
  return out;
}
