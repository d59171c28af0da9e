import type { Argv } from 'yargs';
import { configCommand } from './config.js';

/** A command module adds its command(s) to the parser. Add yours to the list below. */
export type CommandModule = (y: Argv) => Argv;

export const commands: CommandModule[] = [
  configCommand(),
];
