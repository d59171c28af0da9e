// A symbol whose name holds control characters is listed escaped (\x1b), and --function must
// find it both by that escaped text and by the name with the characters themselves; before, the
// latter answered "no symbol '…' (it has e.g. …)" naming the very symbol.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { elf, LOOP } from '../fuzz/objects.js';
import { cli, tempDir } from './helpers.js';

function withSymbol(name: string): string {
  const strtab = Buffer.from(`\0${name}\0`, 'latin1');
  const sym = Buffer.alloc(48); // the null symbol, then the function over the loop
  sym.writeUInt32LE(1, 24);
  sym[28] = 0x12;
  sym.writeUInt16LE(1, 30);
  sym.writeBigUInt64LE(BigInt(LOOP.length), 40);
  const eh = 64,
    symOff = eh + LOOP.length,
    strOff = symOff + sym.length;
  const file = join(tempDir('escaped'), 'esc.o');
  writeFileSync(
    file,
    elf({
      body: Buffer.concat([LOOP, sym, strtab]),
      shstrtab: '\0.text\0.shstrtab\0.symtab\0.strtab\0',
      shstrndx: 4,
      sections: [
        { name: 1, type: 1, flags: 6, offset: eh, size: LOOP.length },
        { name: 17, type: 2, flags: 0, offset: symOff, size: sym.length, link: 3, entsize: 24 },
        { name: 25, type: 3, flags: 0, offset: strOff, size: strtab.length },
      ],
    }),
  );
  return file;
}

test('--function matches a name with control characters by the escaped text the listing shows and by the raw name', () => {
  const file = withSymbol('f\x1b[31mred');
  const listed = cli(['regions', file]);
  assert.equal(listed.code, 0, listed.err);
  assert.match(listed.out, /in f\\x1b\[31mred/);
  for (const typed of ['f\\x1b[31mred', 'f\x1b[31mred']) {
    const r = cli(['report', file, '--function', typed, '--fast']);
    assert.equal(r.code, 0, `${JSON.stringify(typed)}: ${r.err}`);
    assert.match(r.out, /Region: loop at 0x0 in f\\x1b\[31mred/);
    assert.doesNotMatch(r.out + r.err, /\x1b/);
  }
});
