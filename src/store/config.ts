import { lstatSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../../types/config.js';
import {
  DEFAULT_GIT_TIMEOUT_MS,
  DEFAULT_HOOK_TIMEOUT_MS,
  DEFAULT_IDENTITY,
  DEFAULT_KEEP,
  DEFAULT_MAX_FILE_SIZE_BYTES,
  DEFAULT_MAX_STORE_BYTES,
  DEFAULT_ON_DIRTY,
  DEFAULT_REPORT_MAX_FILE_DIFF_BYTES,
  DEFAULT_REPORT_MAX_TOTAL_DIFF_BYTES,
  type Identity,
  type OnDirty,
} from '../../types/config.js';
import { LoadConfigOptionsArg, SettingsOptionsArg } from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { ConfigInvalidError, InvalidArgumentError } from '../errors.js';
import { errnoOf } from '../fs/atomic.js';
import { DEFAULT_LOCK_TIMEOUT_MS } from '../fs/lock.js';
import { readRegularFile } from '../fs/regular-file.js';
import { parseConfigCached } from './config-cache.js';
import { layout, type HomeSource } from './paths.js';

/** Everything the services need, with every default applied and every path absolute. */
export interface Settings {
  home: string;
  /** The config file that was read, or null when there was none. */
  configFile: string | null;
  artifactsDir: string;
  identity: Identity;
  onDirty: OnDirty;
  gitTimeoutMs: number;
  lockTimeoutMs: number;
  checkpoints: { maxFileSizeBytes: number; keep: number; maxStoreBytes: number };
  hooks: { timeoutMs: number; recordPrompts: boolean };
  /** How much diff the HTML report embeds (see DiffLimits in src/report/patches.ts). */
  report: { maxFileDiffBytes: number; maxTotalDiffBytes: number };
  sharing: { includeGateLogs: boolean };
}

export interface LoadConfigOptions {
  home: string;
  /** `--config FILE`: must exist. Without it, `<home>/config.yaml` is read when present. */
  configFile?: string;
  /** Base for a relative `configFile` (default: the process's working directory). */
  cwd?: string;
}

/** Explicit choices (CLI options) that beat the environment and the config file. */
export interface SettingsOptions extends LoadConfigOptions {
  /** What chose `home` (chooseHome), named when it is no directory; default: the caller's own choice. */
  homeSource?: HomeSource;
  artifactsDir?: string;
  onDirty?: OnDirty;
  gitTimeoutMs?: number;
  lockTimeoutMs?: number;
  identity?: Identity;
  /** Where $AGENTGATE_ARTIFACTS_DIR is read (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Loads the config file and applies the environment, the explicit options and the defaults. A home
 * or artifacts directory that cannot be one (inTheWay) is refused first, naming what set it:
 * INVALID_ARGUMENT, or CONFIG_INVALID for the config file's `artifactsDir`. The explicit settings are
 * checked by config.yaml's own rules (an empty home or artifacts directory, a timeout of 0, an
 * empty identity): INVALID_ARGUMENT naming the option.
 */
export async function resolveSettings(opts: SettingsOptions): Promise<Settings> {
  checkArgument(SettingsOptionsArg, opts, 'opts');
  return settingsFor(opts);
}

/** Settings made here, known to fit their shape: a Snapshotter given one does not check it again. */
const resolved = new WeakSet<object>();

/** Whether `settings` is what resolveSettings (or settingsFor) returned. */
export function isResolvedSettings(settings: unknown): boolean {
  return typeof settings === 'object' && settings !== null && resolved.has(settings);
}

/**
 * resolveSettings for options whose types are already known good (the CLI's, from its parser):
 * the shape check costs a few milliseconds of every command's start.
 */
export async function settingsFor(opts: SettingsOptions): Promise<Settings> {
  assertHomeDir(resolve(opts.cwd ?? process.cwd(), opts.home), opts.homeSource);
  const { config, file } = await readConfig(opts);
  const settings = applySettings(config, file, opts);
  assertArtifactsDir(settings, chooseArtifactsDir(config, opts).source);
  resolved.add(settings);
  return settings;
}

/**
 * Reads and validates the config file (yaml + zod). A missing default file is an empty config; a
 * missing `--config` file, bad yaml or a bad value is CONFIG_INVALID naming the file, the key and
 * the problem. Paths in the file are returned absolute, resolved against the file's directory.
 */
export async function loadConfig(opts: LoadConfigOptions): Promise<Config> {
  checkArgument(LoadConfigOptionsArg, opts, 'opts');
  return (await readConfig(opts)).config;
}

/**
 * Precedence for the artifacts directory: explicit option > $AGENTGATE_ARTIFACTS_DIR > config >
 * `<home>/artifacts`; for the rest: explicit option > config > default.
 */
export function applySettings(config: Config, configFile: string | null, opts: SettingsOptions): Settings {
  return {
    home: resolve(opts.cwd ?? process.cwd(), opts.home),
    configFile,
    artifactsDir: chooseArtifactsDir(config, opts).dir,
    identity: opts.identity ?? config.identity ?? DEFAULT_IDENTITY,
    onDirty: opts.onDirty ?? config.onDirty ?? DEFAULT_ON_DIRTY,
    gitTimeoutMs: opts.gitTimeoutMs ?? config.gitTimeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
    lockTimeoutMs: opts.lockTimeoutMs ?? config.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
    checkpoints: {
      maxFileSizeBytes: config.checkpoints?.maxFileSizeBytes ?? DEFAULT_MAX_FILE_SIZE_BYTES,
      keep: config.checkpoints?.keep ?? DEFAULT_KEEP,
      maxStoreBytes: config.checkpoints?.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES,
    },
    hooks: {
      timeoutMs: config.hooks?.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
      recordPrompts: config.hooks?.recordPrompts ?? false,
    },
    report: {
      maxFileDiffBytes: config.report?.maxFileDiffBytes ?? DEFAULT_REPORT_MAX_FILE_DIFF_BYTES,
      maxTotalDiffBytes: config.report?.maxTotalDiffBytes ?? DEFAULT_REPORT_MAX_TOTAL_DIFF_BYTES,
    },
    sharing: { includeGateLogs: config.sharing?.includeGateLogs ?? false },
  };
}

type ArtifactsSource = '--artifacts-dir' | 'AGENTGATE_ARTIFACTS_DIR' | 'config' | 'default';

/** The artifacts directory by the precedence above, with what chose it. */
function chooseArtifactsDir(config: Config, opts: SettingsOptions): { dir: string; source: ArtifactsSource } {
  const cwd = opts.cwd ?? process.cwd();
  const fromEnv = (opts.env ?? process.env).AGENTGATE_ARTIFACTS_DIR;
  if (opts.artifactsDir !== undefined)
    return { dir: expandPath(cwd, opts.artifactsDir), source: '--artifacts-dir' };
  if (fromEnv) return { dir: expandPath(cwd, fromEnv), source: 'AGENTGATE_ARTIFACTS_DIR' };
  if (config.artifactsDir !== undefined) return { dir: config.artifactsDir, source: 'config' };
  return { dir: layout(resolve(cwd, opts.home)).artifacts, source: 'default' };
}

/** INVALID_ARGUMENT when a file stands at the home or above it: nothing could be read or kept there. */
function assertHomeDir(home: string, source: HomeSource | undefined): void {
  const why = inTheWay(home);
  if (why === null) return;
  const named = { what: 'agentgate home', option: '--home', variable: 'AGENTGATE_HOME' };
  throw new InvalidArgumentError(notADirectory(home, why, source, named), {
    details: { home, source: source ?? null },
  });
}

/** As assertHomeDir, for the artifacts directory: CONFIG_INVALID when the config file chose it. */
function assertArtifactsDir(settings: Settings, source: ArtifactsSource): void {
  const dir = settings.artifactsDir;
  const why = inTheWay(dir);
  if (why === null) return;
  if (source === 'config' && settings.configFile !== null) {
    const file = settings.configFile;
    const problem = `${dir} ${UNUSABLE} (${why})`;
    throw new ConfigInvalidError(
      `${file}: artifactsDir: ${problem}; name a directory, or a path not there yet`,
      {
        details: { path: file, issues: [{ key: 'artifactsDir', problem }] },
      },
    );
  }
  const named = {
    what: 'artifacts directory',
    option: '--artifacts-dir',
    variable: 'AGENTGATE_ARTIFACTS_DIR',
  };
  throw new InvalidArgumentError(notADirectory(dir, why, source, named), {
    details: { artifactsDir: dir, source },
  });
}

/** The message for a directory setting that names a file: what set it, and how to set it right. */
function notADirectory(
  path: string,
  why: string,
  source: string | undefined,
  named: { what: string; option: string; variable: string },
): string {
  const { what, option, variable } = named;
  const problem = `${UNUSABLE} (${why})`;
  const right = 'a directory, or a path not there yet (it is made)';
  if (source === option) return `${option} names ${path}, which ${problem}; give ${option} ${right}`;
  if (source === variable)
    return `${variable} names ${path}, which ${problem}; set ${variable} to ${right}, or give ${option}`;
  if (source === 'default')
    return `the ${what} ${path} ${problem}; move what stands there away, or choose another with ${option} or ${variable}`;
  return `the ${what} ${path} ${problem}; give ${right}`;
}

const UNUSABLE = 'is not a directory we can use';

/**
 * Why no directory can be at `path` (a file, a symbolic link to nowhere or a loop of them, at it or
 * above it, or a path that cannot be resolved at all: `mkdir -p` would fail there; or a name not
 * there yet that holds U+FFFD: we would make another one), or null: a
 * directory, or a path that can still be made. Read synchronously: every command's start pays for
 * it, and a thread-pool round trip costs more.
 */
function inTheWay(path: string): string | null {
  try {
    return statSync(path).isDirectory() ? null : 'a file stands in its path';
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return 'a file stands in its path';
    if (code === 'ELOOP') return 'a loop of symbolic links stands in its path';
    if (code !== 'ENOENT') return `its path cannot be resolved: ${errnoOf(cause)}`;
  }
  for (let at = path; ; at = dirname(at)) {
    const found = lstatSync(at, { throwIfNoEntry: false });
    if (found !== undefined) {
      if (found.isSymbolicLink() && statSync(at, { throwIfNoEntry: false }) === undefined)
        return 'a symbolic link to nowhere stands in its path';
      // Node reads argv and the environment as UTF-8: a name that is not arrives with U+FFFD for its bytes
      // and would make another directory. A U+FFFD in a name already there is a real one.
      return path.slice(at.length).includes('\ufffd') ? NOT_UTF8 : null;
    }
    if (dirname(at) === at) return null;
  }
}

const NOT_UTF8 =
  'it holds U+FFFD, what a name that is not UTF-8 becomes as Node.js reads it, so another directory would be used: use a UTF-8 path';

async function readConfig(opts: LoadConfigOptions): Promise<{ config: Config; file: string | null }> {
  const explicit = opts.configFile !== undefined;
  const file = explicit
    ? resolve(opts.cwd ?? process.cwd(), opts.configFile as string)
    : join(resolve(opts.home), 'config.yaml');
  let text: string;
  try {
    // `--config <(...)` is a pipe read as given; the home's own file is never waited on.
    text = explicit ? await readFile(file, 'utf8') : await readHomeConfig(file);
  } catch (cause) {
    if (cause instanceof ConfigInvalidError) throw cause;
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !explicit) return { config: {}, file: null };
    const problem = code === 'ENOENT' ? 'file not found' : `unreadable (${errnoOf(cause)})`;
    throw new ConfigInvalidError(`${file}: ${problem}`, {
      cause,
      details: { path: file, issues: [{ key: null, problem }] },
    });
  }
  // Parsed by the yaml parser only when the text is not the one an agent hook cached (config-cache.ts).
  const config = await parseConfigCached(resolve(opts.home), file, text);
  if (config.artifactsDir !== undefined) config.artifactsDir = expandPath(dirname(file), config.artifactsDir);
  return { config, file };
}

/**
 * `<home>/config.yaml`, read without ever blocking: a FIFO, socket or device there is CONFIG_INVALID,
 * not read, as reading one waits for a writer (every command, and an agent hook past its time
 * budget, would hang). A missing or unreadable file gets readFile's own error.
 */
async function readHomeConfig(file: string): Promise<string> {
  const read = await readRegularFile(file);
  if (read === null) return readFile(file, 'utf8');
  if ('bytes' in read) return read.bytes.toString('utf8');
  const problem = `a ${read.special}, not a regular file (it is not read: reading it would wait)`;
  throw new ConfigInvalidError(`${file}: ${problem}`, {
    details: { path: file, issues: [{ key: null, problem }] },
  });
}

/** Resolves `~` and `~/...` against the user's home, anything else against `base`. */
function expandPath(base: string, value: string): string {
  if (value === '~') return homedir();
  if (value.startsWith('~/')) return join(homedir(), value.slice(2));
  return resolve(base, value);
}
