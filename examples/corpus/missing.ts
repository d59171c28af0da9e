// Writes examples/corpus/MISSING.md: for every instruction form of the corpus builds (general-
// purpose and vector) and every embedded architecture, whether the project's matcher finds
// figures for it in the embedded data (assets/uarch/embedded/*.xml and the LLVM-derived
// assets/uarch/llvm).
//
//   node --import tsx examples/corpus/missing.ts [--check]
//
// "yes" means: src/data resolveInstructions, with loadArchData(arch) reading only the embedded
// data (a fresh temporary cache directory, so an imported uops.info file never counts), resolves
// every occurrence of the form in the builds that core can run. A core can run a build when its
// machine model (assets/uarch/machines/<ARCH>.json `isa`) has the extensions of the build's ISA
// tier (forms.ts TIER_ISA); a form that occurs only in builds the core cannot run is "n/a".
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadArchData, loadMachine, resolveInstructions } from '../../src/data/index.js';
import { UserError } from '../../src/errors.js';
import type { ArchData, ArchName, ResolvedInstruction } from '../../src/data/types.js';
import { decodeCorpus, formRows, runsTier, type DecodedBuild, type FormRow } from './forms.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The architectures issue 3 asks the embedded default to cover, as MISSING.md's columns.
 *  KBL and CFL are not columns: their machine models inherit SKL's data (checked by the test). */
export const EMBEDDED_ARCHS = [
  'SNB',
  'IVB',
  'HSW',
  'BDW',
  'SKL',
  'SKX',
  'CLX',
  'ICL',
  'TGL',
  'RKL',
  'ADL-P',
  'SPR',
] as const;
/** Architectures covered through inheritance only. */
export const INHERITING_ARCHS = ['KBL', 'CFL'] as const;

export type Status = 'yes' | 'missing' | 'partial' | 'n/a';

export interface Cell {
  status: Status;
  /** occurrences in the builds this core runs, and how many of them resolve */
  total: number;
  resolved: number;
  /** data forms used for occurrences matched by operand width only (rule signature-width) */
  neighbours: string[];
}

export interface CoverageRow extends FormRow {
  cells: Record<string, Cell>;
}

/** The embedded data of one architecture, with inheritance; no forms when it has none. */
export async function embeddedArchData(arch: ArchName, cacheDir: string): Promise<ArchData> {
  try {
    return await loadArchData(arch, { cacheDir });
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return { arch, source: { kind: 'embedded', path: '(none)', forms: 0 }, forms: [] };
  }
}

/** Decodes every build once and resolves it for every architecture that runs its tier. */
export async function coverage(builds?: DecodedBuild[]): Promise<{ builds: number; rows: CoverageRow[] }> {
  const decoded = builds ?? (await decodeCorpus());
  const rows: CoverageRow[] = formRows(decoded).map((r) => ({ ...r, cells: {} }));
  const byForm = new Map(rows.map((r) => [r.form, r]));
  const cacheDir = mkdtempSync(join(tmpdir(), 'uopscope-missing-'));
  try {
    for (const arch of EMBEDDED_ARCHS) {
      const isa = loadMachine(arch).isa;
      const data = await embeddedArchData(arch, cacheDir);
      for (const r of rows) r.cells[arch] = { status: 'n/a', total: 0, resolved: 0, neighbours: [] };
      for (const b of decoded) {
        if (!runsTier(isa, b.isa)) continue;
        const res: ResolvedInstruction[] = resolveInstructions(b.instructions, data);
        b.instructions.forEach((d, i) => {
          const c = byForm.get(d.signature)!.cells[arch]!;
          c.total++;
          const r = res[i]!;
          if (r.unknown) return;
          c.resolved++;
          if (r.rule === 'signature-width' && r.form && !c.neighbours.includes(r.form.string))
            c.neighbours.push(r.form.string);
        });
      }
      for (const r of rows) {
        const c = r.cells[arch]!;
        c.status = c.total === 0 ? 'n/a' : c.resolved === c.total ? 'yes' : c.resolved === 0 ? 'missing' : 'partial';
      }
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  return { builds: decoded.length, rows };
}

function cellText(c: Cell): string {
  if (c.status === 'partial') return `**partial** (${c.resolved}/${c.total})`;
  return c.status === 'missing' ? '**missing**' : c.status;
}

export async function missingText(builds?: DecodedBuild[]): Promise<string> {
  const { builds: nBuilds, rows } = await coverage(builds);
  const perArch = EMBEDDED_ARCHS.map((a) => {
    const cells = rows.map((r) => r.cells[a]!);
    const count = (s: Status, vector?: boolean) =>
      rows.filter((r) => r.cells[a]!.status === s && (vector === undefined || r.vector === vector)).length;
    return (
      `| ${a} | ${rows.length - count('n/a')} | ${count('yes')} (${count('yes', false)} gpr, ${count('yes', true)} vector) | ` +
      `${count('missing')} (${count('missing', false)} gpr, ${count('missing', true)} vector) | ${count('partial')} | ${count('n/a')} | ` +
      `${cells.reduce((s, c) => s + c.resolved, 0)} / ${cells.reduce((s, c) => s + c.total, 0)} |`
    );
  });
  const complete = rows.filter((r) =>
    EMBEDDED_ARCHS.every((a) => r.cells[a]!.status === 'yes' || r.cells[a]!.status === 'n/a'),
  ).length;
  const neighbours = rows.flatMap((r) =>
    EMBEDDED_ARCHS.filter((a) => r.cells[a]!.neighbours.length).map(
      (a) => `- \`${r.form}\` on ${a}: figures of ${r.cells[a]!.neighbours.map((n) => `\`${n}\``).join(', ')}`,
    ),
  );
  const gpr = rows.filter((r) => !r.vector).length;
  const table = rows.map(
    (r) =>
      `| \`${r.form}\` | ${r.count} | ${r.vector ? 'vector' : 'gpr'} | ${r.isas.join(',')} | ${EMBEDDED_ARCHS.map((a) => cellText(r.cells[a]!)).join(' | ')} |`,
  );
  return [
    '# Embedded data: what the corpus needs and what is missing',
    '',
    'Generated by `node --import tsx examples/corpus/missing.ts` from the corpus builds',
    '(`examples/corpus/bin`, decoded with the project decoder as in `forms.txt`), the machine models',
    '(`assets/uarch/machines/*.json`) and the embedded data (`assets/uarch/embedded/*.xml`, `assets/uarch/llvm/`); do not edit',
    'by hand. `test/corpus/coverage.test.ts` fails when this file and the matcher disagree.',
    '',
    "A cell says whether uopscope's matcher (`resolveInstructions` with `loadArchData(ARCH)` on the",
    'embedded data alone) finds figures for the form on that core:',
    '',
    '- `yes`: every occurrence of the form in the builds the core can run resolves;',
    '- `**missing**`: none does (uopscope marks the line `?` and applies the fallback);',
    '- `**partial** (r/n)`: r of the n occurrences resolve (the signature is shared by forms the matcher',
    '  tells apart, e.g. LEA address shapes);',
    '- `n/a`: the form occurs only in builds the core cannot run. A core runs a build when its machine',
    "  model lists the extensions of the build's ISA tier: sse2 (SSE, SSE2), avx2 (AVX, AVX2, FMA, BMI1,",
    '  BMI2, LZCNT, MOVBE: what `-march=haswell` adds), avx512 (AVX512F/CD/BW/DQ/VL of',
    '  `-march=skylake-avx512`). So SNB and IVB run only the sse2 builds, HSW/BDW/SKL/ADL-P the sse2 and',
    '  avx2 builds, SKX/CLX/ICL/TGL/RKL/SPR all three.',
    '',
    "KBL and CFL are not columns: their machine models inherit SKL's data, and the test checks that",
    "they resolve exactly as SKL does. CLX inherits SKX's XML data the same way; its LLVM-derived figures are its own (LLVM's cascadelake).",
    '',
    `Builds: ${nBuilds}. Forms: ${rows.length} (${gpr} general-purpose, ${rows.length - gpr} vector).`,
    `Forms with figures on every core that runs them: ${complete}.`,
    '',
    '| arch | forms it runs | yes | missing | partial | n/a | instructions resolved |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...perArch,
    '',
    '"instructions resolved" counts occurrences (one per instruction in each build the core runs).',
    '',
    '## Where the figures come from',
    '',
    'Per line, the resolver takes the first source that has figures (docs/data.md): an imported',
    "uops.info file (never here: the cache is empty), the embedded XML (the SUACA thesis's forms on",
    "SNB/SKL in `assets/uarch/embedded/thesis-forms.xml`, two divisions on ADL-P read from uops.info's",
    'pages in `div.xml`), then the LLVM-derived model (`assets/uarch/llvm`, generated by',
    "`tools/llvm-sched` from LLVM 19's X86 scheduling models: a model, not measurements). The LLVM",
    'layer is what makes every corpus form resolve on every core; its figures differ from',
    'measurements in known ways (docs/data.md, "What the LLVM model gets wrong"). For measured',
    "figures import uops.info's own file: `uopscope data import instructions.xml`.",
    '',
    '## Resolved through a neighbouring form',
    '',
    "The matcher's third rule (`signature-width`, docs/data.md) uses a form that differs only in the",
    'width of an immediate or branch offset. These cells are `yes` through such a form:',
    '',
    ...(neighbours.length ? neighbours : ['(none)']),
    '',
    'Not a neighbour but worth knowing: gcc emits `rep bsf` for `__builtin_ctzll` at `-march=x86-64`',
    '(`bitscan`, sse2 builds); the decoder names it `TZCNT (R64, R64)`, and on SNB and IVB, whose machine',
    'models lack BMI1, the matcher looks it up as `BSF (R64, R64)`, which is what those cores execute.',
    '',
    '## Coverage per form and architecture',
    '',
    'Ordered by occurrences in the builds; "tiers" are the ISA tiers of the builds the form occurs in.',
    '',
    `| form | occurrences in builds | class | tiers | ${EMBEDDED_ARCHS.join(' | ')} |`,
    `| --- | --- | --- | --- | ${EMBEDDED_ARCHS.map(() => '---').join(' | ')} |`,
    ...table,
    '',
  ].join('\n');
}

async function main() {
  const text = await missingText();
  const target = join(here, 'MISSING.md');
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== text) {
      console.error('MISSING.md is out of date: run node --import tsx examples/corpus/missing.ts');
      process.exit(1);
    }
    return;
  }
  writeFileSync(target + '.tmp', text);
  renameSync(target + '.tmp', target);
  console.log(`wrote ${target}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
