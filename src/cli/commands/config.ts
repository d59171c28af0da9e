// `uopscope config set|unset|show`: persistent defaults for --arch and --iterations
// (SUACA's --setup and --print-default).

import type { Argv } from 'yargs';
import {
  BUILTIN_DEFAULTS,
  CONFIG_KEYS,
  configPath,
  effectiveSettings,
  parseConfigValue,
  updateConfig,
  type UserConfig,
} from '../config.js';
import { UserError, escapeControls } from '../../errors.js';
import type { ArchName } from '../../data/types.js';

/** Checks that an architecture exists before it is saved (the machine models decide). */
type ArchCheck = (arch: ArchName) => void;
/** An ArchCheck loaded when the command runs (so that declaring the command stays cheap). */
interface LazyArchCheck {
  load: () => Promise<ArchCheck>;
}

export function configCommand(checkArch: ArchCheck | LazyArchCheck = () => {}) {
  return (y: Argv): Argv =>
    y.command(
      'config [action] [key] [value]',
      `show or set the defaults of --arch (built in: ${BUILTIN_DEFAULTS.arch}), --iterations (built in: ${BUILTIN_DEFAULTS.iterations}), --export-dir (the current directory) and --model (built in: ${BUILTIN_DEFAULTS.model})`,
      (c) =>
        c
          .positional('action', {
            type: 'string',
            default: 'show',
            describe:
              'show (the default): the values in effect; set KEY VALUE; unset KEY (back to the built-in default)',
          })
          .positional('key', { type: 'string', describe: `one of: ${CONFIG_KEYS.join(', ')}` })
          .positional('value', { type: 'string', describe: 'new value (set)' })
          .example('$0 config set arch SNB', 'analyse for Sandy Bridge unless --arch says otherwise')
          .example('$0 config set iterations 500', '')
          .example('$0 config show', ''),
      async (argv) => {
        const check = typeof checkArch === 'function' ? checkArch : await checkArch.load();
        process.stdout.write(runConfig(String(argv.action), argv.key, argv.value, check));
      },
    );
}

/** The command's work, returning what it prints (tests call this with a temp config dir). */
export function runConfig(
  action: string,
  key: string | undefined,
  value: string | undefined,
  checkArch: ArchCheck = () => {},
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (action === 'show') {
    if (key !== undefined) throw new UserError(`config show: takes no setting name; it shows them all`);
    const eff = effectiveSettings({}, env);
    const from = (f: string) => (f === 'config' ? 'config file' : 'built-in default');
    return [
      `arch: ${eff.arch.value} (${from(eff.arch.from)})`,
      `iterations: ${eff.iterations.value} (${from(eff.iterations.from)})`,
      `export-dir: ${eff['export-dir'].value === '.' ? 'the current directory' : escapeControls(eff['export-dir'].value)} (${from(eff['export-dir'].from)})`,
      `model: ${eff.model.value} (${from(eff.model.from)})`,
      `config file: ${escapeControls(configPath(env))}`,
      '',
    ].join('\n');
  }
  if (action !== 'set' && action !== 'unset')
    throw new UserError(`config: unknown action '${action}'; use show, set or unset`);
  if (key === undefined)
    throw new UserError(
      `config ${action}: name a setting (${CONFIG_KEYS.join(', ')}), e.g. 'uopscope config ${action} arch${action === 'set' ? ' SKL' : ''}'`,
    );
  if (!(CONFIG_KEYS as readonly string[]).includes(key))
    throw new UserError(`config ${action}: unknown setting '${key}'; the settings are: ${CONFIG_KEYS.join(', ')}`);
  if (action === 'set') {
    if (value === undefined)
      throw new UserError(
        `config set ${key}: give a value, e.g. 'uopscope config set ${key} ${key === 'arch' ? BUILTIN_DEFAULTS.arch : key === 'export-dir' ? '~/uopscope-exports' : key === 'model' ? 'refined' : '500'}'`,
      );
    const parsed = parseConfigValue(key, value);
    if (parsed.arch !== undefined) checkArch(parsed.arch);
    const path = updateConfig(key, (cfg) => ({ ...cfg, ...parsed }), env);
    return `${key} = ${String(parsed[key as keyof UserConfig])} (saved in ${path})\n`;
  }
  if (action === 'unset') {
    if (value !== undefined) throw new UserError(`config unset ${key}: takes no value`);
    const path = updateConfig(
      key,
      (cfg) => {
        const next: UserConfig = { ...cfg };
        delete next[key as keyof UserConfig];
        return next;
      },
      env,
    );
    return `${key} = ${String(BUILTIN_DEFAULTS[key as keyof typeof BUILTIN_DEFAULTS])} (built-in default; saved in ${path})\n`;
  }
  throw new UserError(`config: unknown action '${action}'; use show, set or unset`);
}
