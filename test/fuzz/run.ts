// `npm run fuzz -- --seconds 600 [--seed N] [--only objects|xml|harness]`: the structure-aware
// fuzzers of `npm test` (test/disasm/fuzz.test.ts, test/data/fuzz.test.ts,
// test/measure/harnessFuzz.test.ts) run for longer, each
// for the given time. The seed is printed first; a finding names the seed and the case, which
// replays on its own (genObjectCase / genXmlCase / genHarnessCase with caseSeed(seed, case)).
// The harness fuzzer runs on Linux x86-64 only.
import { runObjectFuzz } from './objectFuzz.js';
import { runXmlFuzz } from './xmlFuzz.js';
import { runHarnessFuzz } from './harnessFuzz.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const seconds = Number(arg('seconds') ?? 60);
const seed = Number(arg('seed') ?? Date.now() % 0x7fffffff);
const only = arg('only');
if (!Number.isFinite(seconds) || seconds <= 0 || !Number.isInteger(seed)) {
  console.error('usage: npm run fuzz -- [--seconds N] [--seed N] [--only objects|xml|harness]');
  process.exit(2);
}
const log = (s: string) => console.log(`  … ${s}`);
console.log(`fuzz: seed ${seed}, ${seconds} s per fuzzer`);
let failed = false;
if (only === undefined || only === 'objects') {
  try {
    console.log(`objects: ${JSON.stringify(runObjectFuzz(seed, seconds, Infinity, log))}`);
  } catch (e) {
    failed = true;
    console.log(`objects: FOUND ${(e as Error).message}`);
  }
}
if (only === undefined || only === 'xml') {
  try {
    console.log(`xml: ${JSON.stringify(await runXmlFuzz(seed, seconds, Infinity, log))}`);
  } catch (e) {
    failed = true;
    console.log(`xml: FOUND ${(e as Error).message}`);
  }
}
if ((only === undefined || only === 'harness') && process.platform === 'linux' && process.arch === 'x64') {
  try {
    console.log(`harness: ${JSON.stringify(await runHarnessFuzz(seed, seconds, Infinity, undefined, log))}`);
  } catch (e) {
    failed = true;
    console.log(`harness: FOUND ${(e as Error).message}`);
  }
}
process.exit(failed ? 1 : 0);
