import {
  DiskFullError,
  GitFailedError,
  IndexLockedError,
  ObjectMissingError,
  UnsafeRepositoryOwnerError,
  UnsafeWorkspaceError,
  type AgentgateError,
} from '../errors.js';

/**
 * The error for a failed git call. Failures the user can act on get codes of their own and a next
 * step; every one keeps git's whole stderr (up to 64 KiB) in `details.stderr`.
 */
export function gitFailure(
  args: readonly string[],
  exitCode: number,
  stderr: string,
  details: Record<string, unknown>,
): AgentgateError {
  const what = `git ${args.slice(0, 3).join(' ')}`;
  // git's pack writer (bundle create, pack-objects) says "Out of diskspace".
  if (/No space left on device|ENOSPC|Disk quota exceeded|Out of diskspace/i.test(stderr)) {
    return new DiskFullError(
      `${what} ran out of disk space; free space (or raise the quota) where the repository and the agentgate home live, then retry: nothing was recorded`,
      { details },
    );
  }
  const dubious = /detected dubious ownership in repository at '([^']*)'/.exec(stderr);
  if (dubious) {
    const dir = dubious[1] ?? String(details.cwd ?? '');
    return new UnsafeRepositoryOwnerError(
      `the repository at ${dir} is owned by another user, and git refuses to work in it; if you trust it, allow it with: git config --global --add safe.directory ${dir}`,
      { details: { ...details, repository: dir } },
    );
  }
  const lock = /Unable to create '([^']*\.lock)': File exists/.exec(stderr);
  if (lock) {
    return new IndexLockedError(
      `${lock[1]} exists: another git process is working in this repository, or one crashed; wait for it, or remove that file once no git process runs there, then retry`,
      {
        details: { ...details, lock: lock[1] },
      },
    );
  }
  const blocked = refInTheWay(stderr);
  if (blocked) {
    return new UnsafeWorkspaceError(
      `${blocked.blocker} stands where the ref ${blocked.ref} must be made (git keeps refs as files in directories, so it cannot hold both; a plain fetch of another repository's refs/agentgate/* can leave such a ref); remove it once you know what it is ("git update-ref -d ${blocked.blocker}"), then retry: no ref was moved`,
      { details: { ...details, ...blocked } },
    );
  }
  if (/lazy fetching disabled|promisor remote|could not fetch .* from promisor/i.test(stderr)) {
    return new ObjectMissingError(
      `${what} needs objects this partial clone does not have, and agentgate never fetches them lazily; fetch them first (git fetch --refetch, or a full clone), then retry`,
      { details },
    );
  }
  const reason = stderr.split('\n').slice(-3).join(' ') || 'no message';
  return new GitFailedError(`${what} failed (exit ${exitCode}): ${reason}`, { details });
}

/** The ref git could not make, and what stands in its way, from git's words (LC_ALL=C), or null. */
function refInTheWay(stderr: string): { ref: string; blocker: string } | null {
  const exists = /'([^']+)' exists; cannot create '([^']+)'/.exec(stderr);
  if (exists) return { ref: exists[2] as string, blocker: exists[1] as string };
  const dir = /there is a non-empty directory '([^']+)' blocking reference '([^']+)'/.exec(stderr);
  return dir ? { ref: dir[2] as string, blocker: dir[1] as string } : null;
}
