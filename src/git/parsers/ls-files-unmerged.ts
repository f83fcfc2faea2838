import { OBJECT_ID_SOURCE } from '../../../types/ids.js';
import { GitOutputUnparseableError } from '../../errors.js';

const UNMERGED_HEAD = new RegExp(`^[0-7]{6} ${OBJECT_ID_SOURCE} [1-3]$`);

/**
 * The distinct paths in `git ls-files -u -z` output ("<mode> <id> <stage>\t<path>\0" per stage),
 * in git's order. Pure; throws GIT_FAILED on a record it does not recognise.
 */
export function parseUnmergedPaths(output: Buffer | string): string[] {
  const text = typeof output === 'string' ? output : output.toString('utf8');
  const paths: string[] = [];
  for (const record of text.split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    if (tab < 0 || !UNMERGED_HEAD.test(record.slice(0, tab))) {
      throw new GitOutputUnparseableError(
        `unexpected ls-files -u record ${JSON.stringify(record.slice(0, 120))}`,
        { details: { record: record.slice(0, 200) } },
      );
    }
    const path = record.slice(tab + 1);
    if (paths.at(-1) !== path) paths.push(path);
  }
  return paths;
}
