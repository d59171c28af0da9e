import type { Argv } from 'yargs';
import { loadMachine } from '../../data/index.js';
import { configCommand } from './config.js';
import { dataCommand } from './data.js';
import { disasmCommand } from './disasm.js';
import { exploreCommand } from './explore.js';
import { graphCommand } from './graph.js';
import { regionsCommand } from './regions.js';
import { reportCommand } from './report.js';

/** A command module adds its command(s) to the parser. Add yours to the list below. */
export type CommandModule = (y: Argv) => Argv;

export const commands: CommandModule[] = [
  disasmCommand, regionsCommand, graphCommand, dataCommand,
  reportCommand,
  configCommand((arch) => { loadMachine(arch); }),
  exploreCommand,
];
