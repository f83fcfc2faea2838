/** Submodules (gitlinks) in the provenance commands through the built CLI: no file to blame, still reported. */
import { afterEach, describe, expect, it } from 'vitest';
import { AnchorReport } from '../../types/anchor-report.js';
import { git, lines, recordRun, setupCli, squash, type RunSetup } from '../helpers/provenance.js';

let s: RunSetup | undefined;
afterEach(() => s?.cleanup());

const cli = (args: string[]) => setupCli(s, args);

/** Commits a gitlink `path` at `commit` (a submodule's entry; its repository need not be there). */
function gitlink(dir: string, path: string, commit: string, message: string): string {
  git(dir, ['update-index', '--add', '--cacheinfo', `160000,${commit},${path}`]);
  git(dir, ['commit', '-q', '--no-verify', '-m', message]);
  return git(dir, ['rev-parse', 'HEAD']);
}

describe('a submodule in a commit no run explains', () => {
  it('report --anchor lists its one line as no run wrote it; trace says it is a submodule', async () => {
    s = await recordRun([{ 'a.txt': lines('agent line with enough letters', 3) }]);
    squash(s.dir, 'agent-run-a');
    const pinned = git(s.dir, ['rev-parse', 'HEAD~1']);
    const added = gitlink(s.dir, 'vendor/lib', pinned, 'a person adds a submodule');
    const bumped = gitlink(s.dir, 'vendor/lib', git(s.dir, ['rev-parse', 'HEAD~1']), 'a person bumps it');
    for (const c of [added, bumped]) {
      const anchor = cli(['anchor', c, '--json']);
      expect(anchor.status, anchor.stdout).toBe(0);
      for (const format of ['json', 'md', 'html', 'dotenv']) {
        const res = cli(['report', '--anchor', c, '--format', format]);
        expect(res.status, `${format}: ${res.stdout}${res.stderr}`).toBe(0);
      }
      const report = AnchorReport.parse(cli(['report', '--anchor', c, '--format', 'json']).json());
      expect(report.files).toEqual([
        expect.objectContaining({ path: 'vendor/lib', method: 'none', notFromRuns: [{ start: 1, end: 1 }] }),
      ]);
    }
    const trace = cli(['trace', 'vendor/lib', '--json']);
    expect(trace.status).toBe(1);
    expect(trace.json()).toMatchObject({ error: { code: 'PATH_NOT_FOUND', details: { type: 'commit' } } });
  });
});
