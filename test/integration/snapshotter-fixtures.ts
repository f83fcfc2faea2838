/**
 * Test-side helpers for the run-snapshot suites: a Snapshotter with a home of its own, and a
 * fingerprint of everything a user could see change in a repository (checked with the oracle git).
 */
import { existsSync, readdirSync, readFileSync, lstatSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { DEFAULT_IDENTITY } from '../../types/config.js';
import { Snapshotter, type SnapshotterOptions } from '../../src/snapshotter/snapshotter.js';
import { git, gitRaw, tempDir } from '../helpers/repo.js';

/** A Snapshotter on a fresh temporary home (artifacts under it unless overridden). */
export function newSnapshotter(overrides: Partial<SnapshotterOptions> = {}): Snapshotter {
  const home = overrides.home ?? tempDir('agentgate-home-');
  return new Snapshotter({
    home,
    artifactsDir: join(home, 'artifacts'),
    identity: DEFAULT_IDENTITY,
    gitTimeoutMs: 60_000,
    lockTimeoutMs: 10_000,
    onDirty: 'wip-commit',
    ...overrides,
  });
}

/**
 * HEAD, every ref, the index (mode, object, stage, path), status, git's in-progress markers and
 * every work-tree file's bytes: two equal fingerprints mean nothing a user can see has changed.
 */
export function fingerprint(dir: string): string {
  const files: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (name === '.git' && d === dir) continue;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) files[relative(dir, p)] = `-> ${readlinkSync(p)}`;
      else if (st.isDirectory()) walk(p);
      else files[relative(dir, p)] = `${st.mode.toString(8)} ${readFileSync(p).toString('base64')}`;
    }
  };
  walk(dir);
  const gitDir = join(dir, '.git');
  return JSON.stringify(
    {
      head: readFileSync(join(gitDir, 'HEAD'), 'utf8'),
      refs: git(dir, ['for-each-ref', '--format=%(refname) %(objectname)']),
      index: git(dir, ['ls-files', '-s']),
      status: git(dir, ['status', '--porcelain=v2', '--branch', '--untracked-files=all']),
      markers: ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'sequencer', 'rebase-merge', 'rebase-apply'].filter((n) => existsSync(join(gitDir, n))),
      files,
    },
    null,
    1,
  );
}

/** The full message of a commit, as git stores it. */
export function messageOf(dir: string, sha: string): string {
  const raw = gitRaw(dir, ['cat-file', 'commit', sha]).toString('utf8');
  return raw.slice(raw.indexOf('\n\n') + 2);
}

/** Awaits `promise` and checks that it rejects with an error carrying `code`. */
export async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  await expect(promise).rejects.toMatchObject({ code });
}
