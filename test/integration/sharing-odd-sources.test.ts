/**
 * Sources and targets that are unusual but real: a remote of the other object format (sha256
 * against sha1), a bundle exported from a shallow clone, a forged bundle header naming a ref twice.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../helpers/repo.js';
import { machineCli, runIterations, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
let a: Machine;

beforeAll(async () => {
  w = world();
  a = w.machine('a');
  await runIterations(a, 'odd', 2);
}, 120_000);

afterAll(() => w?.cleanup());

describe('a remote of the other object format', () => {
  /** The error of a failing `--json` call on `m`'s workspace. */
  function failure(m: Machine, args: string[]) {
    const res = machineCli(m, ['--json', ...args]);
    expect(res.status, res.stdout + res.stderr).toBe(1);
    return (res.json() as { error: { code: string; details: Record<string, unknown> } }).error;
  }

  it('is REMOTE_NOT_FOUND naming both formats, for push and for fetch', () => {
    const other = join(w.root, 'sha256.git');
    git(w.root, ['init', '-q', '--bare', '--object-format=sha256', other]);
    const pushed = failure(a, ['push', '--remote', other]);
    expect(pushed.code).toBe('REMOTE_NOT_FOUND');
    expect(pushed.details).toMatchObject({ objectFormat: 'sha1', remoteObjectFormat: 'sha256' });
    expect(machineCli(a, ['push']).status).toBe(0);
    const b = { ...a, dir: join(w.root, 'b256'), home: join(w.root, 'b256-home') };
    git(w.root, ['init', '-q', '-b', 'main', '--object-format=sha256', b.dir]);
    git(b.dir, ['commit', '-q', '--allow-empty', '-m', 'start']);
    const fetched = failure(b, ['fetch', '--remote', w.origin]);
    expect(fetched.code).toBe('REMOTE_NOT_FOUND');
    expect(fetched.details).toMatchObject({ objectFormat: 'sha256', remoteObjectFormat: 'sha1' });
  });
});
