/**
 * A `before` run again: after it returned, or after it was killed between its WIP commit and its
 * record. HEAD is then its own WIP commit, holding the work that was uncommitted, and the workspace
 * is clean: the retry must take that commit for what it is (the before state, dirty), never for a
 * HEAD that left the run, and no message may advise a reset that would drop it.
 */
import type { RunRecord } from '../../types/run.js';
import type { BeforeState, Snapshot } from '../../types/snapshot.js';
import { getCommitInfo } from '../git/commit-info.js';
import { isAncestor } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { RunDivergedError } from '../errors.js';
import { wipMessage, wipStagedMessage } from './message.js';
import { restartPoint } from './restart-check.js';
import { wipRef } from './core.js';

/** A WIP commit `before` made for this run at HEAD, and the commit it was made on (null: an unborn branch's root). */
export interface OwnWip {
  sha: string;
  base: string | null;
  /** The commit right under it: its `: staged` commit when it has one, else `base`. */
  parent: string | null;
}

/**
 * HEAD as this run's own WIP commit (`[agentgate] WIP before run`, `Agentgate-Run: <runId>`, or the
 * `: staged` commit under it), else null. Two commits read at most.
 */
export async function ownWip(repo: Repo, runId: string, head: string | null): Promise<OwnWip | null> {
  if (head === null) return null;
  const wip = wipMessage(runId).replace(/\n$/, '');
  const staged = wipStagedMessage(runId).replace(/\n$/, '');
  const top = await getCommitInfo(repo, head);
  if ((top.message !== wip && top.message !== staged) || top.parents.length > 1) return null;
  const parent = top.parents[0] ?? null;
  if (top.message === staged || parent === null) return { sha: head, base: parent, parent };
  // The WIP commit may sit on the commit of what was staged (see wipStagedMessage).
  const below = await getCommitInfo(repo, parent);
  const onStaged = below.message === staged && below.parents.length <= 1;
  return { sha: head, base: onStaged ? (below.parents[0] ?? null) : parent, parent };
}

/**
 * The WIP commit a plain `before` finds at a clean HEAD that builds on the run (`base`: where the
 * next iteration may start; null when the run has no iteration yet): the recorded before state's
 * own when HEAD is still there and no `after` used it, else one of this run's own WIP commits made
 * on the run's start or later (a call killed before it recorded). Null: HEAD holds no such commit.
 */
export async function wipAtHead(
  repo: Repo,
  run: RunRecord | null,
  runId: string,
  head: string,
  base: string | null,
): Promise<string | null> {
  if (head === base) return null;
  if (run?.before && !run.beforeUsedBy && run.before.sha === head) return run.before.wipSha;
  const wip = await ownWip(repo, runId, head);
  if (wip === null || base === null) return wip?.sha ?? null;
  if (wip.base === null) return null;
  const builds = wip.base === base || (await isAncestor(repo, base, wip.base).catch(() => false));
  return builds ? wip.sha : null;
}

/** The recorded before state when `next` is the same one again (a retry): returned as it was recorded, unwritten. */
export function recordedAgain(run: RunRecord | null, next: BeforeState): BeforeState | null {
  const was = run?.before;
  if (!was || run.beforeUsedBy) return null;
  const same =
    was.sha === next.sha &&
    was.branch === next.branch &&
    was.isDirty === next.isDirty &&
    was.wipSha === next.wipSha;
  return same ? was : null;
}

/**
 * What to do when HEAD is not at the restart point `sha`: check it out, keeping first what a hard
 * reset would drop (uncommitted changes, and commits such as a WIP commit that `sha` lacks).
 */
export async function checkoutAdvice(
  repo: Repo,
  runId: string,
  state: { sha: string | null; isDirty: boolean },
  sha: string,
  wip: OwnWip | null,
): Promise<string> {
  const head = state.sha;
  const steps: string[] = [];
  if (state.isDirty) steps.push('"git stash" (your uncommitted changes; "git stash pop" there)');
  const behind = head === null || (await isAncestor(repo, head, sha).catch(() => false));
  if (!behind) {
    const holds = wip === null ? '' : ', among them a WIP commit holding work that was uncommitted';
    steps.push(`"git branch kept-${runId} ${head}" (HEAD's commits that ${sha.slice(0, 12)} lacks${holds})`);
  }
  steps.push(`"git reset --hard ${sha}"`);
  return `check that commit out, keeping first what you need: ${steps.join(', then ')}; then retry`;
}

/**
 * A plain `before` refused because HEAD left the run: when HEAD is this run's WIP commit on a
 * restart point, a `before --restart-from N` made it and was killed before it recorded the
 * restart. The error then names that command, the way out; otherwise it is `error` unchanged.
 */
export async function killedRestart(
  repo: Repo,
  runId: string,
  head: string | null,
  snapshots: () => Promise<Snapshot[]>,
  error: RunDivergedError,
): Promise<RunDivergedError> {
  const wip = await ownWip(repo, runId, head).catch(() => null);
  if (wip === null || wip.base === null) return error;
  const base = wip.base;
  const all = await snapshots();
  const from = [0, ...all.map((s) => s.iteration)].filter((n) => restartPoint(all, n) === base).at(-1);
  if (from === undefined) return error;
  return new RunDivergedError(
    `HEAD (${wip.sha}) is run ${runId}'s WIP commit, holding the work that was uncommitted, on ${from === 0 ? "the run's start" : `iteration ${from}'s after commit`} ${base}: a "before --run ${runId} --restart-from ${from}" made it and stopped before recording the restart. Run "before --run ${runId} --restart-from ${from}" again (keep the WIP commit)`,
    { cause: error, details: { ...error.details, restartFrom: from, wipSha: wip.sha } },
  );
}

/** What wipRescue says of a WIP commit: its message part and the error's details. */
export interface WipRescue {
  text: string;
  details: { wipSha: string; wipRef: string; wipBase?: string };
}

/**
 * How to get back the work a WIP commit of this run holds once HEAD (`head`) has left it (an
 * agent's reset): its ref, and the git commands. Null when `sha` is not (or no longer) such a commit.
 */
export async function wipRescue(
  repo: Repo,
  runId: string,
  sha: string,
  head: string | null,
): Promise<WipRescue | null> {
  const wip = await ownWip(repo, runId, sha).catch(() => null);
  if (wip === null) return null;
  const base = await chainBase(repo, runId, wip.parent, head);
  const ref = wipRef(runId, sha);
  // A staged commit, or an earlier WIP commit, may sit under it: the range picks them all.
  const pick = base === null ? '' : `, or "git cherry-pick ${base}..${sha}" (as commits)`;
  return {
    text: `Run ${runId}'s WIP commit ${sha} holds the work that was uncommitted when "before" ran, and ${ref} keeps it: get it back with "git checkout ${sha} -- ." in ${repo.topLevel} (its files, over the work tree's)${pick}. `,
    details: { wipSha: sha, wipRef: ref, ...(base === null ? {} : { wipBase: base }) },
  };
}

/**
 * The commit below the chain of this run's WIP commits that `base` starts (a `before` run again on a
 * dirty workspace stacks one on the last), stopping at one HEAD still has: nothing to pick there.
 * It goes down one commit at a time, `: staged` ones included: HEAD may still have one of those.
 */
async function chainBase(
  repo: Repo,
  runId: string,
  base: string | null,
  head: string | null,
): Promise<string | null> {
  let at = base;
  while (at !== null && !(head !== null && (await isAncestor(repo, at, head).catch(() => false)))) {
    const below = await ownWip(repo, runId, at).catch(() => null);
    if (below === null) break;
    at = below.parent;
  }
  return at;
}
