/**
 * The WIP commit `before` makes of uncommitted work is kept by a ref of its own,
 * `refs/agentgate/runs/<runId>/wip-<sha>`: an agent that resets past it, a HISTORY_REWRITTEN, a
 * later `before` and git's gc leave the user's work where the error says it is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { commitAll, git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { expectCode, newSnapshotter } from '../helpers/snapshotter.js';

const wipRef = (runId: string, sha: string): string => `refs/agentgate/runs/${runId}/wip-${sha}`;
const refsOf = (dir: string, runId: string): string =>
  git(dir, ['for-each-ref', '--format=%(refname) %(objectname)', `refs/agentgate/runs/${runId}/`]);
/** Drops every object no ref keeps, reflogs included. */
const prune = (dir: string): void => {
  git(dir, ['reflog', 'expire', '--expire-unreachable=now', '--all']);
  git(dir, ['gc', '-q', '--prune=now']);
};

/** Does what a refusal advises to get the work back as commits: its "git cherry-pick <base>..<wipSha>". */
function followPickAdvice(dir: string, error: unknown): string {
  const { message, details } = error as { message: string; details: Record<string, string> };
  const range = /"git cherry-pick ([0-9a-f]{40})\.\.([0-9a-f]{40})"/.exec(message);
  expect(range?.slice(1)).toEqual([details.wipBase, details.wipSha]);
  git(dir, ['cherry-pick', `${details.wipBase}..${details.wipSha}`]);
  return details.wipBase as string;
}

function twoCommits(): string {
  const dir = repoWithCommit({ 'a.txt': 'one\n' });
  writeFiles(dir, { 'a.txt': 'two\n' });
  commitAll(dir, 'second');
  return dir;
}

describe('the WIP commit of before', () => {
  it('survives an agent that resets past it, a later before and gc; HISTORY_REWRITTEN names it', () => {
    const dir = twoCommits();
    writeFiles(dir, { 'precious.txt': 'WORK\n' });
    const env = { AGENTGATE_HOME: tempDir('agentgate-home-') };
    const run = (args: string[]) => runCli(['-C', dir, '--json', ...args], { env });

    const failed = run([
      'iterate',
      '--run',
      'r6',
      '--iteration',
      '1',
      '--',
      'git',
      'reset',
      '-q',
      '--hard',
      'HEAD~1',
    ]);
    const error = (failed.json() as { error: { code: string; details: Record<string, string> } }).error;
    expect(error.code).toBe('HISTORY_REWRITTEN');
    const wip = error.details.wipSha as string;
    expect(error.details.wipRef).toBe(wipRef('r6', wip));
    expect(existsSync(join(dir, 'precious.txt'))).toBe(false);
    expect(refsOf(dir, 'r6')).toBe(`${wipRef('r6', wip)} ${wip}`);

    // The next before records another state; the earlier WIP commit keeps its ref through gc.
    expect(run(['before', '--run', 'r6']).status).toBe(0);
    prune(dir);
    expect(git(dir, ['show', `${wip}:precious.txt`])).toBe('WORK');
    expect(refsOf(dir, 'r6')).toBe(`${wipRef('r6', wip)} ${wip}`);
    git(dir, ['checkout', wip, '--', '.']);
    expect(readFileSync(join(dir, 'precious.txt'), 'utf8')).toBe('WORK\n');
  });

  it('gets one ref per WIP commit (with a staged commit below it), none when clean, and again on a retry', async () => {
    const dir = twoCommits();
    const s = newSnapshotter();
    const clean = await s.captureBeforeState(dir, { runId: 'w' });
    expect(clean.wipSha).toBeNull();
    expect(refsOf(dir, 'w')).toBe('');

    // A staged version that is neither HEAD's nor the work tree's: a staged commit, then the WIP commit.
    writeFiles(dir, { 'a.txt': 'staged\n' });
    git(dir, ['add', 'a.txt']);
    writeFiles(dir, { 'a.txt': 'worktree\n' });
    const first = await s.captureBeforeState(dir, { runId: 'w' });
    const w1 = first.wipSha as string;
    expect(git(dir, ['log', '-1', '--format=%s', `${w1}~1`])).toBe('[agentgate] WIP before run: staged');

    // The agent throws both away; the next before saves new work, and both WIP commits stay.
    git(dir, ['reset', '-q', '--hard', clean.sha]);
    writeFiles(dir, { 'b.txt': 'later\n' });
    const second = await s.captureBeforeState(dir, { runId: 'w' });
    const w2 = second.wipSha as string;
    prune(dir);
    expect(refsOf(dir, 'w').split('\n').sort()).toEqual(
      [`${wipRef('w', w1)} ${w1}`, `${wipRef('w', w2)} ${w2}`].sort(),
    );
    expect(git(dir, ['show', `${w1}~1:a.txt`])).toBe('staged');
    expect(git(dir, ['show', `${w1}:a.txt`])).toBe('worktree');

    // A before run again finds its own WIP commit at HEAD, and puts back a ref that is missing.
    git(dir, ['update-ref', '-d', wipRef('w', w2)]);
    const again = await s.captureBeforeState(dir, { runId: 'w' });
    expect(again.wipSha).toBe(w2);
    expect(git(dir, ['rev-parse', wipRef('w', w2)])).toBe(w2);
  });

  it('a before that finds HEAD reset past the last iteration and its WIP commit names that commit', async () => {
    const dir = twoCommits();
    const s = newSnapshotter();
    const start = await s.captureBeforeState(dir, { runId: 'd' });
    writeFiles(dir, { 'c.txt': 'c\n' });
    await s.captureAfterState(dir, start, { runId: 'd', iteration: 1 });
    writeFiles(dir, { 'precious.txt': 'WORK\n' });
    const before = await s.captureBeforeState(dir, { runId: 'd' });
    git(dir, ['reset', '-q', '--hard', 'HEAD~2']);

    await expectCode(s.captureAfterState(dir, null, { runId: 'd', iteration: 2 }), 'HISTORY_REWRITTEN');
    const error = await s.captureBeforeState(dir, { runId: 'd' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RUN_DIVERGED', details: { wipSha: before.wipSha } });
    expect(head(dir)).not.toBe(before.wipSha);
    expect(git(dir, ['rev-parse', wipRef('d', before.wipSha as string)])).toBe(before.wipSha);
  });

  it('advises a cherry-pick that gets back every WIP commit of the iteration, not the last one alone', async () => {
    const dir = twoCommits();
    const s = newSnapshotter();
    const b0 = head(dir);
    // Two befores of one unused iteration, each on a dirty workspace: two WIP commits, one on the other.
    writeFiles(dir, { 'one.txt': 'one\n' });
    await s.captureBeforeState(dir, { runId: 'c' });
    writeFiles(dir, { 'two.txt': 'two\n' });
    const second = await s.captureBeforeState(dir, { runId: 'c' });
    git(dir, ['reset', '-q', '--hard', b0]);

    const error = await s.captureAfterState(dir, null, { runId: 'c', iteration: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HISTORY_REWRITTEN', details: { wipSha: second.wipSha } });
    expect(followPickAdvice(dir, error)).toBe(b0);
    expect(readFileSync(join(dir, 'one.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(dir, 'two.txt'), 'utf8')).toBe('two\n');
  });

  it('so does a before that finds HEAD reset past the last iteration and two WIP commits', async () => {
    const dir = twoCommits();
    const s = newSnapshotter();
    const start = await s.captureBeforeState(dir, { runId: 'e' });
    writeFiles(dir, { 'c.txt': 'c\n' });
    const first = await s.captureAfterState(dir, start, { runId: 'e', iteration: 1 });
    writeFiles(dir, { 'one.txt': 'one\n' });
    await s.captureBeforeState(dir, { runId: 'e' });
    writeFiles(dir, { 'two.txt': 'two\n' });
    await s.captureBeforeState(dir, { runId: 'e' });
    git(dir, ['reset', '-q', '--hard', start.sha]);

    const error = await s.captureBeforeState(dir, { runId: 'e' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RUN_DIVERGED' });
    expect(followPickAdvice(dir, error)).toBe(first.afterSha);
    expect(existsSync(join(dir, 'one.txt')) && existsSync(join(dir, 'two.txt'))).toBe(true);
  });

  /** Stages `staged` for a.txt and leaves `worktree` in the work tree: before makes a `: staged` commit, then the WIP commit. */
  const partlyStaged = (dir: string, staged: string, worktree: string): void => {
    writeFiles(dir, { 'a.txt': staged });
    git(dir, ['add', 'a.txt']);
    writeFiles(dir, { 'a.txt': worktree });
  };
  const treeOf = (dir: string, rev: string): string => git(dir, ['rev-parse', `${rev}^{tree}`]);

  it('starts the range at the staged commit of a WIP pair that HEAD still has', async () => {
    const dir = twoCommits();
    const s = newSnapshotter();
    partlyStaged(dir, 'staged\n', 'worktree\n');
    const before = await s.captureBeforeState(dir, { runId: 'g' });
    const wip = before.wipSha as string;
    git(dir, ['reset', '-q', '--hard', 'HEAD~1']);

    const error = await s.captureAfterState(dir, null, { runId: 'g', iteration: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HISTORY_REWRITTEN' });
    expect(followPickAdvice(dir, error)).toBe(git(dir, ['rev-parse', `${wip}~1`]));
    expect(treeOf(dir, 'HEAD')).toBe(treeOf(dir, wip));
  });

  it('starts it at the lower staged commit of two stacked WIP pairs when HEAD is there', async () => {
    const dir = twoCommits();
    const s = newSnapshotter();
    partlyStaged(dir, 'staged\n', 'worktree\n');
    const first = await s.captureBeforeState(dir, { runId: 'h' });
    partlyStaged(dir, 'staged 2\n', 'worktree 2\n');
    const second = await s.captureBeforeState(dir, { runId: 'h' });
    const lower = git(dir, ['rev-parse', `${first.wipSha as string}~1`]);
    git(dir, ['reset', '-q', '--hard', lower]);

    const error = await s.captureAfterState(dir, null, { runId: 'h', iteration: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HISTORY_REWRITTEN', details: { wipSha: second.wipSha } });
    expect(followPickAdvice(dir, error)).toBe(lower);
    expect(treeOf(dir, 'HEAD')).toBe(treeOf(dir, second.wipSha as string));
  });

  it('starts the range at a WIP commit HEAD still has (an iteration that changed nothing ended on it)', async () => {
    const dir = twoCommits();
    const s = newSnapshotter();
    writeFiles(dir, { 'one.txt': 'one\n' });
    const first = await s.captureBeforeState(dir, { runId: 'f' });
    const after = await s.captureAfterState(dir, first, { runId: 'f', iteration: 1 });
    expect(after.afterSha).toBe(first.wipSha);
    writeFiles(dir, { 'two.txt': 'two\n' });
    await s.captureBeforeState(dir, { runId: 'f' });
    git(dir, ['reset', '-q', '--hard', after.afterSha]);

    const error = await s.captureAfterState(dir, null, { runId: 'f', iteration: 2 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HISTORY_REWRITTEN' });
    expect(followPickAdvice(dir, error)).toBe(after.afterSha);
    expect(readFileSync(join(dir, 'two.txt'), 'utf8')).toBe('two\n');
  });
});
