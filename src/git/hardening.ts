import { isAbsolute, join } from 'node:path';
import type { Identity } from '../../types/config.js';

/**
 * The workspace was written by an untrusted agent, so its own config must not be able to make git
 * run a program. These pairs outrank the repository's config on every call (command scope, passed
 * as GIT_CONFIG_COUNT: see configEnv).
 */
export const HARDENING_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.editor=:',
  'core.quotePath=false',
  'diff.external=',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'log.showSignature=false',
  'color.ui=false',
  // Porcelain we use (cherry-pick) may start `gc --auto` or maintenance; we never ask for that.
  'gc.auto=0',
  'maintenance.auto=false',
  // A repository that claims a case-insensitive filesystem would hide a new file whose name
  // differs from a tracked one by case alone: on the filesystems we run on, names are exact.
  'core.ignoreCase=false',
  // Status and add trust the index's cached stat data: with ctime ignored and only mtime and size
  // compared, a same-size edit whose mtime was put back would look unchanged to every check.
  'core.trustctime=true',
  'core.checkStat=default',
  // The index's other caches are trusted the same way and live outside the bytes we seal
  // (index-seal.ts): the untracked cache skips directories whose stat data it holds, so a forged
  // one hides a new file; a split index keeps its entries in a shared file beside it.
  'core.untrackedCache=false',
  'core.splitIndex=false',
  // An index's offset table (IEOT) lets git's threads load its entries from the offsets it names,
  // which a forged table points elsewhere: git and our own reader (index-file.ts) read it in order.
  'index.threads=1',
  // With core.safecrlf=true, `add` refuses a file whose line endings a checkout would change: an
  // agent that set it made every capture GIT_FAILED. The file is recorded as git converts it.
  'core.safecrlf=false',
  // diff-tree still reads this one: it would change a patch regenerated later from the artifact.
  'diff.suppressBlankEmpty=false',
  // git's default. Diffs take a blob above it for binary: set low, a text file's stats would read
  // "binary, +0 -0" while its patch has text hunks. Staging's own value (-c) outranks this one.
  'core.bigFileThreshold=512m',
  // With an objects/info/alternates file, fetch, push, import and the connectivity check run this
  // command (through a shell) to list the alternate's refs. Empty: nothing runs.
  'core.alternateRefsCommand=',
  // Our messages are UTF-8: another value here would be written into each commit's `encoding`
  // header, and the message read back (verify, anyone's git log) decoded as that charset.
  'i18n.commitEncoding=UTF-8',
  // git takes a commit's parents and tree from objects/info/commit-graph, unchecked, when one is
  // there: a planted one rewrites history as grafts do (blame then gave a person's line to a run
  // whose commit it named as a parent). Every commit is read from its object instead.
  'core.commitGraph=false',
];

/**
 * Only where a work tree is compared with a tree or written out as one (a gate's workspace check,
 * an isolated checkout): a repository that claims a filesystem without executable bits or symbolic
 * links (core.fileMode, core.symlinks false) makes status pass over a mode change and a link
 * replaced by a file, and checkout write a link as a plain file. Not on every call: `before` and
 * `after` record the work as the repository's own settings see it, which git sets false at init on
 * a filesystem that lacks them (forced, every file there would be recorded as changed).
 */
export const EXACT_TREE_CONFIG: readonly string[] = ['core.fileMode=true', 'core.symlinks=true'];

/** Git options with EXACT_TREE_CONFIG added (a submodule of a repository so compared is compared so too). */
export function exactly<T extends { config?: readonly ConfigPair[] }>(opts: T): T {
  return { ...opts, config: [...(opts.config ?? []), ...EXACT_TREE_CONFIG] };
}

/**
 * For staging only: files above this size are streamed into the object store instead of read
 * whole into memory (git's default is 512 MiB), so adding a 200 MB file costs megabytes, not
 * hundreds. Passed as `-c`, which outranks HARDENING_CONFIG's pin. Not used for diffs, where it
 * would turn large text files into "binary".
 */
export const STAGING_CONFIG: readonly string[] = ['-c', 'core.bigFileThreshold=16m'];

/**
 * Config sections whose named drivers can run a program or change what a diff counts, and the
 * value that switches each key off. An emptied filter is made optional, so that it is simply
 * skipped; an emptied merge driver is `false` (a shell builtin, not a program), so that a merge
 * needing it conflicts instead of guessing. A diff driver's `binary` is `auto` (decided from the
 * content, as for no driver: true would make a text file's stats "binary, +0 -0"), its
 * `algorithm` (git 2.42+) git's default, `myers`, so that config cannot change the line counts.
 */
const DRIVER_SETTINGS: Record<string, Readonly<Record<string, string>>> = {
  filter: { clean: '', smudge: '', process: '', required: 'false' },
  diff: { command: '', textconv: '', binary: 'auto', algorithm: 'myers' },
  merge: { driver: 'false' },
};

/**
 * The keys read from every config file of a repository (and every file it includes, whatever the
 * include's condition): the drivers it defines, and the files it includes. A driver's name may be
 * empty (`[filter ""]`, key `filter..clean`): `* filter=` applies the driver named "".
 */
export const DRIVER_AND_INCLUDE_PATTERN = '^(filter|diff|merge)\\..*\\.|^include(if\\..*)?\\.path$';

/** Splits `git config -z --get-regexp` output into keys and values (`key\nvalue\0`; a key alone when it has no value). */
export function parseConfigEntries(out: string): Array<{ key: string; value: string }> {
  return out
    .split('\0')
    .filter((record) => record !== '')
    .map((record) => {
      const nl = record.indexOf('\n');
      return nl < 0 ? { key: record, value: '' } : { key: record.slice(0, nl), value: record.slice(nl + 1) };
    });
}

/**
 * One setting for a git call: `key=value` (split at the first `=`, so only for keys without one),
 * or a key and its value apart, for a key whose driver name may hold `=` (`filter.x=y.clean`).
 */
export type ConfigPair = string | readonly [key: string, value: string];

/**
 * Given the config key names a repository defines (`git config --name-only --get-regexp`), returns
 * pairs that switch off every key of DRIVER_SETTINGS of every driver named. Key and value stay
 * apart: a name may hold `=`, which `-c` would split at.
 */
export function neutraliseDrivers(configKeys: readonly string[]): Array<readonly [string, string]> {
  const out = new Map<string, string>();
  for (const key of configKeys) {
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    if (first < 0 || last <= first) continue;
    const section = key.slice(0, first).toLowerCase();
    const name = key.slice(first + 1, last);
    const settings = DRIVER_SETTINGS[section];
    if (settings === undefined) continue;
    for (const [k, value] of Object.entries(settings)) out.set(`${section}.${name}.${k}`, value);
  }
  return [...out];
}

/**
 * Settings as git's environment passes them (GIT_CONFIG_COUNT, git 2.31+): the same scope as `-c`,
 * but key and value apart, so that no key is split at an `=` of its own.
 */
function configEnv(pairs: readonly ConfigPair[]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach((pair, i) => {
    const eq = typeof pair === 'string' ? pair.indexOf('=') : -1;
    const [key, value] =
      typeof pair !== 'string' ? pair : eq < 0 ? [pair, 'true'] : [pair.slice(0, eq), pair.slice(eq + 1)];
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** GIT_GRAFT_FILE for every call: no file can be there. */
const NO_GRAFT_FILE = '/dev/null/agentgate-no-grafts';

/**
 * Variables we pass through from the caller: everything else, GIT_* above all, is dropped.
 * `SSH_AUTH_SOCK` is the caller's ssh agent, for an ssh remote: a key with a passphrase (and in CI,
 * the key an ssh-agent step loaded) is reachable only through it. The workspace cannot set it.
 */
const PASS_THROUGH = ['PATH', 'HOME', 'TMPDIR', 'TEMP', 'TMP', 'SYSTEMROOT', 'TZ', 'SSH_AUTH_SOCK'] as const;

/**
 * Builds the child's whole environment. No inherited GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, ...;
 * `config` is passed here rather than as `-c` (see configEnv).
 */
export function buildEnv(
  identity: Identity,
  indexFile?: string,
  config: readonly ConfigPair[] = [],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of PASS_THROUGH) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  Object.assign(env, {
    LC_ALL: 'C',
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    // Grafts (info/grafts) rewrite parents as replace refs do: a planted one made a diverged branch
    // look like it contained a run. A path that cannot exist (under a device, not a directory):
    // git reads no graft file and warns of nothing. info/shallow is separate and still read.
    GIT_GRAFT_FILE: NO_GRAFT_FILE,
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    // A partial clone would fetch a missing object from its promisor remote, running that remote's
    // transport (an ext:: command, a configured upload-pack). We never fetch lazily, and the only
    // transports any call may use are these four (sharing's push and fetch included).
    GIT_NO_LAZY_FETCH: '1',
    GIT_ALLOW_PROTOCOL: 'file:git:ssh:https',
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
  });
  if (indexFile !== undefined) env.GIT_INDEX_FILE = indexFile;
  return { ...env, ...configEnv(config) };
}

/**
 * The user's own config files, for the few settings we read from them on purpose (every call
 * runs with GIT_CONFIG_NOSYSTEM and an empty GIT_CONFIG_GLOBAL): git's system file (`$GIT_CONFIG_SYSTEM`
 * when the caller set it, none with `$GIT_CONFIG_NOSYSTEM`), then
 * `$GIT_CONFIG_GLOBAL` when the caller set it, else `$XDG_CONFIG_HOME/git/config` (default
 * `~/.config/git/config`) and `~/.gitconfig`, in git's order (a later file wins).
 */
export function userConfigFiles(env: NodeJS.ProcessEnv = process.env): {
  system: string[];
  global: string[];
} {
  const home = env.HOME ?? '';
  const xdg =
    env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, '.config');
  const global = env.GIT_CONFIG_GLOBAL
    ? [env.GIT_CONFIG_GLOBAL]
    : home === ''
      ? []
      : [join(xdg, 'git', 'config'), join(home, '.gitconfig')];
  const system = env.GIT_CONFIG_SYSTEM ? [env.GIT_CONFIG_SYSTEM] : ['/etc/gitconfig'];
  return { system: env.GIT_CONFIG_NOSYSTEM ? [] : system, global };
}
