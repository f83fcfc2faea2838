import { resolve } from 'node:path';
import { CommitStatementOptionsArg, FileArg, TextArg } from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { CommitNotGatedError } from '../errors.js';
import { writeOutputData } from '../fs/atomic.js';
import { attestSources, buildStatement, urlWarnings } from '../gates/attest.js';
import { parentTrees } from '../git/provenance.js';
import { resolveRevision } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { loadRunChains, type Iteration } from './candidates.js';
import { checkSources, type ProvenanceSources, type RecordSources } from './sources.js';
import { rankTreeMatches } from './tree-matches.js';

/**
 * `attest --commit REV`: a Statement whose one subject is REV (`gitCommit`), with the Test Result
 * predicate of the iteration whose after tree is REV's tree (the first `gatedIterations` ranks when
 * several are). A verdict holds for the exact tree it judged: COMMIT_NOT_GATED (exit 3) otherwise.
 */
export async function writeCommitStatement(
  src: ProvenanceSources,
  repo: Repo,
  rev: string,
  file: string,
  opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ file: string; subjects: number; runId: string; iteration: number; warnings: string[] }> {
  checkSources(src, repo);
  checkArgument(TextArg, rev, 'rev');
  checkArgument(FileArg, file, 'file');
  checkArgument(CommitStatementOptionsArg, opts, 'opts');
  const commit = await resolveRevision(repo, rev, 'commit');
  const { tree, matches } = await gatedIterations(src, repo, commit, { parents: true });
  const [match] = matches;
  if (match === undefined)
    throw new CommitNotGatedError(
      `the tree of ${commit.slice(0, 12)} is no recorded iteration's after tree, so no gate judged it; attest the run instead ("attest --run ID"), or "anchor ${commit.slice(0, 12)}" to see which runs it came from`,
      { details: { commit, tree } },
    );
  const statement = await buildStatement(attestSources(src.snapshotter), match.snapshot.runId, {
    iteration: match.iteration,
    ...(opts.env === undefined ? {} : { env: opts.env }),
  });
  statement.subject = [{ name: `commit/${commit}`, digest: { gitCommit: commit } }];
  const path = resolve(opts.cwd ?? process.cwd(), file);
  await writeOutputData(path, `${JSON.stringify(statement, null, 2)}\n`);
  const warnings = urlWarnings(opts.env);
  return { file: path, subjects: 1, runId: match.snapshot.runId, iteration: match.iteration, warnings };
}

/**
 * Every iteration whose after tree is `commit`'s tree, best first (rankTreeMatches). `tree` is
 * null when the commit (a full id) is not in this repository. `parents`: OBJECT_MISSING when the
 * commit's parents are not here (a shallow clone), as for its anchor: the ranking asks its history.
 */
export async function gatedIterations(
  src: RecordSources,
  repo: Repo,
  commit: string,
  opts: { parents?: boolean } = {},
): Promise<{ tree: string | null; matches: Iteration[] }> {
  const { chains, nodes } = await loadRunChains(src, repo, undefined, [commit]);
  const node = nodes.get(commit);
  if (opts.parents === true && node !== undefined) await parentTrees(repo, [node], nodes);
  const tree = node?.tree ?? null;
  const found = chains.flatMap((c) => c.iterations).filter((it) => tree !== null && it.after.tree === tree);
  return { tree, matches: await rankTreeMatches(repo, commit, found) };
}
