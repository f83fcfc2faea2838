/**
 * Real history (fixtures/real-history): 20 consecutive commits of vercel/ms replayed as the
 * iterations of one run, squashed, and traced; every line must agree with git blame over the real commits.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/repo.js';
import { computeAnchor } from '../../src/provenance/anchor.js';
import { provenanceSources } from '../../src/provenance/sources.js';
import { computeTrace } from '../../src/provenance/trace.js';
import { commitAll, git, remove, tempDir } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

const BUNDLE = fileURLToPath(new URL('../../fixtures/real-history/vercel-ms.bundle', import.meta.url));
const BASE = '9b88d1568a52ec9bb67ecc8d2aa224fa38fd41f4';
const TIP = '1a13a88f8c74604a96be3f4930fefe9765ea3613';

let root: string;
let dir: string;
const snap = newSnapshotter();
let stretch: string[];
let squashSha: string;

beforeAll(async () => {
  root = tempDir('agentgate-real-');
  dir = `${root}/ms`;
  git(root, ['clone', '-q', '--branch', 'stretch', BUNDLE, dir]);
  stretch = git(dir, ['rev-list', '--first-parent', '--reverse', `${BASE}..${TIP}`]).split('\n');
  git(dir, ['checkout', '-q', '-B', 'main', BASE]);
  git(dir, ['checkout', '-q', '-b', 'agent']);
  for (const [i, commit] of stretch.entries()) {
    await snap.captureBeforeState(dir, { runId: 'ms-run' });
    git(dir, ['read-tree', '-u', '--reset', commit]);
    await snap.captureAfterState(dir, null, {
      runId: 'ms-run',
      iteration: i + 1,
      taskPrompt: `replay ${commit}`,
    });
  }
  git(dir, ['checkout', '-q', 'main']);
  git(dir, ['merge', '--squash', '-q', 'agent']);
  squashSha = commitAll(dir, 'squash of the run');
}, 120_000);

afterAll(() => {
  remove(root);
  remove(snap.options.home);
});

describe('real history: vercel/ms, 20 commits replayed as one run and squashed', () => {
  it('the stretch is 20 commits and the squash has the tip tree', () => {
    expect(stretch).toHaveLength(20);
    expect(git(dir, ['rev-parse', `${squashSha}^{tree}`])).toBe(git(dir, ['rev-parse', `${TIP}^{tree}`]));
  });

  it.each(['index.js', 'readme.md', 'tests.js', 'package.json'])(
    'trace of %s agrees with git blame over the real commits',
    async (path) => {
      const src = provenanceSources(snap);
      const repo = await openRepo(dir);
      const trace = await computeTrace(src, repo, path, { rev: squashSha });
      const blamed = git(dir, ['blame', '--porcelain', TIP, '--', path])
        .split('\n')
        .filter((l) => /^[0-9a-f]{40} \d+ \d+/.test(l))
        .map((l) => l.split(' ')[0] as string);
      const expected = blamed.map((c) => {
        const n = stretch.indexOf(c);
        return n < 0 ? null : n + 1;
      });
      const got: Array<number | null> = [];
      for (const r of trace.ranges)
        for (let l = r.start; l <= r.end; l++) got.push(r.origin?.iteration ?? null);
      expect(got).toEqual(expected);
      expect(expected.some((e) => e !== null)).toBe(true);
    },
  );

  it('the anchor of the squash: tree method, every line the stretch added is from the run', async () => {
    const anchor = await computeAnchor(provenanceSources(snap), await openRepo(dir), squashSha);
    expect(anchor.treeMatch?.iteration).toBe(20);
    expect(anchor.files.every((f) => f.method === 'tree')).toBe(true);
    expect(anchor.coverage.linesFromRuns).toBe(anchor.coverage.linesAdded);
  });
});
