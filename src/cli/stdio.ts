// Standard output and error without Node's stream objects until something needs them.
//
// Node creates process.stdout (and process.stderr) on first use: for a pipe that loads its net and
// stream modules, a noticeable share of a report's start-up. A report prints one text: it is
// written to descriptor 1 directly (writeStdout), and the handlers the command line puts on the
// streams (a closed pipe is not an error, run.ts) are put there when the stream is first created
// (whenFirstUsed), by whatever uses it: yargs's help, the explorer, a message on standard error.
import { fstatSync, writeSync } from 'node:fs';
import { UserError, printable } from '../errors.js';

/** What `-` (standard input, as llvm-mca takes it) is named before yargs parses the command
 *  line: yargs would take `-` for an empty string. */
export const STDIN_ARG = '<stdin>';

/** A write to standard output that failed for another reason than a reader that stopped (a full
 *  disk, an I/O error): not a bug of uopscope, one line and exit 74 (EX_IOERR). */
function stdoutWriteError(err: NodeJS.ErrnoException): UserError {
  const why = err.code
    ? `${err.code}${err.message.startsWith(`${err.code}: `) ? `: ${err.message.slice(err.code.length + 2).split(',')[0]}` : ''}`
    : err.message;
  // a descriptor not open for writing: standard output closed (`>&-`; bin/uopscope.cjs makes it so)
  if (err.code === 'EBADF')
    return new UserError(
      `cannot write to standard output: it is closed (${why}); give it a file, or /dev/null to discard what it prints`,
      74,
    );
  return new UserError(
    `cannot write to standard output (${why}); check where it goes (a full disk, a closed device) and run again`,
    74,
  );
}

/** The write failed because the program reading the output stopped early (`uopscope … | head`):
 *  not an error of uopscope, which then stops quietly with status 0, as when all was read. */
function readerStopped(err: NodeJS.ErrnoException): boolean {
  return err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED';
}

/** Handles a failed write on the standard output stream: status 0 when the reader stopped, else
 *  stdoutWriteError's one line on standard error and its status. */
export function quietOnClosedPipe(
  stream: NodeJS.WriteStream,
  exit: (code: number) => void = (c) => process.exit(c),
): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (readerStopped(err)) {
      exit(0);
      return;
    }
    const e = stdoutWriteError(err);
    process.stderr.write(`uopscope: ${printable(e.message, 2000)}\n`);
    exit(e.exitCode);
  });
}

const created = { stdout: false, stderr: false };

/** Runs `setup` on process[name] when Node creates it (at once when it exists already or cannot
 *  be watched). */
export function whenFirstUsed(name: 'stdout' | 'stderr', setup: (stream: NodeJS.WriteStream) => void): void {
  const own = Object.getOwnPropertyDescriptor(process, name);
  if (created[name] || !own?.get || !own.configurable) {
    created[name] = true;
    setup(process[name]);
    return;
  }
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: own.enumerable ?? false,
    get() {
      Object.defineProperty(process, name, own); // Node's own getter again (it keeps the stream)
      created[name] = true;
      const stream = own.get!.call(process) as NodeJS.WriteStream;
      setup(stream);
      return stream;
    },
  });
}

/** The terminal's width when standard output is a terminal, else undefined (without creating
 *  process.stdout for a pipe or a file). */
export function stdoutColumns(): number | undefined {
  try {
    if (!fstatSync(1).isCharacterDevice()) return undefined;
  } catch {
    return undefined;
  }
  return process.stdout.columns;
}

/** Whether descriptor 1 or 2 is a terminal, without creating its stream (nor loading node:tty,
 *  which loads net) when it is a pipe or a file: only a character device can be one. */
export function isTerminal(fd: 1 | 2): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return (fd === 1 ? process.stdout : process.stderr).isTTY === true;
}

/**
 * Writes `text` to standard output, as process.stdout.write would on Linux (where its writes to
 * files, pipes and terminals are synchronous). A reader that stopped early (EPIPE) ends the
 * command quietly with status 0, as quietOnClosedPipe does; a descriptor that would
 * block (EAGAIN) gets the rest through process.stdout, which waits for it.
 */
export function writeStdout(text: string): void {
  if (created.stdout) {
    process.stdout.write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done, bytes.length - done);
  } catch (e) {
    if (readerStopped(e as NodeJS.ErrnoException)) process.exit(0);
    if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
      process.stdout.write(bytes.subarray(done));
      return;
    }
    throw stdoutWriteError(e as NodeJS.ErrnoException);
  }
}
