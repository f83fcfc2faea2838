/**
 * What a home already holds decides what it takes in: a record of one of its own snapshots must be
 * the one it would publish (even before it made the record ref), the repository's own records judge
 * a new home's fetch, a bundle git refuses says why, and push without -C is push with -C of the
 * current directory.
 */
import { cpSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_IDENTITY } from '../../types/config.js';
import { Sharing } from '../../src/sharing/sharing.js';
import { runCli } from '../helpers/cli.js';
import { commitAll, git, writeFiles } from '../helpers/repo.js';
import { failsWith, forge, recordOf, runIterations, world, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

const RECORD = (runId: string, n: number) => `refs/agentgate/records/${runId}/iteration-${n}`;
const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Replaces the remote's record at `ref` with one whose task says something else (same parent). */
function editTask(remote: string, ref: string): string {
  const record = recordOf(remote, ref);
  record.snapshot.task = 'FORGED';
  return forge(remote, ref, git(remote, ['rev-parse', `${ref}^`]), json(record));
}

/** A Sharing of the same options as the world's machines, with another home. */
function sharingWithHome(home: string): Sharing {
  return new Sharing({
    home,
    artifactsDir: join(home, 'artifacts'),
    identity: DEFAULT_IDENTITY,
    gitTimeoutMs: 60_000,
    lockTimeoutMs: 10_000,
  });
}

const refOf = (dir: string, ref: string) => git(dir, ['for-each-ref', '--format=%(objectname)', ref]);

/**
 * Rewrites the run's before state of the record at `ref` in `repo`: the commit is the same otherwise
 * (message, date, parent), as the home would make it with that before state.
 */
function forgeBefore(repo: string, ref: string, edit: (before: Record<string, unknown>) => void): string {
  const record = recordOf(repo, ref) as unknown as { run: { before: Record<string, unknown> } };
  edit(record.run.before);
  const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: json(record) });
  const tree = git(repo, ['mktree'], { input: `100644 blob ${blob}\trecord.json\n` });
  const body = git(repo, ['cat-file', 'commit', ref]).replace(/^tree \S+/, `tree ${tree}`);
  const commit = git(repo, ['hash-object', '-t', 'commit', '-w', '--stdin'], { input: `${body}\n` });
  git(repo, ['update-ref', ref, commit]);
  return commit;
}

describe('records of runs this home holds', () => {
  it('refuses an edited record of its own run that it has not made a ref for; push then publishes its own or fails', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r9', 1);
    await a.share.push({ workspace: a.dir });
    const ref = RECORD('r9', 0);
    const real = refOf(a.dir, ref);
    const forged = editTask(w.origin, ref);
    // As before the first push (or after the ref was lost): this repository has no record ref.
    git(a.dir, ['update-ref', '-d', ref]);
    const got = await a.share.fetch({ workspace: a.dir });
    expect(got).toMatchObject({ snapshots: 0, unchanged: 0 });
    expect(got.refused.map((r) => r.ref)).toEqual([ref]);
    expect(refOf(a.dir, ref)).toBe('');
    await failsWith(a.share.push({ workspace: a.dir }), 'PUSH_REJECTED');
    expect(refOf(a.dir, ref)).toBe(real);
    expect(refOf(w.origin, ref)).toBe(forged);
    // The record it made itself is taken back as its own.
    git(w.origin, ['update-ref', ref, real]);
    git(a.dir, ['update-ref', '-d', ref]);
    expect(await a.share.fetch({ workspace: a.dir })).toMatchObject({ unchanged: 1, refused: [] });
    expect(refOf(a.dir, ref)).toBe(real);
  });

  it("push replaces an edited record of its own snapshot that another home or git took into the repository's refs", async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 1);
    await a.share.push({ workspace: a.dir });
    const ref = RECORD('r', 0);
    const real = refOf(a.dir, ref);
    const forged = editTask(w.origin, ref);
    for (const [i, takeIn] of [
      async () =>
        expect((await sharingWithHome(join(w.root, 'h2')).fetch({ workspace: a.dir })).refused).toEqual([]),
      async () => git(a.dir, ['fetch', '-q', 'origin', `+${ref}:${ref}`]),
    ].entries()) {
      git(a.dir, ['update-ref', '-d', ref]);
      expect((await a.share.fetch({ workspace: a.dir })).refused.map((r) => r.ref)).toEqual([ref]);
      await takeIn();
      expect(refOf(a.dir, ref)).toBe(forged);
      const clean = join(w.root, `clean-${i}.git`);
      git(w.root, ['init', '-q', '--bare', clean]);
      expect(await a.share.push({ workspace: a.dir }, clean)).toMatchObject({
        updated: [ref],
        replaced: [ref],
      });
      expect([refOf(a.dir, ref), refOf(clean, ref)]).toEqual([real, real]);
      expect(await a.share.push({ workspace: a.dir }, clean)).not.toHaveProperty('replaced');
    }
  });

  it("takes back its records made before the run's before state moved on, and refuses an edited one of them", async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 2);
    await a.share.push({ workspace: a.dir, runId: 'r' }); // iteration 1's record carries its before state
    await runIterations(a, 'r', 1, 2); // which the run no longer holds
    expect(recordOf(w.origin, RECORD('r', 1)).run).toMatchObject({ before: expect.any(Object) });
    const forged = editTask(w.origin, RECORD('r', 0));
    for (const n of [0, 1]) git(a.dir, ['update-ref', '-d', RECORD('r', n)]);
    const got = await a.share.fetch({ workspace: a.dir });
    expect(got).toMatchObject({ snapshots: 0, unchanged: 1 });
    expect(got.refused.map((r) => r.ref)).toEqual([RECORD('r', 0)]);
    expect(refOf(a.dir, RECORD('r', 0))).toBe('');
    expect(refOf(a.dir, RECORD('r', 1))).toBe(refOf(w.origin, RECORD('r', 1)));
    expect(refOf(w.origin, RECORD('r', 0))).toBe(forged);
  });

  it("a lost record ref of a run that moved on: the remote's record is this home's own to fetch and to push", async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'job', 1);
    await a.share.push({ workspace: a.dir }); // iteration 0's record carries its before state
    const [ref, next] = [RECORD('job', 0), RECORD('job', 1)];
    const published = refOf(w.origin, ref);
    git(a.dir, ['update-ref', '-d', ref]); // a fresh clone of the repository
    await runIterations(a, 'job', 1, 1);
    await a.share.export({ workspace: a.dir }, join(w.root, 'x.bundle')); // remakes it without that state
    expect(refOf(a.dir, ref)).not.toBe(published);
    expect(await a.share.fetch({ workspace: a.dir })).toMatchObject({ refused: [], unchanged: 1 });
    expect(refOf(a.dir, ref)).toBe(published);
    git(a.dir, ['update-ref', '-d', ref]);
    expect(await a.share.push({ workspace: a.dir })).toMatchObject({ updated: [next], upToDate: [ref] });
    expect(refOf(a.dir, ref)).toBe(published);
    expect(await a.share.push({ workspace: a.dir })).toMatchObject({ updated: [], upToDate: [ref, next] });
  });

  it('refuses a record of a run that moved on whose before state that iteration cannot have had', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 2);
    await a.share.push({ workspace: a.dir, runId: 'r' }); // iteration 1's record carries its before state
    await runIterations(a, 'r', 1, 2);
    const ref = RECORD('r', 1);
    const real = refOf(w.origin, ref);
    expect(forgeBefore(w.origin, ref, () => {})).toBe(real); // the forgery is the very commit otherwise
    const other = git(a.dir, ['rev-parse', `${ref}^`]);
    const edits: Array<(b: Record<string, unknown>) => void> = [
      (b) => (b.sha = other),
      (b) => Object.assign(b, { isDirty: true, wipSha: other }),
      (b) => (b.runId = 'another'),
    ];
    for (const [i, edit] of edits.entries()) {
      git(w.origin, ['update-ref', ref, real]);
      const forged = forgeBefore(w.origin, ref, edit);
      // fetch refuses it
      git(a.dir, ['update-ref', '-d', ref]);
      expect((await a.share.fetch({ workspace: a.dir })).refused.map((r) => r.ref)).toEqual([ref]);
      expect(refOf(a.dir, ref)).toBe('');
      // push does not adopt it
      await failsWith(a.share.push({ workspace: a.dir }), 'PUSH_REJECTED');
      expect(refOf(a.dir, ref)).not.toBe(forged);
      expect(refOf(w.origin, ref)).toBe(forged);
      // push replaces it when git took it into the repository's refs
      git(a.dir, ['fetch', '-q', 'origin', `+${ref}:${ref}`]);
      const clean = join(w.root, `clean-before-${i}.git`);
      git(w.root, ['init', '-q', '--bare', clean]);
      expect(await a.share.push({ workspace: a.dir }, clean)).toMatchObject({ replaced: [ref] });
      expect(refOf(clean, ref)).not.toBe(forged);
    }
  });

  it("takes back its record of an iteration that changed nothing, which carries the next one's before state", async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 1);
    const before = await a.snap.captureBeforeState(a.dir, { runId: 'r' });
    await a.snap.captureAfterState(a.dir, before, { runId: 'r', iteration: 1 });
    const next = await a.snap.captureBeforeState(a.dir, { runId: 'r' });
    await a.share.push({ workspace: a.dir });
    const ref = RECORD('r', 1);
    expect(recordOf(w.origin, ref).run).toMatchObject({ before: { capturedAt: next.capturedAt } });
    await runIterations(a, 'r', 1, 2);
    git(a.dir, ['update-ref', '-d', ref]);
    expect(await a.share.fetch({ workspace: a.dir })).toMatchObject({ refused: [] });
    expect(refOf(a.dir, ref)).toBe(refOf(w.origin, ref));
  });

  it('a machine that fetched a run takes its records back when its refs are gone', async () => {
    w = world();
    const [a, b] = [w.machine('a'), w.machine('b')];
    await runIterations(a, 'r', 3);
    await a.share.push({ workspace: a.dir });
    expect(await b.share.fetch({ workspace: b.dir })).toMatchObject({ snapshots: 3 });
    for (const n of [0, 1, 2]) git(b.dir, ['update-ref', '-d', RECORD('r', n)]);
    expect((await b.share.fetch({ workspace: b.dir })).refused).toEqual([]);
    for (const n of [0, 1, 2]) expect(refOf(b.dir, RECORD('r', n))).toBe(refOf(w.origin, RECORD('r', n)));
  });

  it("a new home rebuilds the repository's records of a run before judging another run's under the same id", async () => {
    w = world();
    const [a, y, i2] = [w.machine('a'), w.machine('y'), w.machine('i2')];
    await runIterations(a, 'r1', 2);
    await a.share.push({ workspace: a.dir });
    await runIterations(y, 'r1', 3); // another run that picked the same id
    expect(await i2.share.fetch({ workspace: i2.dir })).toMatchObject({ snapshots: 2 });
    // One remote holds a's iterations and y's third, another y's third alone.
    const [both, onlyY] = [join(w.root, 'both.git'), join(w.root, 'only-y.git')];
    for (const bare of [both, onlyY]) git(w.root, ['init', '-q', '--bare', bare]);
    await a.share.push({ workspace: a.dir }, both);
    await y.share.export({ workspace: y.dir }, join(w.root, 'y.bundle')); // makes y's record refs
    git(y.dir, ['push', '-q', both, `${RECORD('r1', 2)}:${RECORD('r1', 2)}`]);
    git(y.dir, ['push', '-q', onlyY, `${RECORD('r1', 2)}:${RECORD('r1', 2)}`]);
    const createdAt = (await a.share.store.loadRun('r1'))?.createdAt;
    for (const [name, remote] of [
      ['i2b', both],
      ['i2c', onlyY],
    ] as const) {
      const home = join(w.root, `${name}-home`);
      const share = sharingWithHome(home);
      const got = await share.fetch({ workspace: i2.dir }, remote);
      expect(got, name).toMatchObject({ runs: ['r1'], snapshots: 2 });
      expect(
        got.refused.map((r) => r.ref),
        name,
      ).toEqual([RECORD('r1', 2)]);
      expect((await share.store.loadRun('r1'))?.createdAt).toBe(createdAt);
      expect(refOf(i2.dir, RECORD('r1', 2))).toBe('');
    }
  });
});

describe('a bundle git refuses', () => {
  it('says which prerequisite commits are missing', async () => {
    w = world();
    const [a, b] = [w.machine('a'), w.machine('b')];
    writeFiles(a.dir, { 'local.txt': 'only on a\n' });
    commitAll(a.dir, 'local commit');
    const local = git(a.dir, ['rev-parse', 'HEAD']);
    await runIterations(a, 'r', 1);
    await a.share.export({ workspace: a.dir }, join(w.root, 'whole.bundle'));
    const thin = join(w.root, 'thin.bundle');
    git(a.dir, ['bundle', 'create', '-q', thin, RECORD('r', 0), `^${local}`]);
    const error = (await failsWith(b.share.import(b.dir, thin), 'BUNDLE_INVALID')) as unknown as Error;
    expect(error.message).toContain(local);
  });
});

describe('push and export without -C', () => {
  it('behave as with -C of the current directory in a copy of a workspace whose original is gone', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'moved', 1);
    const ws = join(w.root, 'copy');
    cpSync(a.dir, ws, { recursive: true });
    renameSync(a.dir, join(w.root, 'gone'));
    for (const [i, args] of [['--run', 'moved'], []].entries()) {
      const remote = join(w.root, `remote-${i}.git`);
      git(w.root, ['init', '-q', '--bare', remote]);
      const res = runCli(['--home', a.home, 'push', ...args, '--remote', remote, '--json'], { cwd: ws });
      expect([res.status, res.json()], res.stdout + res.stderr).toEqual([
        0,
        expect.objectContaining({ runs: ['moved'], refs: 1 }),
      ]);
    }
    const bundle = join(w.root, 'copy.bundle');
    const res = runCli(['--home', a.home, 'export', '-o', bundle, '--json'], { cwd: ws });
    expect([res.status, res.json()]).toEqual([0, expect.objectContaining({ runs: ['moved'] })]);
  });

  it("a push whose records reach a commit this repository lost is OBJECT_MISSING, not the remote's refusal", async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'lost', 1);
    git(a.dir, ['reset', '-q', '--hard', 'HEAD~1']);
    for (const ref of git(a.dir, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/']).split('\n'))
      if (ref) git(a.dir, ['update-ref', '-d', ref]);
    git(a.dir, ['reflog', 'expire', '--expire=now', '--all']);
    git(a.dir, ['gc', '-q', '--prune=now']);
    await failsWith(a.share.push({ workspace: a.dir }), 'OBJECT_MISSING');
  });
  it('names only the records that reach a lost commit; the healthy ones are pushed, and export says the same', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run', 1);
    git(a.dir, ['reset', '-q', '--hard', 'HEAD~1']);
    git(a.dir, ['update-ref', '-d', 'refs/agentgate/runs/run/iteration-0']);
    git(a.dir, ['reflog', 'expire', '--expire=now', '--all']);
    git(a.dir, ['gc', '-q', '--prune=now']);
    await runIterations(a, 'run2', 1);
    const error = await failsWith(a.share.push({ workspace: a.dir }), 'OBJECT_MISSING');
    expect(error.details).toMatchObject({ refs: [RECORD('run', 0)], updated: [RECORD('run2', 0)] });
    expect([refOf(w.origin, RECORD('run', 0)), refOf(w.origin, RECORD('run2', 0))]).toEqual([
      '',
      refOf(a.dir, RECORD('run2', 0)),
    ]);
    // The broken record's ref is gone (the home makes it again), so the repository's gc still works.
    expect(refOf(a.dir, RECORD('run', 0))).toBe('');
    git(a.dir, ['gc', '-q']);
    const bundle = await failsWith(
      a.share.export({ workspace: a.dir }, join(w.root, 'x.bundle')),
      'OBJECT_MISSING',
    );
    expect(bundle.details).toMatchObject({ refs: [RECORD('run', 0)] });
    expect(refOf(a.dir, RECORD('run', 0))).toBe('');
    git(a.dir, ['gc', '-q']);
  });
});
