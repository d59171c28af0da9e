#!/usr/bin/env node
// uopscope's command line: one module per command under src/cli/commands, wired here.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { runCli } from './run.js';

await runCli(yargs(hideBin(process.argv)));
