/** fetchAroundMissing: the refs a source cannot send are left out by halves, within a bound. */
import { describe, expect, it } from 'vitest';
import { GitFailedError } from '../../src/errors.js';
import { fetchAroundMissing } from '../../src/sharing/missing-objects.js';

const damaged = () =>
  new GitFailedError('git fetch failed', {
    details: { stderr: 'remote: aborting due to possible repository corruption on the remote side.' },
  });
const specs = (n: number) =>
  Array.from({ length: n }, (_, i) => `+refs/agentgate/records/r${i}/iteration-0:x${i}`);

describe('fetchAroundMissing', () => {
  it('fetches every ref but the ones the source cannot send, each landing once', async () => {
    const landed: string[] = [];
    let calls = 0;
    await fetchAroundMissing(
      async (part) => {
        calls += 1;
        if (part.some((s) => s.includes('/r5/') || s.includes('/r11/'))) throw damaged();
        landed.push(...part.filter((s) => !s.startsWith('^')));
      },
      [...specs(16), '^refs/agentgate/records/odd'],
    );
    expect(landed.sort()).toEqual(
      specs(16)
        .filter((s) => !/\/r(5|11)\//.test(s))
        .sort(),
    );
    expect(calls).toBeLessThan(20);
  });

  it('throws the first failure for a source that fails whatever it is asked, or for another failure', async () => {
    let calls = 0;
    const first = damaged();
    await expect(
      fetchAroundMissing(async () => {
        calls += 1;
        throw calls === 1 ? first : damaged();
      }, specs(2000)),
    ).rejects.toBe(first);
    expect(calls).toBeLessThanOrEqual(66);
    const other = new GitFailedError('x', { details: { stderr: 'fatal: something else' } });
    await expect(fetchAroundMissing(() => Promise.reject(other), specs(4))).rejects.toBe(other);
  });
});
