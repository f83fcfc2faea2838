import { GitFailedError } from '../../errors.js';

const FULL_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** Checks an object id git printed; empty or partial output is a failure, never passed on. */
export function assertGitId(value: string, command: string): string {
  if (!FULL_ID.test(value)) {
    throw new GitFailedError(`git ${command} printed ${JSON.stringify(value.slice(0, 80))} where an object id was expected`, {
      details: { args: [command], stdout: value.slice(0, 200) },
    });
  }
  return value;
}

/** True for the all-zero id git uses for "no object" in raw diffs. */
export function isNullId(value: string): boolean {
  return /^0+$/.test(value);
}
