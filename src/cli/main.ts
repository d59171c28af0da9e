#!/usr/bin/env node
// uopscope's command line: one module per command under src/cli/commands, wired here.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { runCli } from './run.js';

const args = hideBin(process.argv);
await runCli(yargs(args), args);
