/**
 * A run's file under a name its records never give it: a person's `git mv` (or copy) of the file
 * after the run, then a squash, leaves at the commit a file no run's records name, byte for byte a
 * version the run made. Runs are found by the paths their records name, so such a file is looked
 * up by its blob among the versions the runs' iterations left, and linked to the run by `blob`
 * (the content and mode at REV are the content and mode at an iteration) under the run's name.
 * A person's `git mv` on main while the run worked, then the run's change landed on the moved file
 * (a squash, rebase or cherry-pick), leaves a file whose version at the commit's parent is byte
 * for byte the one an iteration of the run started from: looked up so too, and compared with the
 * run's file under the run's name (`lines`, through git's rename detection).
 */
import { catFile, isBlobMode } from '../git/diff-content.js';
import { isNullId } from '../git/ids.js';
import type { PairFile } from '../git/parsers/diff-stdin.js';
import type { GitOptions } from '../git/runner.js';
import type { RunChain } from './candidates.js';

/** runId -> a path at the commit -> the run's names whose version there is that blob. */
export type Aliases = Map<string, Map<string, string[]>>;

/** A version of a file a run's records name: one an iteration left, or (`start`) one it began from. */
interface RunVersion {
  blob: string;
  runId: string;
  path: string;
  start: boolean;
}

/** The files of `files` that no run of `chains` names (by their path or the name they were renamed from), with a blob. */
export function unnamed(files: readonly PairFile[], chains: readonly RunChain[]): PairFile[] {
  return files.filter(
    (f) =>
      !isNullId(f.entry.dstId) &&
      isBlobMode(f.entry.dstMode) &&
      !chains.some(
        (c) => c.paths.has(f.entry.path) || (f.entry.oldPath !== null && c.paths.has(f.entry.oldPath)),
      ),
  );
}

/**
 * The versions the runs' iterations left of every file their records name, as blob ids, and the
 * objects `also` names (`<commit>:<path>`): one `cat-file --batch-check` of `<after tree>:<path>`
 * and of those (a name is any bytes).
 */
export async function runBlobs(
  repo: GitOptions,
  chains: readonly RunChain[],
  also: readonly string[] = [],
  starts = false,
): Promise<{ versions: RunVersion[]; also: Array<string | null> }> {
  const asked = new Map<string, Omit<RunVersion, 'blob'>>();
  for (const c of chains)
    for (const it of c.iterations)
      for (const f of it.snapshot.files) {
        if (f.status !== 'deleted')
          asked.set(`${it.after.tree}:${f.path}`, { runId: c.runId, path: f.path, start: false });
        // With `starts`, also the version the iteration began from (a file it added has none).
        const from = f.oldPath ?? f.path;
        if (starts && f.status !== 'added' && !asked.has(`${it.before.tree}:${from}`))
          asked.set(`${it.before.tree}:${from}`, { runId: c.runId, path: from, start: true });
      }
  const names = [...asked.keys()];
  const found = await catFile(repo, 'check', [...names, ...also]);
  const blob = (i: number) => {
    const o = found[i];
    return o?.found === true && o.type === 'blob' ? o.id : null;
  };
  return {
    versions: names.flatMap((name, i) => {
      const id = blob(i);
      return id === null ? [] : [{ blob: id, ...(asked.get(name) as Omit<RunVersion, 'blob'>) }];
    }),
    also: also.map((_, i) => blob(names.length + i)),
  };
}

/**
 * `trace`, for a file no run names under any name blame gave it: the blamed commits whose version
 * of the file (`versions`: the commit and blame's name there) is byte for byte a version a run of
 * `chains` left of another file, and those runs (the engine then links them through blobAliases).
 */
export async function aliasedBlamed(
  repo: GitOptions,
  versions: ReadonlyArray<{ commit: string; path: string }>,
  chains: readonly RunChain[],
): Promise<{ commits: string[]; chains: RunChain[] }> {
  if (versions.length === 0 || chains.length === 0) return { commits: [], chains: [] };
  const found = await runBlobs(
    repo,
    chains,
    versions.map((v) => `${v.commit}:${v.path}`),
  );
  const runs = new Set<string>();
  const commits = versions.filter((_, i) => {
    const blob = found.also[i];
    const of = found.versions.filter((v) => v.blob === blob);
    for (const v of of) runs.add(v.runId);
    return of.length > 0;
  });
  return {
    commits: [...new Set(commits.map((v) => v.commit))],
    chains: chains.filter((c) => runs.has(c.runId)),
  };
}

/**
 * Aliases of the files of `files` that no run names: those whose blob is a version a run of
 * `chains` left of another file, or whose parent's blob is one a run began from (those are also
 * added to `moved`: only they carry the run's lines by `lines`, a copy's content alone does not).
 * No git process when every file is named or there is no run.
 */
export async function blobAliases(
  repo: GitOptions,
  files: readonly PairFile[],
  chains: readonly RunChain[],
  moved: Aliases = new Map(),
): Promise<Aliases> {
  const out: Aliases = new Map();
  const orphans = unnamed(files, chains);
  if (orphans.length === 0 || chains.length === 0) return out;
  const byBlob = new Map<string, RunVersion[]>();
  for (const v of (await runBlobs(repo, chains, [], true)).versions)
    byBlob.set(v.blob, [...(byBlob.get(v.blob) ?? []), v]);
  for (const f of orphans) {
    // The file as a run left it, or, at the parent, as a run began from it (moved on main since).
    const found = [
      ...(byBlob.get(f.entry.dstId) ?? []).filter((v) => !v.start),
      ...(isNullId(f.entry.srcId) ? [] : (byBlob.get(f.entry.srcId) ?? []).filter((v) => v.start)),
    ];
    for (const v of found) {
      addAlias(out, v.runId, f.entry.path, v.path);
      if (v.start) addAlias(moved, v.runId, f.entry.path, v.path);
    }
  }
  return out;
}

function addAlias(to: Aliases, runId: string, path: string, name: string): void {
  const run = to.get(runId) ?? new Map<string, string[]>();
  const names = run.get(path) ?? [];
  if (!names.includes(name)) names.push(name);
  run.set(path, names);
  to.set(runId, run);
}
