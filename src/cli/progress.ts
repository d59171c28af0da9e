// A one-line progress bar on stderr, drawn only when stderr is a terminal.
import type { EngineOptions, Simulate } from '../sim/index.js';

interface Progress {
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

/** Nothing is drawn before a long piece of work has taken this long (ms): a short one stays silent. */
export const PROGRESS_DELAY_MS = 500;

/** A region of at least this many lines shows each stage of its report (RunsProgress.stage):
 *  from there a report takes seconds before and after its simulations (measured with --fast and
 *  one iteration on this 2-vCPU guest under load: 10,000 lines 3.9 s of CPU, 50,000 lines 13 s;
 *  looking up figures, building the model and the placements of a relocatable object's loop take
 *  most of it), and said nothing until its output. */
export const LARGE_REGION_LINES = 5_000;

const elapsedText = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

/**
 * The progress of a report's simulations on stderr, when it is a terminal: after
 * PROGRESS_DELAY_MS, at most 10 times a second, `simulating: 45% · 1 of 3 runs done · 12 s` (the
 * percentage is of the runs known so far, each run's share its completed instances over its
 * total), then, once the work ends, one line `uopscope: simulated 3 runs in 12 s`. Runs in this
 * thread report through `simulate` wrapped by `tracked`; runs in worker threads write into
 * `slots(n)`'s shared array ([2k] completed, [2k+1] total of run k) and `tick` redraws. Writes
 * nothing when the stream is not a terminal: stdout and a redirected stderr are never touched.
 */
export class RunsProgress {
  private readonly shown: boolean;
  private readonly start: number;
  private last = -Infinity;
  private drawn = false;
  /** the region's lines, once a stage was shown */
  private lines = 0;
  /** per run: [completed, total] (a run not started: [0, 0]) */
  private readonly runs: Int32Array[] = [];

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly now: () => number = Date.now,
    private readonly delayMs = PROGRESS_DELAY_MS,
  ) {
    this.shown = stream.isTTY === true;
    this.start = now();
  }

  /** A large region's report has reached `what` (`looking up figures`, `simulating`, …):
   *  `uopscope: 50,000 lines · simulating · 12 s` at once, for a region of LARGE_REGION_LINES
   *  lines or more (a smaller one's stages pass too quickly to read); the runs' own line replaces
   *  it once they have taken PROGRESS_DELAY_MS. */
  stage(what: string, lines: number): void {
    if (!this.shown || lines < LARGE_REGION_LINES) return;
    this.lines = lines;
    const line = `uopscope: ${lines.toLocaleString('en-US')} lines · ${what} · ${elapsedText(this.now() - this.start)}`;
    this.stream.write(`\r\x1b[2K${line.slice(0, Math.max(1, (this.stream.columns || 80) - 1))}`);
    this.drawn = true;
  }

  /** `n` runs to be made elsewhere (worker threads): their shared [completed, total] pairs. */
  slots(n: number): Int32Array {
    const a = new Int32Array(new SharedArrayBuffer(8 * Math.max(1, n)));
    for (let k = 0; k < n; k++) this.runs.push(a.subarray(2 * k, 2 * k + 2));
    return a;
  }

  /** One run in this thread: its progress callback, and `end` once it has finished. */
  local(): { onProgress: (completed: number, total: number) => void; end: () => void } {
    const slot = this.slots(1);
    return {
      onProgress: (completed, total) => {
        slot[0] = completed;
        slot[1] = total;
        this.tick();
      },
      end: () => {
        slot[0] = slot[1] = 1;
        this.tick();
      },
    };
  }

  /** Redraws when due. */
  tick(): void {
    if (!this.shown) return;
    const t = this.now();
    if (t - this.start < this.delayMs || t - this.last < 100) return;
    this.last = t;
    let sum = 0;
    let finished = 0;
    for (const r of this.runs) {
      const total = Atomics.load(r, 1);
      const frac = total > 0 ? Math.min(1, Atomics.load(r, 0) / total) : 0;
      sum += frac;
      if (total > 0 && frac >= 1) finished++;
    }
    const n = this.runs.length;
    const pct = n > 0 ? Math.floor((100 * sum) / n) : 0;
    const line = `simulating: ${pct}% · ${finished} of ${n} run${n === 1 ? '' : 's'} done · ${elapsedText(t - this.start)}`;
    this.stream.write(`\r\x1b[2K${line.slice(0, Math.max(1, (this.stream.columns || 80) - 1))}`);
    this.drawn = true;
  }

  /** The work has ended: the bar is erased and, when it was shown and the work `ok`, one line
   *  says what it took (after a failure the error's line follows instead). */
  done(ok = true): void {
    if (!this.drawn) return;
    const n = this.runs.length;
    const runs = `${n} run${n === 1 ? '' : 's'}`;
    const took = elapsedText(this.now() - this.start);
    this.stream.write(
      ok
        ? `\r\x1b[2Kuopscope: ${this.lines > 0 ? `reported ${this.lines.toLocaleString('en-US')} lines (${runs}) in ${took}` : `simulated ${runs} in ${took}`}\n`
        : '\r\x1b[2K',
    );
    this.drawn = false;
  }

  /** `sim` with each run's progress reported here. */
  tracked(sim: Simulate): Simulate {
    return (program, params, config, opts) => {
      const run = this.local();
      const result = sim(program, params, config, { ...opts, onProgress: run.onProgress });
      run.end();
      return result;
    };
  }
}

/** Job k's engine options with its progress written into `slots` ([2k] completed, [2k+1] total),
 *  `tick` called after each write. */
export function withProgress(
  o: EngineOptions | undefined,
  slots: Int32Array | undefined,
  k: number,
  tick?: () => void,
): EngineOptions | undefined {
  if (slots === undefined) return o;
  return {
    ...o,
    onProgress: (completed, total) => {
      Atomics.store(slots, 2 * k, completed);
      Atomics.store(slots, 2 * k + 1, total);
      tick?.();
    },
  };
}

/** Job k has finished: its share is whole. */
export function jobDone(slots: Int32Array | undefined, k: number): void {
  if (slots === undefined) return;
  Atomics.store(slots, 2 * k, 1);
  Atomics.store(slots, 2 * k + 1, 1);
}
