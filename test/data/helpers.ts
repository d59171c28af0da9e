// Shared helpers of the data tests.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DecodedInstruction, DecodedOperand, Resource } from '../../src/disasm/types.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'data');
export const SMALL = join(FIXTURES, 'small-instructions.xml');
export const smallText = () => readFileSync(SMALL, 'utf8');

export function tempDir(tag = 'data'): string {
  return mkdtempSync(join(tmpdir(), `uopscope-test-${tag}-`));
}

/** A DecodedInstruction built by hand (the decoder's output shape, src/disasm/types.ts). */
export function decoded(
  signature: string,
  over: Partial<DecodedInstruction> & { ops?: DecodedOperand[] } = {},
): DecodedInstruction {
  const { ops, ...rest } = over;
  return {
    line: 0,
    address: 0x1000,
    bytes: '90',
    length: 1,
    intel: signature.toLowerCase(),
    att: signature.toLowerCase(),
    mnemonic: signature.split(' ')[0]!.toUpperCase(),
    signature,
    operands: ops ?? [],
    iform: null,
    reads: [],
    writes: [],
    flagsRead: [],
    flagsWritten: [],
    memory: null,
    indexed: false,
    sameReg: false,
    zeroIdiom: false,
    branch: null,
    prefixes: [],
    code: '',
    cpuid: [],
    masking: null,
    broadcast: false,
    ...rest,
  };
}

export const reg = (
  kind: string,
  register: Resource,
  written: string,
  read: boolean,
  write: boolean,
): DecodedOperand => ({ kind, register, written, read, write });
export const mem = (kind: string, read: boolean, write: boolean): DecodedOperand => ({ kind, read, write });
export const imm = (kind: string, immediate: number): DecodedOperand => ({ kind, immediate, read: true, write: false });

export const ARITH_FLAGS = ['CF', 'PF', 'AF', 'ZF', 'SF', 'OF'] as const;
