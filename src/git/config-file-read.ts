import { GitFailedError, UnsafeWorkspaceError } from '../errors.js';
import { decodeBytes, fsPath } from '../fs/path-bytes.js';
import { readRegularFile } from '../fs/regular-file.js';
import { parseConfigEntries } from './hardening.js';
import { runGitBuffer, type GitOptions } from './runner.js';

/**
 * The bytes of a config file git would read (a repository's config, or a file it includes), for
 * the driver scan; null when git reads nothing there (missing; a directory or an unreadable file,
 * which git fails on). `file` may hold bytes that are not UTF-8 (decodeBytes): it is opened by
 * those very bytes. A FIFO, device or socket is UNSAFE_WORKSPACE: git reads it like a file, so a
 * program writing into it could name a driver after our scan. It is never opened (stat first;
 * the open itself is non-blocking, and checked again, in case it was swapped in between).
 */
export async function readConfigFile(file: string, workspace: string): Promise<Buffer | null> {
  const read = await readRegularFile(fsPath(file));
  if (read !== null && 'special' in read) throw notRegular(file, read.special, workspace);
  return read?.bytes ?? null;
}

/**
 * The entries of config `text` (read from `file`) whose keys match `pattern`, keys and values
 * decoded losslessly. The bytes go to git on stdin: what git parses is what we checked, and a
 * name that is not UTF-8 needs no command line. git runs outside the repository, whose config
 * (a FIFO it includes) it would read on starting.
 */
export async function configEntries(
  opts: GitOptions,
  file: string,
  text: Buffer,
  pattern: string,
): Promise<readonly ConfigEntry[]> {
  // What git answers depends on the bytes and the pattern alone: a file read again unchanged (the
  // after step of `iterate` opens the repository once more) costs no second git process.
  const key = `${pattern}\0${text.toString('latin1')}`;
  const known = parsed.get(key);
  if (known !== undefined) return known;
  const entries = await askGit(opts, file, text, pattern);
  if (parsed.size >= MAX_PARSED) parsed.clear();
  parsed.set(key, entries);
  return entries;
}

type ConfigEntry = { key: string; value: string };

/** Config texts already parsed in this process, by pattern and bytes (a few per repository opened). */
const parsed = new Map<string, readonly ConfigEntry[]>();
const MAX_PARSED = 64;

async function askGit(opts: GitOptions, file: string, text: Buffer, pattern: string): Promise<ConfigEntry[]> {
  const args = ['config', '--no-includes', '--file', '-', '-z', '--get-regexp', pattern];
  try {
    const res = await runGitBuffer({ ...opts, cwd: '/' }, args, { okExitCodes: [1], input: text });
    return parseConfigEntries(decodeBytes(res.stdout));
  } catch (cause) {
    if (!(cause instanceof GitFailedError)) throw cause;
    throw new GitFailedError(
      `git cannot read the config file ${JSON.stringify(file)} (${String(cause.details.stderr)}); fix it, or remove the include that names it`,
      { cause, details: { ...cause.details, configFile: file } },
    );
  }
}

function notRegular(file: string, kind: string, workspace: string): UnsafeWorkspaceError {
  return new UnsafeWorkspaceError(
    `the git config file ${JSON.stringify(file)} of ${workspace} is a ${kind}, not a regular file: git would read whatever a program writes into it, drivers included, after agentgate checked it; refusing the repository: make it a regular file, or remove the include that names it`,
    { details: { workspace, configFile: file, kind } },
  );
}

/**
 * A driver (filter, diff, merge) whose name is not UTF-8 cannot be switched off: settings reach
 * git through the environment as UTF-8 text (GIT_CONFIG_KEY_<n>), where such a name turns into
 * U+FFFD, so its program would still run. The repository is refused instead.
 */
export function notUtf8Driver(file: string, key: string, workspace: string): UnsafeWorkspaceError {
  return new UnsafeWorkspaceError(
    `the git config file ${JSON.stringify(file)} of ${workspace} names a driver whose name is not UTF-8 (${JSON.stringify(key)}): agentgate cannot switch such a driver off, so its program could run; refusing the repository: rename the driver (and the attributes that name it) to UTF-8, or remove it`,
    { details: { workspace, configFile: file, key } },
  );
}
