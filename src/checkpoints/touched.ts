import { cappedTouched, TOUCHED_MAX } from './sessions.js';
import { toWorkspaceGitPath } from './workspace-paths.js';

/**
 * The files a tool says it wrote (absolute, or relative to the workspace root) as git paths: those
 * inside the workspace, placed as a user's path is (toWorkspaceGitPath: through links in their
 * directories; never in `.git` or our own data). Undefined, the whole step being the session's,
 * when none is inside (a path we cannot place must not take the session's own change from it) or
 * past the caps (sessions.ts TOUCHED_MAX). File-system calls only: an agent hook feels every git process.
 */
export async function touchedGitPaths(
  root: string,
  forbidden: readonly string[],
  named: readonly string[],
): Promise<string[] | undefined> {
  if (named.length === 0 || named.length > TOUCHED_MAX) return undefined;
  const placed = await Promise.all(
    named.map((p) => toWorkspaceGitPath(root, p, forbidden).catch(() => null)),
  );
  const inside = placed.filter((p): p is string => p !== null);
  return inside.length === 0 ? undefined : cappedTouched(inside);
}
