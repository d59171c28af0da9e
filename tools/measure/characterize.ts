// Characterizes this machine's core for every form of the measured corpus — the marked loops of
// every corpus build (examples/corpus/bin: gcc and clang, -O2/-O3, sse2/avx2/avx512, the forms of
// examples/corpus/forms.txt), the thesis examples of examples/bin and every AVX2 and AVX-512
// gather the host runs (a compiled loop's gathers; no corpus loop has one) — with `uopscope data
// measure`'s method (docs/characterize.md), into the shipped measured figures of the core,
// assets/uarch/measured/<ARCH>.json. Resumable: run again to finish an interrupted run; on
// another machine it adds that machine's core.
//
//   node --import tsx tools/measure/characterize.ts [--core ARCH] [--output FILE] [--runs N] [--repetitions N]
//
// Forms the host cannot run (AVX-512 on a core without it) fault in the harness and are written
// with the reason, as every other figure that fails a check.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { decodeCorpus } from '../../examples/corpus/forms.js';
import { loadRegion, type DecodedInstruction } from '../../src/disasm/index.js';
import { characterizeHost } from '../../src/cli/commands/dataMeasureRun.js';
import { shippedMeasuredPath } from '../../src/data/measuredFormat.js';
import { parseArchName } from '../../src/data/archName.js';
import { hostCore } from '../../src/measure/host.js';
import { allInstructions, cpuFlags, hostHas } from '../../src/measure/characterize/allForms.js';
import { microcodeDependence } from '../../src/data/microcode.js';
import { UserError } from '../../src/errors.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name: string): string | undefined => {
  const k = process.argv.indexOf(`--${name}`);
  return k > 0 ? process.argv[k + 1] : undefined;
};

async function main(): Promise<void> {
  const instrs: DecodedInstruction[] = [];
  for (const b of await decodeCorpus()) instrs.push(...b.instructions);
  for (const f of ['adc-chain', 'six-mov', 'stencil', 'branch', 'mca-markers'])
    instrs.push(...(await loadRegion({ file: join(ROOT, 'examples/bin', f) })).instructions);
  const corpus = instrs.length;
  // only the forms whose extensions the host's flags list (the others would fault)
  const flags = cpuFlags(readFileSync('/proc/cpuinfo', 'utf8'));
  // the gathers: their figures depend on the microcode, so this machine's own are what a loop
  // with gathers on it is predicted with (src/data/microcode.ts)
  const gathers = allInstructions(flags).instrs.filter((d) => microcodeDependence(d) === 'gather');
  instrs.push(...gathers);
  const runnable = instrs.filter((d) => d.cpuid.every((c) => hostHas(c, flags)));
  const core = arg('core') ?? hostCore()?.arch ?? undefined;
  const arch = core !== undefined ? parseArchName(core) : null;
  if (!arch) throw new UserError(`name this host's core with --core (CPUID does not map to one uopscope knows)`);
  const output = arg('output') ?? shippedMeasuredPath(arch);
  const runs = arg('runs'),
    reps = arg('repetitions');
  await characterizeHost(
    runnable,
    `the measured corpus's forms (examples/corpus/bin, ${corpus} instructions) and the host's ${gathers.length} gather forms; ${instrs.length - runnable.length} need extensions the host lacks`,
    {
      all: false,
      // the host's core is said as identified (CPUID), not as named, unless --core names it
      ...(arg('core') !== undefined ? { core: arch } : {}),
      output,
      argv: [],
      command: `node --import tsx tools/measure/characterize.ts ${process.argv.slice(2).join(' ')}`.trim(),
      ...(runs ? { runs: Number(runs) } : {}),
      ...(reps ? { repetitions: Number(reps) } : {}),
    },
  );
}

main().catch((e) => {
  process.stderr.write(`${e instanceof UserError ? e.message : (e as Error).stack}\n`);
  process.exit(e instanceof UserError ? 2 : 1);
});
