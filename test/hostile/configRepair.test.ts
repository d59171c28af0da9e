// The config file could not be repaired by the command its error recommends: with a bad "arch"
// in config.json, `config set arch SKL` and `config unset arch` failed with the error that tells
// the user to set SKL. `config set/unset KEY` now replaces KEY without reading it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertOneLine, cli, tempDir } from './helpers.js';

function badConfig(): { env: NodeJS.ProcessEnv; path: string } {
  const dir = tempDir('badconfig');
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify({ arch: '../../etc', iterations: 300 }));
  return { env: { UOPSCOPE_CONFIG_DIR: dir }, path };
}

test('the error names the bad setting (the baseline)', () => {
  assertOneLine(cli(['config'], { env: badConfig().env }), /"arch" in .*config\.json/);
});

test('config set arch SKL repairs a bad arch and keeps the other settings', () => {
  const c = badConfig();
  const r = cli(['config', 'set', 'arch', 'SKL'], { env: c.env });
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(JSON.parse(readFileSync(c.path, 'utf8')), { arch: 'SKL', iterations: 300 });
  assert.equal(cli(['config'], { env: c.env }).code, 0);
});

test('config unset arch repairs it too', () => {
  const c = badConfig();
  const r = cli(['config', 'unset', 'arch'], { env: c.env });
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(JSON.parse(readFileSync(c.path, 'utf8')), { iterations: 300 });
});

test('another setting is still checked: set iterations does not hide the bad arch', () => {
  assertOneLine(cli(['config', 'set', 'iterations', '10'], { env: badConfig().env }), /"arch" in .*config\.json/);
});
