// Test helper: machine code assembled by the real GNU assembler (Intel syntax), as bytes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function assemble(intel: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-asm-'));
  try {
    writeFileSync(join(dir, 'k.s'), `.intel_syntax noprefix\n.text\n${intel}\n`);
    execFileSync('as', ['--64', '-o', join(dir, 'k.o'), join(dir, 'k.s')]);
    execFileSync('objcopy', ['-O', 'binary', '--only-section=.text', join(dir, 'k.o'), join(dir, 'k.bin')]);
    return readFileSync(join(dir, 'k.bin'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `line` repeated n times, one per line. */
export function times(n: number, line: string): string {
  return Array.from({ length: n }, () => line).join('\n');
}
