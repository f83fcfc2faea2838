import { OBJECT_ID_PATTERN } from '../../types/ids.js';
import { GitOutputUnparseableError } from '../errors.js';

/** True for a full hexadecimal object id (SHA-1 or SHA-256). */
export function isFullId(value: string): boolean {
  return OBJECT_ID_PATTERN.test(value);
}

/** Checks an id that git printed; anything else (empty, abbreviated, noise) is a failure, never passed on. */
export function assertGitId(value: string, command: string): string {
  if (!isFullId(value)) {
    throw new GitOutputUnparseableError(
      `git ${command} printed ${JSON.stringify(value.slice(0, 80))} where an object id was expected`,
      {
        details: { args: [command], stdout: value.slice(0, 200) },
      },
    );
  }
  return value;
}

/** True for the all-zero id git uses for "no object" in raw diffs. */
export function isNullId(value: string): boolean {
  return /^0+$/.test(value);
}
