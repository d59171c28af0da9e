// Measured-figure files are input: their provenance strings (cpu, command, …) reached the
// terminal raw in `data list`, disasm's footnote and the report's notes (a title set, the screen
// cleared). Now the validator refuses control characters in every text of the file, in one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, assertOneLine, cli, tempDir } from './helpers.js';

const SHIPPED = join(ROOT, 'assets', 'uarch', 'measured', 'ZEN4.json');

function planted(edit: (f: Record<string, any>) => void): string {
  const cache = tempDir('measuredtext');
  const file = JSON.parse(readFileSync(SHIPPED, 'utf8'));
  // as if measured on a Skylake: the file of a core uopscope models
  file.arch = 'SKL';
  file.provenance.core.arch = 'SKL';
  edit(file);
  mkdirSync(join(cache, 'measured'));
  writeFileSync(join(cache, 'measured', 'SKL.json'), JSON.stringify(file));
  return cache;
}

for (const [field, edit] of [
  ['cpu', (f: Record<string, any>) => (f.provenance.cpu = '\x1b]0;owned\x07AMD EPYC')],
  ['command', (f: Record<string, any>) => (f.provenance.command = 'uopscope data measure\x1b[2J')],
  ['form key', (f: Record<string, any>) => (f.forms['ADD (R64, R64)\x1b[31m'] = Object.values(f.forms)[0])],
] as const) {
  test(`a measured file whose ${field} holds control characters is refused in one line`, () => {
    const cache = planted(edit);
    for (const args of [
      ['data', 'list'],
      ['report', 'examples/bin/branch', '--arch', 'SKL', '--iterations', '5'],
      ['disasm', 'examples/bin/branch', '--arch', 'SKL'],
    ]) {
      const r = cli(args, { cache });
      assert.doesNotMatch(r.out + r.err, /\x1b/, `${args.join(' ')}: raw escape`);
      assertOneLine(r, /measured figures .*SKL\.json: .*control characters/);
    }
  });
}
