// The closing table of `uopscope data measure` and `uopscope data list` count a measured file
// the same way: forms written, used (their checks passed), marked (failed a check, not used) by
// why. Deterministic: the file is made from characterization results, not measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userMeasuredPath, writeMeasured } from '../../../src/data/measuredFormat.js';
import { zen4File } from './virtualMachine.js';
import { measuredForm } from '../../../src/measure/characterize/measuredOut.js';
import { comparePasses } from '../../../src/measure/characterize/passes.js';
import type { FormResult } from '../../../src/measure/characterize/types.js';
import { usageLines } from '../../../src/cli/commands/dataMeasureRun.js';

const dir = mkdtempSync(join(tmpdir(), 'uopscope-usage-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const result = (key: string, lat: number, tp: number, extra: Partial<FormResult> = {}): FormResult => ({
  key,
  intel: 'add rax, rbx',
  latencies: [{ value: lat, spread: 0.01, method: 'm', from: 'op0 (gpr64)', to: 'op0 (gpr64)' }],
  throughput: { value: tp, spread: 0.01, method: 'm' },
  ports: [{ count: 1, combination: 'p0123', ports: [0, 1, 2, 3], from: 'measured' }],
  portsFrom: 'measured',
  notes: [],
  benches: 4,
  ...extra,
});

test("data measure's closing table and data list agree on what is used", () => {
  const cache = join(dir, 'cache');
  const file = zen4File('uopscope data measure --hex 4801d8');
  file.forms['ADD (R64, R64)'] = measuredForm(
    comparePasses(result('ADD (R64, R64)', 1, 0.25), result('ADD (R64, R64)', 1, 0.25)),
  );
  file.forms['SUB (R64, R64)'] = measuredForm(
    comparePasses(result('SUB (R64, R64)', 1, 0.25), result('SUB (R64, R64)', 1, 0.5)),
  );
  file.forms['XOR (R64, R64)'] = measuredForm(
    comparePasses(result('XOR (R64, R64)', 1, 0.25), result('XOR (R64, R64)', 2, 0.25)),
  );
  file.forms['OR (R64, R64)'] = measuredForm(
    result('OR (R64, R64)', 1, 0.25, {
      portsInconsistent: 'the port usage implies at least 1.00 cycles per instruction',
    }),
  );
  writeMeasured(userMeasuredPath('ZEN4', cache), file);

  const table = usageLines(file).join('\n');
  assert.match(table, /written +4 +forms in the file/);
  assert.match(table, /used +1 +passed their checks/);
  assert.match(
    table,
    /marked +3 +failed a check, not used:\n +2 +two passes disagree\n +1 +port usage contradicts the throughput/,
  );

  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.cts', 'data', 'list', '--json'], {
    encoding: 'utf8',
    env: { ...process.env, UOPSCOPE_CACHE_DIR: cache, UOPSCOPE_CONFIG_DIR: join(dir, 'cfg') },
  });
  assert.equal(r.status, 0, r.stderr);
  const rows = (JSON.parse(r.stdout) as { sources: { arch: string; kind: string; forms: number; unused?: number }[] })
    .sources;
  const row = rows.find((x) => x.arch === 'ZEN4' && x.kind === 'measured');
  assert.ok(row, JSON.stringify(rows));
  assert.equal(row.forms, 1);
  assert.equal(row.unused, 3);
});
