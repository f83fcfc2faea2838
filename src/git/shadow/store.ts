import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Identity } from '../../../types/config.js';
import { runGit, type GitOptions } from '../runner.js';

/**
 * How git reaches one private checkpoint store: its own git dir and index, the workspace as work
 * tree. Every call names `--git-dir` and `--work-tree` explicitly (GitOptions.gitDir/workTree), so
 * nothing from the workspace's own `.git` or the caller's environment can redirect it.
 */
export interface ShadowStore extends GitOptions {
  /** The workspace root; git runs here, so relative pathspecs are workspace-relative. */
  cwd: string;
  gitDir: string;
  workTree: string;
  indexFile: string;
}

export interface ShadowStoreParams {
  workspace: string;
  gitDir: string;
  indexFile: string;
  /** The workspace repository's `info/exclude`, honoured as if it were the store's own. */
  excludesFile: string | null;
  identity?: Identity;
  timeoutMs?: number;
}

/** Builds the git options for a store. Pure. */
export function shadowStore(p: ShadowStoreParams): ShadowStore {
  return {
    cwd: p.workspace,
    gitDir: p.gitDir,
    workTree: p.workspace,
    indexFile: p.indexFile,
    config: p.excludesFile === null ? [] : [`core.excludesFile=${p.excludesFile}`],
    ...(p.identity === undefined ? {} : { identity: p.identity }),
    ...(p.timeoutMs === undefined ? {} : { timeoutMs: p.timeoutMs }),
  };
}

/** Settings written into the store's own config at creation. */
const STORE_CONFIG: ReadonlyArray<readonly [string, string]> = [
  // Snapshots are byte-exact: no line-ending conversion in either direction.
  ['core.autocrlf', 'false'],
  ['core.quotePath', 'false'],
  // No reflogs: a removed checkpoint ref must not keep its objects alive past retention.
  ['core.logAllRefUpdates', 'false'],
  // We run gc ourselves, under our lock, with temporary packs swept afterwards.
  ['gc.auto', '0'],
  ['core.symlinks', 'true'],
];

/**
 * `info/attributes` outranks every `.gitattributes` in the work tree: the workspace cannot make
 * the store convert line endings, expand `$Id$`, re-encode or filter content on capture or restore.
 */
const STORE_ATTRIBUTES = '* -text -eol -crlf -ident -filter -working-tree-encoding\n';

/**
 * Creates (or re-initialises, which is harmless) the store's git dir and writes its config and
 * attributes. git records the work tree as `core.worktree`; we pass `--work-tree` on every call
 * regardless. The caller holds the store lock.
 */
export async function initShadowStore(store: ShadowStore): Promise<void> {
  await mkdir(store.gitDir, { recursive: true });
  await runGit(store, ['init', '--quiet']);
  for (const [key, value] of STORE_CONFIG) await runGit(store, ['config', key, value]);
  await mkdir(join(store.gitDir, 'info'), { recursive: true });
  await writeFile(join(store.gitDir, 'info', 'attributes'), STORE_ATTRIBUTES);
}

/**
 * Removes the store index's `index.lock` if it is older than `olderThanMs`. Only call while holding
 * the store lock: then no git process of ours can be using the index, and one that old outlived
 * the git timeout, so its owner was killed (a timeout, a crash). Returns true if one was removed.
 */
export async function removeStaleIndexLock(store: ShadowStore, olderThanMs: number): Promise<boolean> {
  const lock = `${store.indexFile}.lock`;
  try {
    if (Date.now() - (await stat(lock)).mtimeMs < olderThanMs) return false;
  } catch {
    return false;
  }
  await rm(lock, { force: true });
  return true;
}
