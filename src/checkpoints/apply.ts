import { lstat, rmdir, unlink } from 'node:fs/promises';
import { checkoutEntries, ignoredPaths } from '../git/shadow/checkout.js';
import type { TreeEntry } from '../git/shadow/parse.js';
import type { ShadowStore } from '../git/shadow/store.js';
import type { Plan } from './plan.js';
import { isUnder, toAbsolute } from './workspace-paths.js';

export interface ApplyContext {
  root: string;
  store: ShadowStore;
  tempDir: string;
  /** The safety capture: what the store knows is on disk now. */
  current: ReadonlyMap<string, TreeEntry>;
  /** Git paths never touched, nor anything below them (nested repositories, our home, skipped files). */
  blocked: readonly string[];
}

/** What happened, as git paths. */
export interface Applied {
  written: string[];
  deleted: string[];
  leftAlone: string[];
}

type Kind = 'missing' | 'dir' | 'file' | 'link' | 'other';

async function kindOf(abs: string): Promise<Kind> {
  try {
    const st = await lstat(abs);
    if (st.isDirectory()) return 'dir';
    if (st.isSymbolicLink()) return 'link';
    return st.isFile() ? 'file' : 'other';
  } catch {
    return 'missing';
  }
}

/** True when every existing leading directory of `path` is a real directory (no link, no file in the way). */
async function leadingDirsAreReal(root: string, path: string, cache: Map<string, Kind>): Promise<boolean> {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i += 1) {
    const dir = parts.slice(0, i).join('/');
    let kind = cache.get(dir);
    if (kind === undefined) {
      kind = await kindOf(toAbsolute(root, dir));
      cache.set(dir, kind);
    }
    if (kind === 'missing') return true;
    if (kind !== 'dir') return false;
  }
  return true;
}

/**
 * Carries out a plan, touching only what the safety capture covers. The rule that keeps it safe:
 * nothing on disk that the safety checkpoint did not capture is overwritten or removed, so that
 * restoring the safety checkpoint undoes everything done here. Concretely:
 * - a delete unlinks a file or symlink (never follows it) whose leading directories are real;
 *   directories emptied by that are removed, nothing else;
 * - a write is left alone when a leading directory is a link or a file, when a directory stands at
 *   the path, when an uncaptured file stands there, or when the path is new and ignored now;
 * - blocked paths (nested repositories, skipped files, our home) are never touched.
 * Files are written by git (checkout-index), which does not write through symbolic links.
 */
export async function applyPlan(ctx: ApplyContext, plan: Plan): Promise<Applied> {
  const out: Applied = { written: [], deleted: [], leftAlone: [] };
  const blocked = (p: string): boolean => ctx.blocked.some((b) => isUnder(p, b));
  await applyDeletes(ctx, plan.deletes.filter((p) => !blocked(p)), out);
  for (const p of [...plan.deletes, ...plan.writes.map((w) => w.path)]) if (blocked(p)) out.leftAlone.push(p);
  for (const p of plan.uncovered) if ((await kindOf(toAbsolute(ctx.root, p))) !== 'missing') out.leftAlone.push(p);

  const cache = new Map<string, Kind>();
  const ready: TreeEntry[] = [];
  const fresh: TreeEntry[] = [];
  for (const entry of plan.writes) {
    if (blocked(entry.path)) continue;
    const kind = await kindOf(toAbsolute(ctx.root, entry.path));
    const fits = (await leadingDirsAreReal(ctx.root, entry.path, cache)) && kind !== 'dir' && kind !== 'other';
    if (!fits || (kind !== 'missing' && !ctx.current.has(entry.path))) out.leftAlone.push(entry.path);
    else (kind === 'missing' ? fresh : ready).push(entry);
  }
  const ignored = await ignoredPaths(ctx.store, fresh.map((e) => e.path));
  for (const entry of fresh) {
    if (ignored.has(entry.path)) out.leftAlone.push(entry.path);
    else ready.push(entry);
  }
  await checkoutEntries(ctx.store, ready, ctx.tempDir);
  out.written.push(...ready.map((e) => e.path).sort());
  out.leftAlone.sort();
  return out;
}

async function applyDeletes(ctx: ApplyContext, paths: readonly string[], out: Applied): Promise<void> {
  const cache = new Map<string, Kind>();
  const emptied = new Set<string>();
  for (const path of paths) {
    const abs = toAbsolute(ctx.root, path);
    const kind = await kindOf(abs);
    if (kind === 'missing') continue;
    if ((kind !== 'file' && kind !== 'link') || !(await leadingDirsAreReal(ctx.root, path, cache))) {
      out.leftAlone.push(path);
      continue;
    }
    await unlink(abs);
    out.deleted.push(path);
    const slash = path.lastIndexOf('/');
    if (slash > 0) emptied.add(path.slice(0, slash));
  }
  await removeEmptyDirs(ctx.root, emptied);
}

/** Removes the given directories and then their ancestors, deepest first, each only if empty; never the root. */
async function removeEmptyDirs(root: string, dirs: ReadonlySet<string>): Promise<void> {
  const all = new Set<string>();
  for (const dir of dirs) {
    const parts = dir.split('/');
    for (let i = parts.length; i > 0; i -= 1) all.add(parts.slice(0, i).join('/'));
  }
  const deepestFirst = [...all].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const dir of deepestFirst) {
    await rmdir(toAbsolute(root, dir)).catch(() => undefined); // not empty, or gone: leave it
  }
}
