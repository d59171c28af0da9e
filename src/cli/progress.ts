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
      stream.write(`\r${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${(frac * 100).toFixed(0).padStart(3)}% ${mb(done)}/${mb(total)} MB`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}
