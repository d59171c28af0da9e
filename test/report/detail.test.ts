import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderDetail } from '../../src/report/detail.js';
import { thesisDetail } from './fixtures.js';

test('the detail of one line prints as in thesis §2.6', () => {
  assert.equal(
    renderDetail(thesisDetail),
    [
      'Detailed delay information for instruction: mov rax, 0x1 in line 0',
      'Maximum latency: 1',
      'Latencies for dependencies:',
      'Line || 0 -> Line || Line -> 0',
      '   3 ||         1 ||         -',
      '   5 ||         1 ||         -',
      'Delay caused by dependencies:',
      'Line || was delayed || has delayed',
      '   3 ||        15.2 ||         0.0',
      '   5 ||        14.5 ||         0.0',
      'Delay caused by blocked ports:',
      'Port || was delayed || has delayed',
      '   0 ||         0.0 ||        15.1',
      '   1 ||        13.5 ||        15.1',
      '   5 ||         0.0 ||        15.1',
      '',
    ].join('\n'),
  );
});

test('a line without dependencies or ports says so instead of printing empty tables', () => {
  const text = renderDetail({
    line: 4,
    asm: 'nop',
    maxLatency: 0,
    latencies: [],
    dependencyDelays: [],
    portDelays: [],
  });
  assert.match(text, /Latencies for dependencies:\n  \(no dependencies\)\n/);
  assert.match(text, /Delay caused by blocked ports:\n  \(no ports used\)\n$/);
});
