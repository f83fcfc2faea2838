import { GitFailedError, StoreCorruptError } from '../../errors.js';
import { runGit, runGitBuffer } from '../runner.js';
import { assertGitId } from './ids.js';
import { parseCatFileBatch, parseDiffRawNumstat, parseLsTree, splitNul, type DiffRecord, type TreeEntry } from './parse.js';
import type { ShadowStore } from './store.js';

/** Full or abbreviated hex ids, and our own checkpoint ref names: nothing that git could read as an option. */
const REVISION = /^([0-9a-f]{4,64}|refs\/checkpoints(-meta)?\/[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*)$/;

/** True if `rev` has the shape of something the store can resolve. */
export function isCheckpointRevision(rev: string): boolean {
  return REVISION.test(rev) && !rev.includes('..');
}

/**
 * Resolves a tree id, commit id (abbreviated or full) or checkpoint ref to the full id of its
 * tree. Null when the store has no such tree.
 */
export async function resolveTree(store: ShadowStore, rev: string): Promise<string | null> {
  if (!isCheckpointRevision(rev)) return null;
  const res = await runGit(store, ['rev-parse', '--verify', '--quiet', `${rev}^{tree}`], { okExitCodes: [1, 128] });
  if (res.exitCode !== 0) return null;
  return assertGitId(res.stdout.trim(), 'rev-parse');
}

/**
 * Every blob (file or symlink) of a tree, by path. Null when `rev` names no tree in the store;
 * any other failure throws.
 */
export async function listTree(store: ShadowStore, rev: string): Promise<Map<string, TreeEntry> | null> {
  if (!isCheckpointRevision(rev)) return null;
  try {
    const res = await runGit(store, ['ls-tree', '-r', '-z', '--full-tree', rev]);
    return parseLsTree(res.stdout);
  } catch (cause) {
    if (cause instanceof GitFailedError && /not a valid object name|not a tree object/i.test(String(cause.details.stderr))) return null;
    throw cause;
  }
}

/** Paths that differ between two trees, in git's order (no rename detection). */
export async function changedPaths(store: ShadowStore, from: string, to: string): Promise<string[]> {
  const res = await runGit(store, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', from, to]);
  return splitNul(res.stdout);
}

/** Per-path status, modes, object ids and line counts between two trees, from one process. */
export async function diffTrees(store: ShadowStore, from: string, to: string): Promise<DiffRecord[]> {
  const res = await runGit(store, ['diff-tree', '-r', '-z', '--no-renames', '--raw', '--numstat', '--no-ext-diff', '--no-textconv', from, to]);
  return parseDiffRawNumstat(res.stdout);
}

/**
 * Unified diff between two trees from plumbing: binary-safe and applicable (`--binary
 * --full-index`), no colour, no external diff or textconv programs, no renames.
 */
export async function unifiedDiff(store: ShadowStore, from: string, to: string): Promise<string> {
  const res = await runGit(store, ['diff-tree', '-r', '-p', '--binary', '--full-index', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', from, to]);
  return res.stdout;
}

/**
 * Reads any number of objects through one `cat-file --batch` process. Every id must exist: a
 * missing object means the store is damaged (STORE_CORRUPT).
 */
export async function readObjects(store: ShadowStore, oids: readonly string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const unique = [...new Set(oids)];
  if (unique.length === 0) return out;
  const res = await runGitBuffer(store, ['cat-file', '--batch'], { input: unique.map((o) => `${o}\n`).join('') });
  for (const obj of parseCatFileBatch(res.stdout)) {
    if (obj.kind === 'missing') {
      throw new StoreCorruptError(`object ${obj.name} is missing from the checkpoint store ${store.gitDir}`, { details: { gitDir: store.gitDir, object: obj.name } });
    }
    out.set(obj.oid, obj.content);
  }
  return out;
}
