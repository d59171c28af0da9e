import { configCommand } from './config.js';
import { dataCommand } from './data.js';
import { disasmCommand } from './disasm.js';
import { exploreCommand } from './explore.js';
import { graphCommand } from './graph.js';
import { measureCommand } from './measure.js';
import { regionsCommand } from './regions.js';
import { reportCommand } from './report.js';
import type { CommandModule } from './args.js';

export const commands: CommandModule[] = [
  disasmCommand,
  regionsCommand,
  graphCommand,
  dataCommand,
  reportCommand,
  configCommand({
    load: async () => {
      const { loadMachine } = await import('../../data/machines.js');
      return (arch) => {
        loadMachine(arch);
      };
    },
  }),
  exploreCommand,
  measureCommand,
];
