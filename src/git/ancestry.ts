import { OBJECT_ID_PATTERN } from '../../types/ids.js';
import { assertRevisionSyntax } from './refs.js';
import { runGit, type GitOptions } from './runner.js';

/**
 * The commits of `commits` that are one of `starts` or an ancestor of one, in one `rev-list` (none
 * when every commit is a start): it lists what the commits reach and no start does, so the ones it
 * leaves out are reached from a start. A shallow clone's boundary hides what lies beyond it: such a
 * commit is then not found (never one too many).
 */
export async function reachedFrom(
  repo: GitOptions,
  commits: readonly string[],
  starts: readonly string[],
): Promise<Set<string>> {
  const out = new Set(commits.filter((c) => starts.includes(c)));
  const asked = [...new Set(commits.filter((c) => !out.has(c)))];
  if (asked.length === 0 || starts.length === 0) return out;
  for (const c of [...asked, ...starts]) assertRevisionSyntax(c);
  const input = `${[...asked, ...starts.map((s) => `^${s}`)].join('\n')}\n`;
  const res = await runGit(repo, ['rev-list', '--stdin'], { input });
  const walked = new Set(res.stdout.split('\n').filter((l) => OBJECT_ID_PATTERN.test(l)));
  for (const c of asked) if (!walked.has(c)) out.add(c);
  return out;
}
