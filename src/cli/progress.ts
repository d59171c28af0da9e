// A one-line progress bar on stderr, drawn only when stderr is a terminal.

export interface Progress {
  update(done: number, total: number): void;
  done(): void;
}

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { update() {}, done() {} };
  let last = 0;
  let drawn = false;
  const mb = (n: number) => (n / 1048576).toFixed(0);
  return {
    update(done, total) {
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      const width = Math.max(10, Math.min(40, (stream.columns || 80) - label.length - 30));
      const frac = total > 0 ? Math.min(1, done / total) : 0;
      const fill = Math.round(frac * width);
      stream.write(
        `\r${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${(frac * 100).toFixed(0).padStart(3)}% ${mb(done)}/${mb(total)} MB`,
      );
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}

/**
 * The download's bar: bytes so far / total (when the server said) and the rate since the start,
 * `downloading [#####.....]  48% 71.2/148.0 MB  9.8 MB/s`, or without a total
 * `downloading 71.2 MB  9.8 MB/s`. Drawn only when `stream` is a terminal, at most 10 times a second.
 */
export function downloadBar(
  label: string,
  stream: NodeJS.WriteStream = process.stderr,
  now: () => number = Date.now,
): { update(done: number, total: number | null): void; done(): void } {
  if (!stream.isTTY) return { update() {}, done() {} };
  const start = now();
  let first: number | null = null;
  let last = 0;
  let drawn = false;
  const mb = (n: number) => (n / 1e6).toFixed(1);
  return {
    update(done, total) {
      const t = now();
      if (first === null) first = done;
      if (t - last < 100 && (total === null || done < total)) return;
      last = t;
      const secs = (t - start) / 1000;
      const rate = secs > 0.05 ? `  ${mb((done - first) / secs)} MB/s` : '';
      let line: string;
      if (total !== null && total > 0) {
        const width = Math.max(10, Math.min(30, (stream.columns || 80) - label.length - 40));
        const frac = Math.min(1, done / total);
        const fill = Math.round(frac * width);
        line = `${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${(frac * 100).toFixed(0).padStart(3)}% ${mb(done)}/${mb(total)} MB${rate}`;
      } else {
        line = `${label} ${mb(done)} MB${rate}`;
      }
      stream.write(`\r\x1b[2K${line}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}
