// Persistent defaults (SUACA's --setup / --print-default): a small JSON file in the XDG config
// directory, $XDG_CONFIG_HOME/uopscope/config.json (~/.config/uopscope/config.json), or in
// $UOPSCOPE_CONFIG_DIR when set. Written atomically (temp file + rename).

import { writeFileAtomic } from '../atomicWrite.js';
import { readSmallFile } from '../readSmall.js';
import { LockTimeout, withLockSync } from '../lock.js';
import { makeDirs } from '../mkdirs.js';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UserError, printable } from '../errors.js';
import { parseArchName } from '../data/archName.js';
import { knownArchText, loadMachine, parseArchSpelling } from '../data/machines.js';
import { hostCore } from '../measure/host.js';
import type { ArchName } from '../data/types.js';
import { DEFAULT_MODEL_NAME, type ModelName } from '../sim/mechanisms.js';
import { parseModelName } from './modelOptions.js';

/** Built-in defaults when neither a flag nor the config file says otherwise. */
export const BUILTIN_DEFAULTS = { arch: 'SKL', iterations: 200, 'export-dir': '.', model: DEFAULT_MODEL_NAME } as const;

export interface UserConfig {
  arch?: ArchName;
  iterations?: number;
  /** where the explorer's export (x) proposes to write (an absolute path) */
  'export-dir'?: string;
  /** the model (--model): suaca or refined */
  model?: ModelName;
}

type ConfigKey = keyof UserConfig;
export const CONFIG_KEYS: readonly ConfigKey[] = ['arch', 'iterations', 'export-dir', 'model'];

/** Largest iteration count accepted (memory stays flat; time grows linearly). */
const MAX_ITERATIONS = 100_000_000;

function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.UOPSCOPE_CONFIG_DIR) return env.UOPSCOPE_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.length > 0 ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'uopscope');
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'config.json');
}

/** The saved settings ({} when there is no file). A broken file is a UserError naming it.
 *  `repairing`: the setting `config set/unset` is about to replace, left out unchecked, so that
 *  the command an error about it recommends can repair it. */
export function readConfig(env: NodeJS.ProcessEnv = process.env, repairing?: string): UserConfig {
  const path = configPath(env);
  const t = readSmallFile(path, MAX_CONFIG_BYTES);
  if (!t.ok && t.missing) return {};
  if (!t.ok)
    throw new UserError(
      `the config file ${path} ${t.why}; ${t.code ? 'check its permissions or delete it' : 'delete it or replace it with a file'}`,
    );
  const text = t.text;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UserError(`the config file ${path} is not valid JSON; fix it, or delete it to go back to the defaults`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new UserError(
      `the config file ${path} must hold a JSON object such as {"arch":"${BUILTIN_DEFAULTS.arch}","iterations":200}; fix it or delete it`,
    );
  }
  const obj = { ...(raw as Record<string, unknown>) };
  if (repairing !== undefined) delete obj[repairing];
  const out: UserConfig = {};
  if (obj.arch !== undefined) out.arch = parseArch(obj.arch, `"arch" in ${path}`);
  if (obj.iterations !== undefined) out.iterations = parseIterations(obj.iterations, `"iterations" in ${path}`);
  if (obj['export-dir'] !== undefined) out['export-dir'] = parseDir(obj['export-dir'], `"export-dir" in ${path}`);
  if (obj.model !== undefined) out.model = parseModelName(obj.model, `"model" in ${path}`);
  return out;
}

/**
 * Reads the settings, changes them and saves them, holding the config file's lock (src/lock.ts):
 * two `config set` of different keys at once both keep their key. `key` is the setting being
 * replaced (readConfig's `repairing`). Returns the file written.
 */
export function updateConfig(
  key: string,
  change: (cfg: UserConfig) => UserConfig,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const path = configPath(env);
  try {
    makeDirs(configDir(env));
  } catch (err) {
    throw new UserError(
      `cannot create the config directory ${configDir(env)}: ${(err as NodeJS.ErrnoException).code ?? String(err)}; set UOPSCOPE_CONFIG_DIR to a writable directory`,
    );
  }
  let locked = false;
  try {
    return withLockSync(`${path}.lock`, { what: 'uopscope config', waitMs: 30_000 }, () => {
      locked = true;
      return writeConfig(change(readConfig(env, key)), env);
    });
  } catch (err) {
    if (locked || err instanceof UserError) throw err;
    throw new UserError(
      err instanceof LockTimeout
        ? `${printable(err.holder, 100)} has held ${err.lock} for 30 s; try again, or remove the lock if no uopscope runs`
        : `cannot lock the config file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}; set UOPSCOPE_CONFIG_DIR to a writable directory`,
    );
  }
}

/** Saves the settings atomically; returns the file written. */
function writeConfig(cfg: UserConfig, env: NodeJS.ProcessEnv = process.env): string {
  const path = configPath(env);
  try {
    writeFileAtomic(path, JSON.stringify(cfg, null, 2) + '\n', { mkdir: true });
  } catch (err) {
    throw new UserError(
      `cannot write the config file ${path}: ${(err as Error).message}; set UOPSCOPE_CONFIG_DIR to a writable directory`,
    );
  }
  return path;
}

/** Largest config file read (the real one is a few dozen bytes). */
const MAX_CONFIG_BYTES = 64 << 10;

/** Validates and normalises a value given on the command line for `key`. */
export function parseConfigValue(key: string, value: unknown): UserConfig {
  if (key === 'arch') return { arch: resolveArch(value, 'arch', { unknownPassesThrough: true }).arch };
  if (key === 'iterations') return { iterations: parseIterations(value, 'iterations') };
  if (key === 'export-dir') return { 'export-dir': resolve(parseDir(value, 'export-dir')) };
  if (key === 'model') return { model: parseModelName(value, 'model') };
  throw new UserError(`unknown setting '${key}'; the settings are: ${CONFIG_KEYS.join(', ')}`);
}

/** A directory name (not checked for existence: the export says when it cannot write). */
function parseDir(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.includes('\0')) {
    throw new UserError(`${where}: '${String(value)}' is not a directory name`);
  }
  return value.trim().startsWith('~/') ? join(homedir(), value.trim().slice(2)) : value.trim();
}

/** The core a user's architecture name chose, and how, when it was not the core's own name. */
interface ArchChoice {
  arch: ArchName;
  /** how the spelling became the core ('skylake-avx512' is SKX; `host`: which core and why) */
  note?: string;
}

/**
 * An architecture from a flag, the config file or the explorer (the edge where text becomes an
 * ArchName): a core's name in any case, a gcc/llvm-mca name the records list, or `host`/`native`
 * (the host's core, identified by src/measure/host.ts). A UserError naming `where` and quoting
 * what was typed when it is none of them; `unknownPassesThrough` leaves a well-formed name no
 * record has to the caller's check (`config set`).
 */
export function resolveArch(value: unknown, where: string, opts: { unknownPassesThrough?: boolean } = {}): ArchChoice {
  const typed = typeof value === 'string' ? value.trim() : String(value);
  const shown = printable(typed, 40);
  const s = typeof value === 'string' ? parseArchSpelling(value) : { kind: 'invalid' as const };
  const prefix = where.startsWith('--') ? `${where} ${shown}` : `${where}: '${shown}'`;
  switch (s.kind) {
    case 'core': {
      if (s.via === undefined) return { arch: s.arch };
      return { arch: s.arch, note: `${s.via} is ${s.arch}, ${loadMachine(s.arch).name}` };
    }
    case 'host': {
      const h = hostCore();
      if (!h)
        throw new UserError(
          `${prefix}: cannot read /proc/cpuinfo to identify this host's core; name the core instead (${knownArchText()})`,
        );
      if (!h.arch)
        throw new UserError(
          `${prefix}: this host's core is not one uopscope models (${h.why}); name a core instead (${knownArchText()})`,
        );
      return {
        arch: h.arch as ArchName,
        note: `${typed}: this host's core is ${h.arch}, ${loadMachine(h.arch as ArchName).name}: ${h.why}${h.note ? ` (${h.note})` : ''}`,
      };
    }
    case 'amd':
      throw new UserError(
        `${prefix}: an AMD core uopscope has no record for (it models Zen 2 to Zen 5); name a core (${knownArchText()})`,
      );
    case 'generic':
      throw new UserError(`${prefix}: a generic target, not a core; name a core (${knownArchText()})`);
    case 'unknown': {
      const name = parseArchName(typed);
      if (opts.unknownPassesThrough && name) return { arch: name };
      throw new UserError(
        `unknown architecture '${shown}'${where.startsWith('--') ? '' : ` (${where})`} — known: ${knownArchText()}`,
      );
    }
    default:
      throw new UserError(
        `${where}: '${shown}' is not an architecture name; use one such as ${BUILTIN_DEFAULTS.arch} (see 'uopscope data list')`,
      );
  }
}

/** resolveArch's core alone. */
export function parseArch(value: unknown, where: string): ArchName {
  return resolveArch(value, where).arch;
}

export function parseIterations(value: unknown, where: string): number {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_ITERATIONS) {
    throw new UserError(
      `${where}: '${printable(String(value), 40)}' is not an iteration count; give a whole number from 1 to ${MAX_ITERATIONS}`,
    );
  }
  return n;
}

interface EffectiveSetting<T> {
  value: T;
  from: 'flag' | 'config' | 'default';
}

/** A flag beats the config file, which beats the built-in default. */
export function effectiveSettings(
  flags: UserConfig,
  env: NodeJS.ProcessEnv = process.env,
): {
  arch: EffectiveSetting<ArchName>;
  iterations: EffectiveSetting<number>;
  'export-dir': EffectiveSetting<string>;
  model: EffectiveSetting<ModelName>;
} {
  const saved = readConfig(env);
  const pick = <K extends ConfigKey>(k: K): EffectiveSetting<NonNullable<UserConfig[K]>> => {
    if (flags[k] !== undefined) return { value: flags[k] as NonNullable<UserConfig[K]>, from: 'flag' };
    if (saved[k] !== undefined) return { value: saved[k] as NonNullable<UserConfig[K]>, from: 'config' };
    return { value: BUILTIN_DEFAULTS[k] as NonNullable<UserConfig[K]>, from: 'default' };
  };
  return { arch: pick('arch'), iterations: pick('iterations'), 'export-dir': pick('export-dir'), model: pick('model') };
}
