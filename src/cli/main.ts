#!/usr/bin/env node
// uopscope's command line: one module per command under src/cli/commands, wired here.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { runCli } from './run.js';

const args = hideBin(process.argv);
// `-` (standard input, as llvm-mca takes it) would reach yargs as an empty string: name it
const STDIN_ARG = '<stdin>';
await runCli(yargs(args.map((a) => (a === '-' ? STDIN_ARG : a))), args);
