/**
 * A repository armed with every way its own config can make git run a program (see
 * fixtures/make-armed-repo.sh), driven through every function of the git module while the caller's
 * environment points GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE (and more) somewhere bogus.
 * Not one armed program may run. A control at the end proves the arming is live.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cherryPick } from '../../src/git/cherry-pick.js';
import { getCommitInfo } from '../../src/git/commit-info.js';
import { createSnapshotCommit } from '../../src/git/commit.js';
import { getDiffStats } from '../../src/git/diff-stats.js';
import { openRepo, type Repo } from '../../src/git/repo.js';
import {
  deleteRef,
  getTree,
  isAncestor,
  listRefs,
  objectExists,
  readHead,
  resolveRevision,
  updateRef,
} from '../../src/git/refs.js';
import { switchToBranch } from '../../src/git/branches.js';
import { getRepoState } from '../../src/git/state.js';
import { generateUnifiedDiff } from '../../src/git/unified-diff.js';
import { oracleEnv, tempDir } from '../helpers/repo.js';

const SCRIPT = new URL('../../fixtures/make-armed-repo.sh', import.meta.url).pathname;
const root = tempDir('agentgate-armed-');
const dir = join(root, 'repo');
const markers = join(root, 'markers');
const bogus = join(root, 'bogus');
const markerList = (): string[] => readdirSync(markers).sort();

/** Read-only oracle plumbing that runs no armed program (cat-file reads objects without filters). */
const show = (spec: string): string =>
  execFileSync('git', ['cat-file', '-p', spec], { cwd: dir, env: oracleEnv() }).toString();

const HOSTILE_ENV: Record<string, string> = {
  GIT_DIR: join(bogus, 'git-dir'),
  GIT_WORK_TREE: join(bogus, 'work-tree'),
  GIT_INDEX_FILE: join(bogus, 'index'),
  GIT_OBJECT_DIRECTORY: join(bogus, 'objects'),
  GIT_CEILING_DIRECTORIES: '/',
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'core.fsmonitor',
  GIT_CONFIG_VALUE_0: join(root, 'never'),
  GIT_EXTERNAL_DIFF: join(root, 'never'),
  GIT_PAGER: join(root, 'never'),
  GIT_EDITOR: join(root, 'never'),
  GIT_SSH_COMMAND: join(root, 'never'),
  GIT_ASKPASS: join(root, 'never'),
};
const saved: Record<string, string | undefined> = {};
let repo: Repo;

beforeAll(async () => {
  execFileSync('sh', [SCRIPT, dir, markers], { env: oracleEnv(), stdio: 'pipe' });
  writeFileSync(join(root, 'never'), `#!/bin/sh\ntouch '${markers}/env-program'\nexit 1\n`, { mode: 0o755 });
  for (const [k, v] of Object.entries(HOSTILE_ENV)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  repo = await openRepo(dir);
});

afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('the git module in an armed repository, with a hostile environment', () => {
  // One sequence: each step builds on the last, like a real run does.
  it('runs every function correctly and runs none of the armed programs', async () => {
    const rev = (r: string): Promise<string> => resolveRevision(repo, r);
    const [base, mainEdit, topicAdd, topicClash, release] = await Promise.all(
      ['main~1', 'main', 'topic~1', 'topic', 'release'].map(rev),
    );

    // State: clean (the neutralised filters read files as they are, which is how they were committed).
    expect(await getRepoState(repo)).toMatchObject({
      headState: 'branch',
      branch: 'main',
      sha: mainEdit,
      isDirty: false,
      operation: null,
    });

    // A snapshot of a dirty tree with filtered files, an untracked file, and an excluded artifacts dir.
    writeFileSync(join(dir, 'data.txt'), 'rewritten through no filter\n');
    writeFileSync(join(dir, 'blob.dat'), Buffer.from([0, 1, 2, 3, 255]));
    writeFileSync(join(dir, 'README.md'), '# armed, edited\n');
    writeFileSync(join(dir, 'new.txt'), 'untracked file\n');
    mkdirSync(join(dir, 'artifacts'));
    writeFileSync(join(dir, 'artifacts', 'patch.diff'), 'not to be committed');
    expect((await getRepoState(repo)).isDirty).toBe(true);
    const snap = await createSnapshotCommit(repo, 'armed snapshot', { excludes: ['artifacts'] });
    expect(snap).toMatchObject({ parent: mainEdit, created: true, ref: 'refs/heads/main' });
    expect(show(`${snap.sha}:data.txt`)).toBe('rewritten through no filter\n');
    expect(show(`${snap.sha}:new.txt`)).toBe('untracked file\n');
    expect(show(snap.tree)).not.toContain('artifacts');
    expect(show(snap.sha)).not.toContain('gpgsig');
    expect(await createSnapshotCommit(repo, 'again', { excludes: ['artifacts'] })).toMatchObject({
      sha: snap.sha,
      created: false,
    });

    // Commit info and refs.
    expect(await getCommitInfo(repo, snap.sha)).toMatchObject({
      sha: snap.sha,
      message: 'armed snapshot',
      parents: [mainEdit],
    });
    expect(await getTree(repo, snap.sha)).toBe(snap.tree);
    expect(await isAncestor(repo, base, snap.sha)).toBe(true);
    expect(await objectExists(repo, snap.tree)).toBe(true);
    await updateRef(repo, 'refs/agentgate/armed', snap.sha, null);
    expect(await listRefs(repo, 'refs/agentgate/')).toEqual([{ ref: 'refs/agentgate/armed', sha: snap.sha }]);
    await deleteRef(repo, 'refs/agentgate/armed', snap.sha);

    // Diff statistics and the unified diff: raw content, no textconv, no external diff.
    const stats = await getDiffStats(repo, mainEdit, snap.sha);
    expect(stats.files.map((f) => [f.path, f.status, f.binary]).sort()).toEqual([
      ['README.md', 'modified', false],
      ['blob.dat', 'modified', true],
      ['data.txt', 'modified', false],
      ['new.txt', 'added', false],
    ]);
    const patch = await generateUnifiedDiff(repo, mainEdit, snap.sha);
    expect(patch).toContain('+rewritten through no filter');
    expect(patch).toContain('GIT binary patch');
    const patchFile = await generateUnifiedDiff(repo, mainEdit, snap.sha, {
      outputFile: join(root, 'out', 'patch.diff'),
    });
    expect(readFileSync(patchFile.path, 'utf8')).toBe(patch);

    // Cherry-pick onto the checked-out branch (files are written back without smudge) ...
    rmSync(join(dir, 'artifacts'), { recursive: true });
    const onMain = await cherryPick(repo, topicAdd);
    expect(onMain.parents).toEqual([snap.sha]);
    expect(readFileSync(join(dir, 'topic.txt'), 'utf8')).toBe('topic\n');
    expect(await getRepoState(repo)).toMatchObject({ sha: onMain.sha, isDirty: false });
    // ... and onto another branch, through a temporary worktree.
    const onRelease = await cherryPick(repo, topicAdd, { onto: 'release' });
    expect(onRelease.parents).toEqual([release]);
    expect(await rev('release')).toBe(onRelease.sha);
    // The same change applies cleanly where no content merge is needed; where one is, the
    // (neutralised) merge driver is not run and the pick conflicts instead.
    await expect(cherryPick(repo, topicClash, { onto: 'release' })).resolves.toMatchObject({
      parents: [onRelease.sha],
    });
    await expect(cherryPick(repo, topicClash, { onto: 'main' })).rejects.toMatchObject({
      code: 'CHERRY_PICK_CONFLICT',
      details: { files: ['data.txt'] },
    });
    expect(await rev('main')).toBe(onMain.sha);

    // Detach HEAD in place, then give it a branch, with no checkout.
    await updateRef(repo, 'HEAD', onMain.sha, onMain.sha, { noDeref: true });
    expect(await readHead(repo)).toEqual({ ref: null, sha: onMain.sha });
    const detached = await createSnapshotCommit(repo, 'detached snapshot');
    expect(detached).toMatchObject({ created: false, ref: 'HEAD' });
    await switchToBranch(repo, 'agentgate/armed-run', onMain.sha);
    expect(await readHead(repo)).toEqual({ ref: 'refs/heads/agentgate/armed-run', sha: onMain.sha });

    expect(markerList()).toEqual([]);
  });

  it('control: plain git in the same repository does run the armed programs', () => {
    const env = oracleEnv();
    const plain = (args: string[]): void => {
      try {
        execFileSync('git', args, { cwd: dir, env, stdio: 'pipe' });
      } catch {
        // some armed programs fail on purpose; running them is what counts
      }
    };
    const noProcessFilter = ['-c', 'filter.armedproc.required=false', '-c', 'filter.armedproc.process='];
    writeFileSync(join(dir, 'data.txt'), 'control\n');
    writeFileSync(join(dir, 'README.md'), '# control\n');
    // The process filter is a stub that hangs up; whether status needs it depends on index timing.
    plain([...noProcessFilter, 'status']);
    plain([...noProcessFilter, 'diff', 'HEAD~1']);
    plain([...noProcessFilter, 'add', '-A']);
    plain([...noProcessFilter, 'commit', '-m', 'control']);
    expect(markerList()).toEqual(
      expect.arrayContaining([
        'fsmonitor',
        'filter-clean',
        'filter2-clean',
        'diff-command',
        'gpg',
        'hookspath-pre-commit',
      ]),
    );
  });
});
