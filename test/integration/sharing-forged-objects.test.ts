/** Records from a remote whose SHAs name objects of the wrong kind (a black-box hunt, travel13). */
import { afterEach, describe, expect, it } from 'vitest';
import { git } from '../helpers/repo.js';
import { forge, machineCli, recordOf, runIterations, world, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

describe('a forged record whose before SHA is no commit', () => {
  it('is refused by fetch and import, so verify --all and report still run', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'good', 1);
    await a.share.push({ workspace: a.dir });
    const ref = 'refs/agentgate/records/good/iteration-0';
    const record = recordOf(w.origin, ref);
    const s = record.snapshot as { beforeSha: string; afterSha: string; commitMessage: string };
    // The before commit's tree stands where the before commit goes (`^{tree}` peels it too).
    const tree = git(w.origin, ['rev-parse', `${s.beforeSha}^{tree}`]);
    for (const [runId, beforeSha] of [['bytree', tree]] as const)
      forge(
        w.origin,
        `refs/agentgate/records/${runId}/iteration-0`,
        s.afterSha,
        json({
          ...record,
          snapshot: { ...record.snapshot, runId, id: `snap-${runId}`, beforeSha },
          patch: { ...(record.patch as object), file: `${runId}/iteration-0/patch.diff` },
          run: { ...(record.run as object), before: null },
        }),
      );
    const b = w.machine('b');
    const got = await b.share.fetch({ workspace: b.dir });
    expect(got.runs).toEqual(['good']);
    expect(got.refused.map((r) => r.ref)).toEqual(['refs/agentgate/records/bytree/iteration-0']);
    const verify = machineCli(b, ['verify', '--all', '--json']);
    expect(verify.status, verify.stdout).toBe(0);
    const report = machineCli(b, ['report', '--run', 'good', '--format', 'json', '--json']);
    expect(report.status, report.stdout).toBe(0);

    const c = w.machine('c');
    const bundle = `${w.root}/all.bundle`;
    git(w.origin, ['bundle', 'create', bundle, '--all']);
    const imported = await c.share.import(c.dir, bundle);
    expect(imported.runs).toEqual(['good']);
    expect(imported.refused.map((r) => r.ref)).toEqual(['refs/agentgate/records/bytree/iteration-0']);
  });
});
