// `uopscope FILE [region options] [--arch A] [--iterations N]`: the interactive explorer on a
// terminal; the text report when stdout is not one (a pipe, CI).
import { basename, join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { listRegions, loadInput, selectRegion } from '../../disasm/index.js';
import { UserError } from '../../errors.js';
import { colorEnabled } from '../../ui/theme.js';
import { writeFileAtomic } from '../atomicWrite.js';
import { archChoices, buildExplorerSession } from '../explorerSession.js';
import { addInputOptions, inputFromArgv, type InputArgv } from '../regionOptions.js';
import { printPlainReport } from '../plainReport.js';

export interface ExploreArgv extends InputArgv {
  arch: string;
  iterations: number;
  'uops-xml'?: string;
  fallback: 'skip' | 'alu';
  'export-dir': string;
}

export const DEFAULT_ARCH = 'SKL';
export const DEFAULT_ITERATIONS = 200;

function stamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

export function exploreCommand(y: Argv): Argv {
  return y.command(
    '$0 [file]',
    'explore how the scheduler runs the loop, cycle by cycle (the report when not on a terminal)',
    (a) => addInputOptions(a)
      .option('arch', { type: 'string', default: DEFAULT_ARCH, describe: 'architecture (see `uopscope data list`)' })
      .option('iterations', { type: 'number', default: DEFAULT_ITERATIONS, describe: 'loop iterations to simulate (1 = latency analysis)' })
      .option('uops-xml', { type: 'string', describe: "uops.info's instructions.xml to read instead of the imported or embedded data" })
      .option('fallback', { choices: ['skip', 'alu'] as const, default: 'skip' as const, describe: 'instructions without data: skip (IACA\'s X) or one ALU µop' })
      .option('export-dir', { type: 'string', default: '.', describe: 'directory the explorer\'s export (x) is written to' }),
    async (argv) => {
      const args = argv as unknown as ExploreArgv;
      const sel = inputFromArgv(args);
      if (!sel.file && !sel.hex && !sel.raw) throw new UserError("no input: give a FILE (a binary or an assembly source), --hex or --raw; see 'uopscope --help'");
      const iterations = Number(args.iterations);
      if (!Number.isInteger(iterations) || iterations < 1) throw new UserError(`--iterations ${args.iterations}: give a whole number ≥ 1`);
      const input = await loadInput(sel);
      const tty = Boolean(process.stdout.isTTY && process.stdin.isTTY);
      const regions = listRegions(input);
      let region = sel.region;
      // React's production build (several times faster per frame) unless the user asked otherwise;
      // React is first loaded by the import below
      if (tty && process.env.NODE_ENV === undefined) process.env.NODE_ENV = 'production';
      const { runExplorer, pickRegion } = tty ? await import('../runExplorer.js') : { runExplorer: null, pickRegion: null };
      if (tty && pickRegion && region === undefined && sel.function === undefined && sel.range === undefined && regions.length > 1) {
        const picked = await pickRegion(input.file, regions.map((r) => ({
          index: r.index, label: `${String(r.index).padStart(2)}  ${r.kind.padEnd(8)} 0x${r.start.toString(16)}–0x${r.end.toString(16)}  ${r.name}`,
        })));
        if (picked === null) return;
        region = picked;
      }
      const loaded = selectRegion(input, { ...sel, ...(region !== undefined ? { region } : {}) });
      const opts = { ...(args['uops-xml'] ? { uopsXml: args['uops-xml'] } : {}), fallback: args.fallback };
      const session = await buildExplorerSession(loaded, String(args.arch), opts);
      if (!tty || !runExplorer) {
        process.stdout.write(printPlainReport(session, iterations));
        return;
      }
      const dir = resolve(args['export-dir']);
      await runExplorer({
        session,
        iterations,
        archs: archChoices(),
        loadArch: (arch) => buildExplorerSession(loaded, arch, opts),
        saveExport: async (text) => {
          const path = join(dir, `uopscope-${basename(loaded.file).replace(/[^\w.-]/g, '_')}-${stamp()}.txt`);
          writeFileAtomic(path, text, 'export');
          return path;
        },
        color: colorEnabled(),
      });
    },
  );
}
