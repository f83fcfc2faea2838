import { readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { UnsafeWorkspaceError } from '../errors.js';
import { hasEscapedBytes } from '../fs/path-bytes.js';
import { configEntries, notUtf8Driver, readConfigFile } from './config-file-read.js';
import { DRIVER_AND_INCLUDE_PATTERN } from './hardening.js';
import type { GitOptions } from './runner.js';

/*
 * The scan of a repository's config files for the drivers git would run (src/git/repo.ts
 * neutralises what it finds): every file, every include, read as bytes.
 */

/**
 * Read with the driver keys (driverKeys): whether the repository sets core.attributesFile or
 * core.autocrlf costs no git call.
 */
const OPEN_PATTERN = `${DRIVER_AND_INCLUDE_PATTERN}|^core\\.(attributesfile|autocrlf)$`;

/** The config files of a repository: the shared one, and this work tree's own (read whether or not it is enabled). */
export function configFiles(commonDir: string, gitDir: string): string[] {
  return [join(commonDir, 'config'), join(gitDir, 'config.worktree')];
}

/**
 * More config files than this, in a repository and what it includes, is no repository we can vouch
 * for: refused rather than read in part (a file read late could name a driver).
 */
const MAX_CONFIG_FILES = 256;

/** git stops at this include depth (MAX_INCLUDE_DEPTH): a file included deeper makes git fail, never applied. */
const MAX_INCLUDE_DEPTH = 10;

/**
 * The driver keys of every config file of the repository and of every file they include, whatever
 * the include's condition, and `core.attributesfile` and `core.autocrlf` if one of them sets them. Every include is
 * followed (a file once, a missing one costing nothing): UNSAFE_WORKSPACE past MAX_CONFIG_FILES.
 */
export async function driverKeys(base: GitOptions, files: readonly string[]): Promise<string[]> {
  const keys: string[] = [];
  const seen = new Set<string>();
  const queue = files.map((file) => ({ file, depth: 0 }));
  // Breadth first, so a name is first read at its least depth.
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const { file, depth } = next;
    // By name, not real path: git places a relative include beside the including file as named,
    // so one file named two ways (a symlink) can include two different files.
    if (seen.has(file)) continue;
    const text = await readConfigFile(file, base.cwd);
    if (text === null) continue;
    seen.add(file);
    if (seen.size > MAX_CONFIG_FILES)
      throw new UnsafeWorkspaceError(
        `the config of ${base.cwd} includes more than ${MAX_CONFIG_FILES} files; refusing a repository whose config we cannot read whole: remove the includes you do not need`,
        { details: { workspace: base.cwd, maxConfigFiles: MAX_CONFIG_FILES } },
      );
    for (const { key, value } of await configEntries(base, file, text, OPEN_PATTERN)) {
      if (/^include/i.test(key)) {
        if (value !== '' && depth < MAX_INCLUDE_DEPTH)
          queue.push({ file: configPath(value, dirname(file)), depth: depth + 1 });
      } else if (hasEscapedBytes(key)) {
        throw notUtf8Driver(file, key, base.cwd);
      } else keys.push(key);
    }
  }
  return keys;
}

/**
 * A path as git takes it from config (interpolate_path): `~/` is $HOME, `~user/` that user's home
 * directory, a relative path is relative to `base` (an include's: its file's directory). Joined as
 * git joins them, without resolving `..` by name. A path we cannot place as git would (an unknown
 * user, `%(prefix)/`: git's install prefix) is UNSAFE_WORKSPACE: it could name a file with drivers.
 */
export function configPath(path: string, base: string): string {
  if (path.startsWith('%(prefix)/')) throw unplaceable(path, "git's installation directory");
  if (!path.startsWith('~')) return isAbsolute(path) ? path : `${base.replace(/\/+$/, '')}/${path}`;
  const slash = path.indexOf('/');
  const user = path.slice(1, slash < 0 ? undefined : slash);
  const home = user === '' ? (process.env.HOME ?? homedir()) : homeOf(user);
  if (home === null) throw unplaceable(path, `the home directory of user ${JSON.stringify(user)}`);
  return home + (slash < 0 ? '' : path.slice(slash));
}

function unplaceable(path: string, what: string): UnsafeWorkspaceError {
  return new UnsafeWorkspaceError(
    `a git config names the path ${JSON.stringify(path)} in ${what}, which agentgate cannot locate as git would; refusing the repository: write that path out in full (absolute, or relative to its config file)`,
    { details: { path } },
  );
}

/** A user's home directory as getpwnam gives it: the current user's, else from /etc/passwd; null if unknown. */
function homeOf(user: string): string | null {
  try {
    const me = userInfo();
    if (me.username === user) return me.homedir;
  } catch {
    // No entry for our own uid: look the name up like any other.
  }
  let passwd: string;
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return null;
  }
  for (const line of passwd.split('\n')) {
    const fields = line.split(':');
    if (fields[0] === user && fields.length >= 7) return fields[5] ?? null;
  }
  return null;
}
