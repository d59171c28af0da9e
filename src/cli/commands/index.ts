import type { Argv } from 'yargs';
import { configCommand } from './config.js';
import { dataCommand } from './data.js';
import { disasmCommand } from './disasm.js';
import { exploreCommand } from './explore.js';
import { graphCommand } from './graph.js';
import { regionsCommand } from './regions.js';
import { reportCommand } from './report.js';

/**
 * A command module adds its command(s) to the parser. Add yours to the list below. Keep the
 * module that declares a command cheap to load (yargs, the option definitions, nothing else):
 * every run of uopscope loads them all. The command's work goes into a separate module that
 * its handler loads with `await import(…)` (see report.ts and reportRun.ts).
 */
export type CommandModule = (y: Argv) => Argv;

export const commands: CommandModule[] = [
  disasmCommand, regionsCommand, graphCommand, dataCommand,
  reportCommand,
  configCommand({ load: async () => { const { loadMachine } = await import('../../data/machines.js'); return (arch) => { loadMachine(arch); }; } }),
  exploreCommand,
];
