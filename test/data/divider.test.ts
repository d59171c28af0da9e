// Which divisions leave the divider idle, and what is said about them (src/data/divider.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { missingDivider } from '../../src/data/divider.js';
import type { ResolvedInstruction } from '../../src/data/types.js';

const resolved = (over: Partial<ResolvedInstruction>): ResolvedInstruction => ({
  line: 2,
  form: null,
  rule: 'code',
  uops: 4,
  ports: [{ count: 3, ports: [1] }],
  latencyByResource: { RAX: 23 },
  maxLatency: 23,
  divCycles: 0,
  variant: 'plain',
  unknown: false,
  fallback: null,
  origin: 'llvm',
  provenance: { key: 'Idiv_rm64:m', text: 'LLVM 19.1.7 alderlake model (Idiv_rm64:m)' },
  ...over,
});

test('a division with µops and no divider cycles is named, with the model that gives it none', () => {
  const x = missingDivider('IDIV', resolved({}));
  assert.ok(x);
  assert.equal(x.why, 'LLVM 19.1.7 alderlake model gives this form no divider resource (only its µops on the ports)');
  assert.equal(x.short, "no divider in LLVM's model");
  const m = missingDivider(
    'DIVSD',
    resolved({ origin: 'uops.info', provenance: { key: 'DIVSD (XMM, XMM)', text: '' } }),
  );
  assert.match(m!.why, /^the figures for DIVSD \(XMM, XMM\) \(measured by uops\.info\) give it no divider cycles$/);
});

test('no note where the divider is used, for other instructions, or for lines without figures', () => {
  assert.equal(missingDivider('IDIV', resolved({ divCycles: 10 })), null);
  assert.equal(missingDivider('ADD', resolved({})), null);
  assert.equal(missingDivider('IDIV', resolved({ unknown: true, origin: 'none' })), null);
  assert.equal(missingDivider('IDIV', resolved({ uops: 0 })), null);
});
