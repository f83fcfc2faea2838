/**
 * Everything received is untrusted: hostile remotes (ext:: transports, odd ref names, records that
 * fail the schema) change nothing, and a record edited on the remote is taken in but fails verify.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitCallCount } from '../../src/git/runner.js';
import { git } from '../helpers/repo.js';
import { failsWith, forge, recordOf, runIterations, world, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

/** A remote that machine a pushed run "good" (one iteration) to: its record's ref, the ref's parent and the record. */
async function remoteWithGoodRun() {
  w = world();
  const a = w.machine('a');
  await runIterations(a, 'good', 1);
  await a.share.push({ workspace: a.dir });
  const ref = 'refs/agentgate/records/good/iteration-0';
  const good = recordOf(w.origin, ref) as ReturnType<typeof recordOf> & { patch: { file: string } | null };
  return { ref, parent: git(w.origin, ['rev-parse', `${ref}^`]), good };
}

describe('hostile remotes', () => {
  it('refuses ext:: and other program-running transports before git runs', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 1);
    const marker = join(w.root, 'pwned');
    const calls = gitCallCount();
    for (const url of [
      `ext::sh -c touch% ${marker}`,
      'fd::3',
      'http://example.invalid/repo.git',
      `-uhost:${marker}`,
    ]) {
      await failsWith(a.share.push({ workspace: a.dir }, url), 'REMOTE_UNSAFE');
      await failsWith(a.share.fetch({ workspace: a.dir }, url), 'REMOTE_UNSAFE');
    }
    // Only the repository was opened (config, rev-parse): no push, fetch or transport ran.
    expect(gitCallCount() - calls).toBeLessThanOrEqual(16);
    git(a.dir, ['remote', 'add', 'evil', `ext::sh -c touch% ${marker}`]);
    await failsWith(a.share.fetch({ workspace: a.dir }, 'evil'), 'REMOTE_UNSAFE');
    // A configured rewrite to ext:: is REMOTE_UNSAFE before git runs (git's allow-list would stop it too).
    git(a.dir, ['config', `url.ext::sh -c touch% ${marker}% #.insteadOf`, w.origin]);
    await failsWith(a.share.push({ workspace: a.dir }), 'REMOTE_UNSAFE');
    await failsWith(a.share.fetch({ workspace: a.dir }), 'REMOTE_UNSAFE');
    git(a.dir, ['config', `url.ext::sh -c touch% ${marker}% #.pushInsteadOf`, 'zzz:']);
    await failsWith(a.share.push({ workspace: a.dir }, 'zzz:x'), 'REMOTE_UNSAFE');
    // A push goes where git pushes: the remote's pushurl, checked like any URL.
    git(a.dir, ['config', 'remote.origin.pushurl', `ext::sh -c touch% ${marker}`]);
    await failsWith(a.share.push({ workspace: a.dir }), 'REMOTE_UNSAFE');
    git(a.dir, ['config', '--unset', 'remote.origin.pushurl']);
    git(a.dir, ['config', 'remote.origin.uploadpack', `sh -c "touch ${marker}"`]);
    git(a.dir, ['config', '--remove-section', `url.ext::sh -c touch% ${marker}% #`]);
    await a.share.fetch({ workspace: a.dir });
    expect(existsSync(marker)).toBe(false);
    git(a.dir, ['config', 'core.gitProxy', `sh -c "touch ${marker}"`]);
    await failsWith(a.share.fetch({ workspace: a.dir }, 'git://example.invalid/repo.git'), 'REMOTE_UNSAFE');
    await failsWith(a.share.push({ workspace: a.dir }, 'no-such-remote'), 'REMOTE_NOT_FOUND');
    await failsWith(a.share.fetch({ workspace: a.dir }, join(w.root, 'missing.git')), 'REMOTE_NOT_FOUND');
  });

  it('refuses odd ref names and records that fail the schema, and writes nothing for them', async () => {
    const { ref, parent, good } = await remoteWithGoodRun();
    const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
    forge(w.origin, 'refs/agentgate/records/-x/iteration-0', parent, json(good));
    forge(w.origin, 'refs/agentgate/records/nested/dir/iteration-0', parent, json(good));
    forge(w.origin, 'refs/agentgate/records/good/iteration-01', parent, json(good));
    forge(
      w.origin,
      'refs/agentgate/records/traversal/iteration-0',
      parent,
      json({ ...good, snapshot: { ...good.snapshot, runId: '../../etc', id: '../x' } }),
    );
    forge(w.origin, 'refs/agentgate/records/extra/iteration-0', parent, json({ ...good, exec: 'rm -rf /' }));
    forge(
      w.origin,
      'refs/agentgate/records/other/iteration-0',
      parent,
      json({
        ...good,
        snapshot: { ...good.snapshot, runId: 'other', id: 'snap-other' },
        patch: { file: '../../../outside/patch.diff', args: ['--output=/tmp/x'] },
      }),
    );
    forge(w.origin, 'refs/agentgate/records/notjson/iteration-0', parent, '{ nope');
    // An id that spells a commit would take `show <sha>` from the snapshot whose after commit it is.
    forge(
      w.origin,
      'refs/agentgate/records/shaid/iteration-0',
      parent,
      json({ ...good, snapshot: { ...good.snapshot, runId: 'shaid', id: good.snapshot.afterSha } }),
    );
    forge(
      w.origin,
      'refs/agentgate/records/wrongparent/iteration-0',
      git(w.origin, ['rev-parse', 'main']),
      json({ ...good, snapshot: { ...good.snapshot, runId: 'wrongparent', id: 'snap-wp' } }),
    );
    const b = w.machine('b');
    const got = await b.share.fetch({ workspace: b.dir });
    expect(got.runs).toEqual(['good']);
    expect(got.snapshots).toBe(1);
    expect(got.refused.map((r) => r.ref).sort()).toEqual(
      [
        'refs/agentgate/records/-x/iteration-0',
        'refs/agentgate/records/extra/iteration-0',
        'refs/agentgate/records/good/iteration-01',
        'refs/agentgate/records/nested/dir/iteration-0',
        'refs/agentgate/records/notjson/iteration-0',
        'refs/agentgate/records/other/iteration-0',
        'refs/agentgate/records/shaid/iteration-0',
        'refs/agentgate/records/traversal/iteration-0',
        'refs/agentgate/records/wrongparent/iteration-0',
      ].sort(),
    );
    expect(got.refused.find((r) => r.ref.includes('/shaid/'))?.reason).toMatch(/commit id/);
    // Nothing of the refused records reached the home or the repository's records.
    expect(readdirSync(join(b.home, 'runs'))).toEqual(['good.json']);
    expect(
      git(b.dir, [
        'for-each-ref',
        '--format=%(refname)',
        'refs/agentgate/records/',
        'refs/agentgate/incoming/',
      ]),
    ).toBe(ref);
    expect(existsSync(join(w.root, 'outside'))).toBe(false);
  });

  it('refuses a record whose run before state does not fit its commits; the same record with its own is taken', async () => {
    const { parent, good } = await remoteWithGoodRun();
    const fits = {
      sha: good.snapshot.beforeSha as string,
      branch: 'main',
      isDirty: false,
      wipSha: null,
      capturedAt: new Date().toISOString(),
      headState: 'branch',
    };
    const as = (runId: string, before: Record<string, unknown>) =>
      `${JSON.stringify({
        ...good,
        snapshot: { ...good.snapshot, runId, id: `snap-${runId}` },
        patch: good.patch === null ? null : { ...good.patch, file: `${runId}/iteration-0/patch.diff` },
        run: { ...(good.run as object), before: { runId, ...before } },
      })}\n`;
    forge(w.origin, 'refs/agentgate/records/own/iteration-0', parent, as('own', fits));
    const lies = {
      'other-run': { ...fits, runId: 'other' },
      'other-sha': { ...fits, sha: 'd'.repeat(40) },
      'wip-not-start': { ...fits, isDirty: true, wipSha: 'e'.repeat(40) },
      'branch-line': { ...fits, branch: 'main\n::error::x' },
    };
    for (const [runId, before] of Object.entries(lies))
      forge(w.origin, `refs/agentgate/records/${runId}/iteration-0`, parent, as(runId, before));
    const b = w.machine('b');
    const got = await b.share.fetch({ workspace: b.dir });
    expect(got.runs).toEqual(['good', 'own']);
    expect(got.refused.map((r) => [r.ref.split('/')[3], r.reason])).toEqual(
      Object.keys(lies)
        .sort()
        .map((runId) => [runId, expect.stringContaining('run before state does not fit')]),
    );
  });

  it('takes in a record edited on the remote, and verify fails it (counts, patch, task)', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 't', 3);
    await a.share.push({ workspace: a.dir });
    const edits: Array<(r: Record<string, unknown> & { snapshot: Record<string, unknown> }) => void> = [
      (r) => (r.snapshot.insertions = 999),
      (r) => (r.snapshot.patchSha256 = 'f'.repeat(64)),
      (r) => (r.snapshot.task = 'a different task'),
    ];
    for (const [i, edit] of edits.entries()) {
      const ref = `refs/agentgate/records/t/iteration-${i}`;
      const record = recordOf(w.origin, ref);
      edit(record);
      forge(w.origin, ref, git(w.origin, ['rev-parse', `${ref}^`]), `${JSON.stringify(record, null, 2)}\n`);
    }
    const b = w.machine('b');
    expect((await b.share.fetch({ workspace: b.dir })).snapshots).toBe(3);
    const report = await b.snap.verify({ runId: 't' });
    expect(report.ok).toBe(false);
    const failed = report.checks.filter((c) => !c.ok).map((c) => c.check);
    expect(failed).toEqual(expect.arrayContaining(['stats', 'patch-artifact', 'task']));
    // And the machine that made the run refuses the edited records: its own stay.
    const back = await a.share.fetch({ workspace: a.dir });
    expect(back.refused).toHaveLength(3);
    expect((await a.snap.verify({ runId: 't' })).ok).toBe(true);
  });
});
