// `uopscope FILE [region options] [--arch A] [--iterations N]`: the interactive explorer on a
// terminal; the text report when stdout is not one (a pipe, CI).
import { basename, join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { listRegions, loadInput, selectRegion } from '../../disasm/index.js';
import { UserError } from '../../errors.js';
import { colorEnabled } from '../../ui/theme.js';
import { writeFileAtomic } from '../atomicWrite.js';
import { archChoices, buildExplorerSession, regionAnalysis } from '../explorerSession.js';
import { BUILTIN_DEFAULTS, effectiveSettings, parseArch, parseIterations } from '../config.js';
import { loadMachine } from '../../data/index.js';
import { runReport } from './report.js';
import { stopBackground } from '../offload.js';
import { addInputOptions, inputFromArgv, type InputArgv } from '../regionOptions.js';

export interface ExploreArgv extends InputArgv {
  arch?: string;
  iterations?: string | number;
  uopsXml?: string;
  fallback?: 'skip' | 'alu';
  exportDir: string;
}

function stamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

export function exploreCommand(y: Argv): Argv {
  return y.command(
    '$0 [file]',
    'explore how the scheduler runs the loop, cycle by cycle (the report when not on a terminal)',
    (a) => addInputOptions(a)
      .option('arch', { alias: 'a', type: 'string', describe: `microarchitecture (default ${BUILTIN_DEFAULTS.arch}; 'uopscope config set arch X'); switch on the fly with a` })
      .option('iterations', { alias: 'i', type: 'string', describe: `loop iterations to simulate; 1 = latency analysis (default ${BUILTIN_DEFAULTS.iterations}; 'uopscope config set iterations N')` })
      .option('uops-xml', { type: 'string', describe: "use this uops.info instructions.xml instead of the imported or embedded data" })
      .option('fallback', { choices: ['skip', 'alu'] as const, describe: 'instructions without data: skip them (IACA\'s X), or count one ALU µop of latency 1 (default skip)' })
      .option('export-dir', { type: 'string', default: '.', describe: 'directory the explorer\'s export (x) is written to' })
      .example('$0 examples/bin/branch', 'explore the thesis\'s branch example')
      .example('$0 examples/bin/stencil --arch IVB -i 3000 | less', 'not a terminal: the report'),
    async (argv) => {
      const args = argv as unknown as ExploreArgv;
      const sel = inputFromArgv(args);
      if (!sel.file && !sel.hex && !sel.raw) throw new UserError("no input: give a FILE (a binary or an assembly source), --hex or --raw; see 'uopscope --help'");
      const eff = effectiveSettings({
        ...(args.arch !== undefined ? { arch: parseArch(args.arch, '--arch') } : {}),
        ...(args.iterations !== undefined ? { iterations: parseIterations(args.iterations, '--iterations') } : {}),
      });
      const arch = eff.arch.value;
      const iterations = eff.iterations.value;
      loadMachine(arch);   // an unknown architecture is refused before the input is read
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
      const dataOpts = { ...(args.uopsXml !== undefined ? { uopsXml: args.uopsXml } : {}), ...(args.fallback !== undefined ? { fallback: args.fallback } : {}) };
      if (!tty || !runExplorer) {
        // not a terminal: the report (`uopscope report` with the same input and settings)
        process.stdout.write(await runReport({ ...sel, ...(region !== undefined ? { region } : {}) }, { arch, iterations, ...dataOpts }));
        return;
      }
      const base = regionAnalysis(loaded);
      const session = await buildExplorerSession(base, arch, dataOpts);
      const dir = resolve(args.exportDir);
      try {
        await runExplorer({
          session,
          iterations,
          archs: archChoices(dataOpts),
          loadArch: (other) => buildExplorerSession(base, other, dataOpts),
          saveExport: async (text) => {
            const path = join(dir, `uopscope-${basename(loaded.file).replace(/[^\w.-]/g, '_')}-${stamp()}.txt`);
            writeFileAtomic(path, text, 'export');
            return path;
          },
          color: colorEnabled(),
        });
      } finally {
        stopBackground();
      }
    },
  );
}
