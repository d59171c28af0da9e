// One form with 300,000 in-bounds <latency> entries (a 17 MB instructions.xml) made every line of
// a region scan them all: a 1,000-line region took ~30 s of CPU. The entries are now reduced once
// per form (resolve.ts latencyIndex).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyse } from '../../src/cli/pipeline.js';
import { smallText, tempDir } from './helpers.js';

test('a form with 300,000 latency entries costs them once, not once per line', { timeout: 300_000 }, async () => {
  const dir = tempDir('entries');
  const anchor = '<latency cycles="1" start_op="2" target_op="3"/>\n';
  const xml = smallText();
  const at = xml.indexOf(anchor) + anchor.length;
  let extra = '';
  for (let k = 0; k < 300_000; k++)
    extra += `          <latency cycles="${1 + (k % 3)}" start_op="${1 + (k % 2)}" target_op="${1 + (Math.floor(k / 2) % 3)}"/>\n`;
  const file = join(dir, 'instructions.xml');
  writeFileSync(file, xml.slice(0, at) + extra + xml.slice(at));
  const asm = join(dir, 'adds.s');
  writeFileSync(asm, `.intel_syntax noprefix\nl:\n${'add rax, rcx\n'.repeat(1000)}jnz l\n`);
  const t0 = process.cpuUsage();
  const a = await analyse({ file: asm, arch: 'SKL', uopsXml: file, cacheDir: tempDir('cache') });
  const cpu = process.cpuUsage(t0);
  const seconds = (cpu.user + cpu.system) / 1e6;
  assert.equal(a.resolved.length, 1001);
  // the largest latency among the entries for operand 1 (2) reaches the written register
  assert.equal(a.resolved[0]!.latencyByResource.RAX, 2);
  assert.ok(seconds < 12, `${seconds.toFixed(1)} s of CPU`);
});
