// Regenerates the measured table of docs/measure.md and its summary in README.md (between their
// measure-table markers): every
// corpus kernel's marked loop (gcc -O2, sse2 build) and the thesis examples of examples/bin, run
// on this machine with `uopscope measure`, beside uopscope's prediction and llvm-mca-19's
// (Total Cycles / Iterations, -iterations=200, the same instructions) for the host's core, with
// each tool's mean absolute percentage error over the measurable loops.
//
//   node --import tsx tools/measure/table.ts [--arch A]
//
// --arch: predict for A instead of the host's core (the table says which).
// Takes a few minutes (each loop is measured with 200 repetitions). Run it on a quiet machine.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, type MeasureResult } from '../../src/cli/commands/measureRun.js';
import { buildReport } from '../../src/cli/commands/reportRun.js';
import { nothingSimulated } from '../../src/report/model.js';
import { loadRegion } from '../../src/disasm/index.js';
import { listMachines } from '../../src/data/machines.js';
import { UserError } from '../../src/errors.js';
import { DEFAULT_MODEL_NAME, MECHANISM_INFO, type MechanismInfo } from '../../src/sim/mechanisms.js';
import type { DecodedInstruction } from '../../src/disasm/types.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOC = join(ROOT, 'docs', 'measure.md');
const README = join(ROOT, 'README.md');
const BEGIN = '<!-- measure-table:begin (tools/measure/table.ts writes this part) -->';
const END = '<!-- measure-table:end -->';
const MCA = 'llvm-mca-19';

/** uopscope architecture → LLVM 19 -mcpu (the machine record's identity.llvmCpu). */
const llvmCpu = (arch: string): string | undefined => listMachines().find((m) => m.arch === arch)?.identity?.llvmCpu;

interface Row {
  name: string;
  file: string;
  measured?: number;
  variant?: string;
  spread?: number;
  uopscope?: number | null;
  refined?: number | null;
  mca?: number | null;
  why?: string;
  /** the refined model with one mechanism off, by mechanism id */
  without?: Record<string, number | null>;
}

/** The refined model's prediction for the same region and core (the measurement's prediction is
 *  SUACA's): the whole region and, when it has a branch inside, each side. */
async function refinedPrediction(
  file: string,
  arch: string,
  off?: MechanismInfo,
): Promise<{ main: number | null; left: number | null; right: number | null }> {
  const { model } = await buildReport(
    { file },
    { fast: true, model: 'refined', branch: true, arch, ...(off ? { [off.flag]: false } : {}) },
  );
  const none = nothingSimulated(model);
  return {
    main: none ? null : model.main.stats.blockThroughput,
    left: none || !model.branch ? null : model.branch.left.stats.blockThroughput,
    right: none || !model.branch ? null : model.branch.right.stats.blockThroughput,
  };
}

/** llvm-mca-19's cycles per iteration for the region's instructions (closing branch to a label). */
function mcaCycles(instrs: readonly DecodedInstruction[], cpu: string, dir: string): number | null {
  const lines = instrs.map((i, k) => (i.branch && k === instrs.length - 1 ? `${i.att.split(/\s+/)[0]} .Ltop` : i.att));
  const file = join(dir, 'region.s');
  writeFileSync(file, `.Ltop:\n${lines.join('\n')}\n`);
  const r = spawnSync(MCA, [`-mcpu=${cpu}`, '-iterations=200', file], { encoding: 'utf8' });
  if (r.status !== 0) return null;
  const cycles = /Total Cycles:\s+(\d+)/.exec(r.stdout);
  const its = /Iterations:\s+(\d+)/.exec(r.stdout);
  return cycles && its ? Number(cycles[1]) / Number(its[1]) : null;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const archFlag = argv[0] === '--arch' && argv[1] ? argv[1] : undefined;
  if (argv.length && !archFlag) {
    process.stderr.write('usage: node --import tsx tools/measure/table.ts [--arch A]\n');
    process.exit(2);
  }
  const kernels = [
    ...new Set(readdirSync(join(ROOT, 'examples/corpus/bin')).filter((f) => f.endsWith('.gcc.O2.sse2.o'))),
  ].sort();
  const inputs: { name: string; file: string }[] = [
    ...['adc-chain', 'six-mov', 'stencil', 'branch', 'mca-markers'].map((n) => ({
      name: n,
      file: `examples/bin/${n}`,
    })),
    ...kernels.map((f) => ({ name: f.replace('.gcc.O2.sse2.o', ''), file: `examples/corpus/bin/${f}` })),
  ];
  const dir = mkdtempSync(join(tmpdir(), 'uopscope-table-'));
  const rows: Row[] = [];
  let host: MeasureResult['host'] = null;
  let arch = '';
  try {
    for (const { name, file } of inputs) {
      const row: Row = { name, file };
      rows.push(row);
      try {
        const m = await measure(
          { file: join(ROOT, file) },
          { repetitions: 200, model: 'suaca', ...(archFlag ? { arch: archFlag } : {}) },
        );
        host = m.host;
        arch = m.prediction.arch;
        const refined = await refinedPrediction(join(ROOT, file), arch);
        // the refined model with each mechanism off in turn: what each one adds to the error
        const without = new Map<string, Awaited<ReturnType<typeof refinedPrediction>>>();
        for (const info of MECHANISM_INFO) without.set(info.id, await refinedPrediction(join(ROOT, file), arch, info));
        const withoutOf = (pick: 'main' | 'left' | 'right'): Record<string, number | null> =>
          Object.fromEntries([...without].map(([id, r]) => [id, r[pick]]));
        const cpu = llvmCpu(arch);
        const instrs = (await loadRegion({ file: join(ROOT, file) })).instructions;
        if (m.measurement) {
          const v = m.measurement[m.measurement.comparable];
          row.measured = v.cyclesPerIteration;
          row.variant = m.measurement.comparable;
          row.spread = v.spread;
          row.uopscope = m.prediction.blockThroughput;
          row.refined = refined.main;
          row.without = withoutOf('main');
          row.mca = cpu ? mcaCycles(instrs, cpu, dir) : null;
        } else if (m.branch) {
          // a branch inside: one row per side (the side's lines as straight-line code; llvm-mca
          // gets the same lines, the closing branch kept as the loop's)
          rows.pop();
          for (const s of m.branch.sides) {
            const side: Row = { name: `${name} (${s.side})`, file };
            rows.push(side);
            if (!s.measurement) {
              side.why = s.reason!.replace(/^not measurable: /, '');
              continue;
            }
            const v = s.measurement[s.measurement.comparable];
            side.measured = v.cyclesPerIteration;
            side.variant = s.measurement.comparable;
            side.spread = v.spread;
            side.uopscope = s.predicted;
            side.refined = s.side === 'taken' ? refined.right : refined.left;
            side.without = withoutOf(s.side === 'taken' ? 'right' : 'left');
            const keep = new Set(s.measurement.lines);
            if (s.measurement.closingBranchRemoved !== null) keep.add(s.measurement.closingBranchRemoved);
            side.mca = cpu
              ? mcaCycles(
                  s.lines.filter((l) => keep.has(l)).map((l) => instrs[l]!),
                  cpu,
                  dir,
                )
              : null;
            process.stderr.write(
              `${side.name}: ${side.why ?? `${side.measured?.toFixed(2)} measured, ${side.uopscope?.toFixed(2)} suaca, ${side.refined?.toFixed(2)} refined, ${side.mca?.toFixed(2)} llvm-mca`}\n`,
            );
          }
          continue;
        } else {
          row.why = m.reason!.replace(/^not measurable: /, '');
        }
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        row.why = e.message.replace(/^.*?not measurable: /, '');
      }
      process.stderr.write(
        `${name}: ${row.why ?? `${row.measured?.toFixed(2)} measured, ${row.uopscope?.toFixed(2)} suaca, ${row.refined?.toFixed(2)} refined, ${row.mca?.toFixed(2)} llvm-mca`}\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ok = rows.filter((r) => r.measured !== undefined && r.measured > 0);
  const mape = (pick: (r: Row) => number | null | undefined): string => {
    const xs = ok.filter((r) => typeof pick(r) === 'number');
    if (!xs.length) return '–';
    return `${((100 * xs.reduce((s, r) => s + Math.abs(pick(r)! - r.measured!) / r.measured!, 0)) / xs.length).toFixed(1)} % (${xs.length} loops)`;
  };
  const f2 = (n: number | null | undefined): string => (typeof n === 'number' ? n.toFixed(2) : '–');
  const mcaVersion =
    spawnSync(MCA, ['--version'], { encoding: 'utf8' }).stdout.match(/LLVM version [\d.]+/)?.[0] ?? MCA;
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const out: string[] = [
    BEGIN,
    '',
    `Generated ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`node --import tsx tools/measure/table.ts\` on ${host ? `${host.modelName} (${host.cpuid}${host.virtual ? ', a virtual machine' : ''})` : 'an unknown host'}, ${cpus().length} cores, load average ${load} when it finished. Predictions for ${arch}${archFlag ? ' (--arch)' : ` (the host's core: ${host?.why ?? 'unknown'})`}; llvm-mca: ${mcaVersion}, \`-mcpu=${llvmCpu(arch) ?? '?'} -iterations=200\`, Total Cycles / Iterations. Measured: the variant that corresponds to the simulation (loop for a loop), 10th percentile of 200 repetitions, cycles per iteration.`,
    '',
    `Mean absolute percentage error against the measurement: **uopscope --model suaca ${mape((r) => r.uopscope)}**, **uopscope --model refined ${mape((r) => r.refined)}**, **llvm-mca-19 ${mape((r) => r.mca)}**. The default model (src/sim/mechanisms.ts DEFAULT_MODEL_NAME) is ${DEFAULT_MODEL_NAME}.`,
    '',
    `The refined model with one mechanism switched off (each row's MAPE over the same loops; lower than the refined model's means that mechanism, as modelled, makes these predictions worse): ${MECHANISM_INFO.map((m) => `without ${m.flag} ${mape((r) => r.without?.[m.id])}`).join('; ')}.`,
    '',
    '| loop | measured | spread | suaca | refined | llvm-mca-19 |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) =>
      r.why !== undefined
        ? `| ${r.name} | not measurable: ${r.why.replace(/\|/g, '\\|')} | | | | |`
        : `| ${r.name} | ${f2(r.measured)} | ${((r.spread ?? 0) * 100).toFixed(1)} % | ${f2(r.uopscope)} | ${f2(r.refined)} | ${f2(r.mca)} |`,
    ),
    '',
    END,
  ];
  // the README carries the summary and the same table
  const summary = [
    BEGIN,
    `Measured on ${host ? `${host.modelName} (${host.cpuid}${host.virtual ? ', a VM' : ''})` : 'an unknown host'}, ${new Date().toISOString().slice(0, 10)}: ${ok.length} of ${rows.length} loops measurable (the corpus and the thesis examples); mean absolute percentage error of the predictions for ${arch}: uopscope's SUACA model ${mape((r) => r.uopscope)}, its refined model ${mape((r) => r.refined)}, llvm-mca-19 ${mape((r) => r.mca)}. The table, how to read it and the largest misses: [docs/measure.md](docs/measure.md#measured-against-the-predictions).`,
    '',
    ...out.slice(1, -1),
    END,
  ];
  for (const [file, text] of [
    [DOC, out],
    [README, summary],
  ] as const) {
    const doc = readFileSync(file, 'utf8');
    const a = doc.indexOf(BEGIN),
      b = doc.indexOf(END);
    if (a < 0 || b < a) throw new Error(`${file} has no measure-table markers`);
    writeFileSync(file, doc.slice(0, a) + text.join('\n') + doc.slice(b + END.length));
    process.stderr.write(`wrote the table into ${file}\n`);
  }
}

await main();
