// `npm run fuzz -- --seconds 600 [--seed N] [--only objects|xml]`: the two structure-aware
// fuzzers of `npm test` (test/disasm/fuzz.test.ts, test/data/fuzz.test.ts) run for longer, each
// for the given time. The seed is printed first; a finding names the seed and the case, which
// replays on its own (genObjectCase / genXmlCase with caseSeed(seed, case)).
import { runObjectFuzz } from './objectFuzz.js';
import { runXmlFuzz } from './xmlFuzz.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const seconds = Number(arg('seconds') ?? 60);
const seed = Number(arg('seed') ?? (Date.now() % 0x7fffffff));
const only = arg('only');
if (!Number.isFinite(seconds) || seconds <= 0 || !Number.isInteger(seed)) {
  console.error('usage: npm run fuzz -- [--seconds N] [--seed N] [--only objects|xml]');
  process.exit(2);
}
const log = (s: string) => console.log(`  … ${s}`);
console.log(`fuzz: seed ${seed}, ${seconds} s per fuzzer`);
let failed = false;
if (only !== 'xml') {
  try {
    console.log(`objects: ${JSON.stringify(runObjectFuzz(seed, seconds, Infinity, log))}`);
  } catch (e) {
    failed = true;
    console.log(`objects: FOUND ${(e as Error).message}`);
  }
}
if (only !== 'objects') {
  try {
    console.log(`xml: ${JSON.stringify(await runXmlFuzz(seed, seconds, Infinity, log))}`);
  } catch (e) {
    failed = true;
    console.log(`xml: FOUND ${(e as Error).message}`);
  }
}
process.exit(failed ? 1 : 0);
