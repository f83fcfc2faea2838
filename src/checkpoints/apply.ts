import { lstat, rmdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { WriteFailedError } from '../errors.js';
import { errnoOf, fsyncDir } from '../fs/atomic.js';
import { leadingDirsAreReal } from '../fs/leading-dirs.js';
import { fsPath } from '../fs/path-bytes.js';
import { chooseStagingDir, placeFiles, type PlaceItem } from '../fs/place.js';
import { ignoredPaths } from '../git/checkpoint-index.js';
import type { CheckpointRepo } from '../git/checkpoint-repo.js';
import { readableSizes, readObjects, type TreeEntry } from '../git/checkpoint-trees.js';
import { writeBatches, type Plan } from './plan.js';
import { nestedRepositoryAbove } from './skip-rules.js';
import { stillCaptured } from './unchanged.js';
import { isUnder, toAbsolute } from './workspace-paths.js';

export interface ApplyContext {
  root: string;
  repo: CheckpointRepo;
  tempDir: string;
  /** The safety capture: what the store knows is on disk now. */
  current: ReadonlyMap<string, TreeEntry>;
  /** Git paths never touched, nor anything below them (nested repositories, our home, skipped files). */
  blocked: readonly string[];
  /** The safety checkpoint taken first: a write that fails names it, as the way back. */
  safety?: string;
  /** Files the workspace's repository tracks although the rules ignore them: not ignored (tracked-ignored.ts). */
  tracked?: ReadonlySet<string>;
}

/** What happened, as git paths. */
export interface Applied {
  written: string[];
  deleted: string[];
  leftAlone: string[];
  /** Of `leftAlone`: the paths that changed after the safety capture (in no checkpoint). */
  changed: string[];
}

type Kind = 'missing' | 'dir' | 'file' | 'link' | 'other';

async function kindOf(abs: string): Promise<Kind> {
  return (await statOf(abs)).kind;
}

/** What stands at `abs`, and a file's permission bits. */
async function statOf(abs: string): Promise<{ kind: Kind; perm: number | null }> {
  try {
    const st = await lstat(fsPath(abs));
    const kind = st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'link' : st.isFile() ? 'file' : 'other';
    return { kind, perm: kind === 'file' ? st.mode & 0o777 : null };
  } catch {
    return { kind: 'missing', perm: null };
  }
}

/**
 * The permission bits a rewritten file keeps: its own (a private 0600 file stays private), with
 * only the executable bit that git records set or cleared: x where r for an executable, none else.
 */
function keptMode(perm: number, mode: string): number {
  return mode === '100755' ? perm | ((perm & 0o444) >> 2) : perm & ~0o111;
}

/**
 * Carries out a plan, touching only what the safety capture covers. The rule that keeps it safe:
 * nothing on disk that the safety checkpoint did not capture is overwritten or removed, so that
 * restoring the safety checkpoint undoes everything done here. Concretely:
 * - a delete unlinks a file or symlink (never follows it) whose leading directories are real;
 *   directories emptied by that are removed, nothing else;
 * - a write is left alone when a leading directory is a link or a file, when a directory stands at
 *   the path, when an uncaptured file stands there, or when the path is new and ignored now;
 * - blocked paths (nested repositories, skipped files, our home) are never touched, nor a path
 *   below a directory that holds a repository of its own now, whatever the capture said;
 * - a plan that changes `.gitignore` files applies them first (with the deletes of what stands
 *   where their directories go); a delete that the rules then ignore is left alone (the target did not capture it: it was ignored there, not absent);
 * - a path is replaced or removed only if it is still what the safety capture read (unchanged.ts),
 *   asked right before its rename or unlink: a write that landed since is left alone (`changed`).
 * Files are written whole and renamed into place (never through a symbolic link), and every file
 * and directory that changed is fsynced before this returns (see fs/place.ts).
 */
export async function applyPlan(ctx: ApplyContext, plan: Plan): Promise<Applied> {
  return applyAll(ctx, plan).catch((error: unknown) => {
    if (!(error instanceof WriteFailedError) || ctx.safety === undefined) throw error;
    throw new WriteFailedError(
      `${error.message}; what was already put back is undone by "checkpoint restore ${ctx.safety}"`,
      { cause: error.cause, details: { ...error.details, safety: ctx.safety } },
    );
  });
}

async function applyAll(ctx: ApplyContext, plan: Plan): Promise<Applied> {
  // A blob the store lost would stop the writes after the deletes had run: read them all first.
  const sizes = await readableSizes(ctx.repo, new Map(plan.writes.map((w) => [w.oid, w.path])));
  const rules = (p: string) => p === '.gitignore' || p.endsWith('/.gitignore');
  if (!plan.deletes.some(rules) && !plan.writes.some((w) => rules(w.path)))
    return applyPart(ctx, plan, sizes);
  // The plan changes ignore rules. Under the rules it puts back, a file it would delete may be one the
  // target never captured because it was ignored then (a person's local.env that the agent
  // un-ignored): the rules go first, then what they ignore is left alone rather than deleted.
  const part = (keep: (p: string) => boolean): Plan => ({
    writes: plan.writes.filter((w) => keep(w.path)),
    deletes: plan.deletes.filter(keep),
    uncovered: plan.uncovered.filter(keep),
  });
  // A file or link standing where the rules' directory goes is deleted with them, or they could not be written.
  const ruleWrites = plan.writes.map((w) => w.path).filter(rules);
  const withRules = (p: string) => rules(p) || ruleWrites.some((r) => r !== p && isUnder(r, p));
  const first = await applyPart(ctx, part(withRules), sizes);
  const rest = part((p) => !withRules(p));
  const hidden = await ignoredPaths(ctx.repo, rest.deletes, ctx.tracked);
  const second = await applyPart(
    ctx,
    { ...rest, deletes: rest.deletes.filter((p) => !hidden.has(p)) },
    sizes,
  );
  return {
    written: [...first.written, ...second.written].sort(),
    deleted: [...first.deleted, ...second.deleted].sort(),
    leftAlone: [...first.leftAlone, ...second.leftAlone, ...hidden].sort(),
    changed: [...first.changed, ...second.changed].sort(),
  };
}

async function applyPart(
  ctx: ApplyContext,
  plan: Plan,
  sizes: ReadonlyMap<string, number>,
): Promise<Applied> {
  const out: Applied = { written: [], deleted: [], leftAlone: [], changed: [] };
  // A directory become a repository since the safety capture is asked of the disk too: its files
  // are another repository's, which no checkpoint of this workspace holds.
  const repoDirs = new Map<string, boolean>();
  const blocked = (p: string): boolean =>
    ctx.blocked.some((b) => isUnder(p, b)) || nestedRepositoryAbove(ctx.root, p, repoDirs) !== null;
  await applyDeletes(
    ctx,
    plan.deletes.filter((p) => !blocked(p)),
    out,
  );
  for (const p of [...plan.deletes, ...plan.writes.map((w) => w.path)]) if (blocked(p)) out.leftAlone.push(p);
  for (const p of plan.uncovered)
    if ((await kindOf(toAbsolute(ctx.root, p))) !== 'missing') out.leftAlone.push(p);

  const cache = new Map<string, boolean>();
  const ready: Writing[] = [];
  const fresh: Writing[] = [];
  // A write below another write of this plan (revert by patches from two checkpoints: `d` a link in
  // one, `d/f` a file in the other) would land wherever that link, written first, points.
  const writes = new Set(plan.writes.map((w) => w.path));
  for (const entry of plan.writes) {
    if (blocked(entry.path)) continue;
    const { kind, perm } = await statOf(toAbsolute(ctx.root, entry.path));
    const fits =
      !belowOneOf(entry.path, writes) &&
      (await leadingDirsAreReal(ctx.root, entry.path, cache)) &&
      kind !== 'dir' &&
      kind !== 'other';
    if (!fits || (kind !== 'missing' && !ctx.current.has(entry.path))) out.leftAlone.push(entry.path);
    else if (kind === 'missing') fresh.push(entry);
    else ready.push(perm === null || entry.mode === '120000' ? entry : { ...entry, perm });
  }
  const ignored = await ignoredPaths(
    ctx.repo,
    fresh.map((e) => e.path),
    ctx.tracked,
  );
  for (const entry of fresh) {
    if (ignored.has(entry.path)) out.leftAlone.push(entry.path);
    else ready.push(entry);
  }
  const declined = new Set(await writeEntries(ctx, ready, sizes));
  out.written.push(...ready.map((e) => e.path).filter((p) => !declined.has(p)));
  out.changed.push(...declined);
  out.leftAlone.push(...declined);
  for (const list of [out.written, out.leftAlone, out.changed]) list.sort();
  return out;
}

/** Whether a leading directory of git path `path` is one of `paths`. */
function belowOneOf(path: string, paths: ReadonlySet<string>): boolean {
  for (let at = path.indexOf('/'); at > 0; at = path.indexOf('/', at + 1))
    if (paths.has(path.slice(0, at))) return true;
  return false;
}

async function applyDeletes(ctx: ApplyContext, paths: readonly string[], out: Applied): Promise<void> {
  const cache = new Map<string, boolean>();
  const emptied = new Set<string>();
  for (const path of paths) {
    const abs = toAbsolute(ctx.root, path);
    const kind = await kindOf(abs);
    if (kind === 'missing') continue;
    if ((kind !== 'file' && kind !== 'link') || !(await leadingDirsAreReal(ctx.root, path, cache))) {
      out.leftAlone.push(path);
      continue;
    }
    if (!(await stillCaptured(abs, ctx.current.get(path)))) {
      out.leftAlone.push(path);
      out.changed.push(path);
      continue;
    }
    // Asked again right before the unlink (uncached): a directory replaced by a link meanwhile.
    if (!(await leadingDirsAreReal(ctx.root, path))) {
      out.leftAlone.push(path);
      out.changed.push(path);
      continue;
    }
    if (!(await removeFile(ctx.root, abs))) continue;
    out.deleted.push(path);
    const slash = path.lastIndexOf('/');
    if (slash > 0) emptied.add(path.slice(0, slash));
  }
  await removeEmptyDirs(ctx.root, emptied);
  // A deletion is durable once its directory is: fsync each one that lost an entry (or still exists).
  for (const dir of new Set(out.deleted.map((path) => dirname(toAbsolute(ctx.root, path)))))
    await fsyncDir(fsPath(dir));
}

/**
 * Unlinks the file at `abs`; false when it is gone already. A refusal (an immutable file or
 * directory, a read-only mount, permissions) is WRITE_FAILED naming it, as a failed write is.
 */
async function removeFile(root: string, abs: string): Promise<boolean> {
  try {
    await unlink(fsPath(abs));
    return true;
  } catch (cause) {
    if (errnoOf(cause) === 'ENOENT') return false;
    throw new WriteFailedError(
      `could not delete ${abs} (${errnoOf(cause)}); check its directory's permissions, then retry`,
      {
        cause,
        details: { workspace: root, path: abs },
      },
    );
  }
}

/** A tree entry to write; `perm`: the permission bits of the file it replaces (keptMode). */
type Writing = TreeEntry & { perm?: number };

/**
 * Writes tree entries into the workspace from the checkpoint repository's blobs (`sizes`: each
 * one's size, by id), durably, each only while its path is still what the safety capture read
 * there. Returns the paths left as they are.
 */
async function writeEntries(
  ctx: ApplyContext,
  entries: readonly Writing[],
  sizes: ReadonlyMap<string, number>,
): Promise<string[]> {
  if (entries.length === 0) return [];
  const declined: string[] = [];
  const staging = await chooseStagingDir(ctx.root, ctx.tempDir);
  for (const batch of writeBatches(entries, sizes)) {
    const blobs = await readObjects(
      ctx.repo,
      batch.map((e) => e.oid),
      new Map(batch.map((e) => [e.oid, e.path])),
    );
    const items = new Map<PlaceItem, string>();
    for (const e of batch) {
      const dest = toAbsolute(ctx.root, e.path);
      const item: PlaceItem = {
        dest,
        kind: e.mode === '120000' ? 'symlink' : e.mode === '100755' ? 'executable' : 'file',
        content: blobs.get(e.oid) ?? Buffer.alloc(0),
        ...(e.perm === undefined ? {} : { mode: keptMode(e.perm, e.mode) }),
        stillWanted: () => stillCaptured(dest, ctx.current.get(e.path)),
        // Asked again as it is written: a directory another process replaced by a link meanwhile.
        dirsReal: () => leadingDirsAreReal(ctx.root, e.path),
      };
      items.set(item, e.path);
    }
    try {
      for (const item of await placeFiles(ctx.root, staging, [...items.keys()]))
        declined.push(items.get(item) as string);
    } catch (cause) {
      throw new WriteFailedError(
        `could not write files into ${ctx.root} (${errnoOf(cause)}); check free space and permissions, then retry`,
        { cause, details: { workspace: ctx.root } },
      );
    }
  }
  return declined;
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
    await rmdir(fsPath(toAbsolute(root, dir))).catch(() => undefined); // not empty, or gone: leave it
  }
}
