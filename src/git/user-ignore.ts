import { access } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Identity } from '../../types/config.js';
import { userConfigFiles } from './hardening.js';
import { runGit } from './runner.js';

/**
 * The user's own global ignore file, found on purpose: the runner ignores global and system
 * config (GIT_CONFIG_GLOBAL is empty), so this reads exactly one setting, `core.excludesFile`,
 * from exactly the user's system and global config files and the files they include (as git reads
 * them), with `git config --file F --includes --get` (nothing else read); see userIgnoreConfigFiles
 * for the order. Without the setting, git's default `$XDG_CONFIG_HOME/git/ignore`. A leading `~/`
 * is the home directory, as git expands it.
 */
export interface UserIgnoreOptions {
  home: string;
  /** `$XDG_CONFIG_HOME`, or undefined for `<home>/.config`. */
  xdgConfigHome?: string | undefined;
  cwd: string;
  identity?: Identity;
  timeoutMs?: number;
}

/** Absolute path of the user's global ignore file when one is configured (or the default exists), else null. */
export async function userExcludesFile(o: UserIgnoreOptions): Promise<string | null> {
  return userExcludesPath(await userExcludesSetting(o), o);
}

/**
 * The config files that can set `core.excludesFile`, in git's order (the later wins): the system
 * file (or `$GIT_CONFIG_SYSTEM`; none with `$GIT_CONFIG_NOSYSTEM`), then the global ones (or
 * `$GIT_CONFIG_GLOBAL`), as for run snapshots.
 */
export function userIgnoreConfigFiles(o: Pick<UserIgnoreOptions, 'home' | 'xdgConfigHome'>): string[] {
  const { system, global } = userConfigFiles({
    ...process.env,
    HOME: o.home,
    XDG_CONFIG_HOME: o.xdgConfigHome,
  });
  return [...system, ...global];
}

/** The user's `core.excludesFile` setting as written (one git process per existing config file), or null. */
export async function userExcludesSetting(o: UserIgnoreOptions): Promise<string | null> {
  let configured: string | null = null;
  for (const file of userIgnoreConfigFiles(o)) {
    if (!(await exists(file))) continue;
    const res = await runGit(
      {
        cwd: o.cwd,
        ...(o.identity ? { identity: o.identity } : {}),
        ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
      },
      ['config', '--file', file, '--includes', '--get', 'core.excludesFile'],
      // A file git cannot read (a circular include, a syntax error) sets nothing here, as for runs.
      { okExitCodes: [1, 128] },
    );
    const value = res.exitCode === 0 ? res.stdout.trim() : '';
    if (value !== '') configured = value;
  }
  return configured;
}

/** Where a `core.excludesFile` setting (null: none) points, if that file exists; git's default otherwise. */
export async function userExcludesPath(
  configured: string | null,
  o: Pick<UserIgnoreOptions, 'home' | 'xdgConfigHome'>,
): Promise<string | null> {
  const xdg = o.xdgConfigHome && isAbsolute(o.xdgConfigHome) ? o.xdgConfigHome : join(o.home, '.config');
  const path = configured === null ? join(xdg, 'git', 'ignore') : expandHome(configured, o.home);
  return isAbsolute(path) && (await exists(path)) ? path : null;
}

function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
