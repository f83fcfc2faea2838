import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What is wrong with a checkpoint repository, found from its files alone: no git process, since
 * every agent hook pays for this check. Only what we can tell for sure counts: a file that is there
 * but unreadable (permissions, I/O) is an error of its own, never taken for damage.
 */
export interface RepoDamage {
  /** Why git cannot open the repository at all (its git dir, HEAD, objects or refs gone or garbled); null when it can. */
  unusable: string | null;
  /** Of the refs asked about, those whose loose file holds no object id: git skips them when listing and refuses to update them. */
  brokenRefs: string[];
}

const HEAD_TEXT = /^(ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\n?$/;
const REF_TEXT = /^([0-9a-f]{40}|[0-9a-f]{64})\n?$/;

/** Checks the repository at `gitDir` and the loose files of `refs` (full ref names) in it. */
export async function repoDamage(gitDir: string, refs: readonly string[]): Promise<RepoDamage> {
  const [dir, head, objects, refsDir, ...texts] = await Promise.all([
    kindOf(gitDir),
    readText(join(gitDir, 'HEAD')),
    kindOf(join(gitDir, 'objects')),
    kindOf(join(gitDir, 'refs')),
    ...refs.map((ref) => readText(join(gitDir, ...ref.split('/')))),
  ]);
  const unusable =
    dir !== 'dir'
      ? `its git directory ${dir === 'missing' ? 'is missing' : 'is not a directory'}`
      : head === null
        ? 'its HEAD file is missing'
        : !HEAD_TEXT.test(head)
          ? 'its HEAD file is damaged'
          : objects !== 'dir'
            ? 'its objects directory is missing'
            : refsDir !== 'dir'
              ? 'its refs directory is missing'
              : null;
  const brokenRefs = refs.filter((_, i) => {
    const text = texts[i];
    return text !== null && text !== undefined && !REF_TEXT.test(text);
  });
  return { unusable, brokenRefs: unusable === null ? brokenRefs : [] };
}

async function kindOf(path: string): Promise<'missing' | 'dir' | 'other'> {
  try {
    return (await lstat(path)).isDirectory() ? 'dir' : 'other';
  } catch (error) {
    if (isAbsent(error)) return 'missing';
    throw error;
  }
}

/** A file's text; null when there is none (a directory standing there counts as none too). */
async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isAbsent(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
    throw error;
  }
}

function isAbsent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
