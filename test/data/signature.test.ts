import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signatureKey, splitSignature } from '../../src/data/signature.js';
import { progressBar } from '../../src/cli/progress.js';

test('signatures normalize opcode suffixes, condition-code aliases and LOCK/REP spellings', () => {
  assert.equal(signatureKey('ADD_01 (R64, R64)'), signatureKey('ADD (R64, R64)'));
  assert.equal(signatureKey('CMP_39 (R64, R64)'), 'CMP(R64,R64)');
  assert.equal(signatureKey('JNE (Rel8)'), signatureKey('JNZ (Rel8)'));
  assert.equal(signatureKey('CMOVAE (R64, R64)'), 'CMOVNB(R64,R64)');
  assert.equal(signatureKey('SETG (R8)'), 'SETNLE(R8)');
  assert.equal(signatureKey('LOCK ADD (M64, R64)'), signatureKey('ADD_LOCK (M64, R64)'));
  assert.notEqual(signatureKey('LOCK ADD (M64, R64)'), signatureKey('ADD (M64, R64)'));
  assert.equal(signatureKey('REP STOSB'), signatureKey('REP_STOSB'));
  assert.equal(signatureKey('LEA_B_D8 (R64)'), 'LEA_B_D8(R64)');
  assert.deepEqual(splitSignature('ADD_03 (R64, R64)'), {
    prefixes: [],
    mnemonic: 'ADD',
    variant: '03',
    operands: ['R64', 'R64'],
  });
  assert.notEqual(signatureKey('ADD (R64, I8)'), signatureKey('ADD (R64, I32)'));
});

test('the progress bar draws only on a terminal', () => {
  const out: string[] = [];
  const fake = (isTTY: boolean) =>
    ({
      isTTY,
      columns: 80,
      write: (s: string) => {
        out.push(s);
        return true;
      },
    }) as unknown as NodeJS.WriteStream;
  const quiet = progressBar('importing', fake(false));
  quiet.update(50, 100);
  quiet.done();
  assert.deepEqual(out, []);
  const bar = progressBar('importing', fake(true));
  bar.update(52428800, 104857600);
  assert.match(out[0]!, /^\rimporting \[#+\.+\]  50% 50\/100 MB$/);
  bar.done();
  assert.equal(out[1], '\r\x1b[2K');
});
