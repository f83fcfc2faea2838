import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit, type GitOptions } from './runner.js';

/**
 * What is wrong with a checkpoint repository, found from its files alone (repoDamage): no git
 * process, since every agent hook pays for this check; a ref naming a missing object is asked of
 * git only once a git call failed (refsWithoutObject). Only what we can tell for sure counts: a file that is there
 * but unreadable (permissions, I/O) is an error of its own, never taken for damage.
 */
export interface RepoDamage {
  /** Why git cannot open the repository at all (its git dir, HEAD, objects or refs gone or garbled); null when it can. */
  unusable: string | null;
  /** Of the refs asked about, those whose loose file holds no object id: git skips them when listing and refuses to update them. */
  brokenRefs: string[];
  /** Lines of `packed-refs` git cannot read ("unexpected line in packed-refs": every ref command fails). */
  garbledPacked: string[];
}

const HEAD_TEXT = /^(ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\n?$/;
const REF_TEXT = /^([0-9a-f]{40}|[0-9a-f]{64})\n?$/;

/** Checks the repository at `gitDir` and the loose files of `refs` (full ref names) in it. */
export async function repoDamage(gitDir: string, refs: readonly string[]): Promise<RepoDamage> {
  const [dir, head, packed, objects, refsDir, ...texts] = await Promise.all([
    kindOf(gitDir),
    readText(join(gitDir, 'HEAD')),
    readText(join(gitDir, 'packed-refs')),
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
  const garbledPacked = packed === null ? [] : parsePackedRefs(packed).garbled;
  return unusable === null
    ? { unusable, brokenRefs, garbledPacked }
    : { unusable, brokenRefs: [], garbledPacked: [] };
}

const PACKED_REF = /^([0-9a-f]{40}|[0-9a-f]{64}) (refs\/\S+)$/;
const PACKED_PEEL = /^\^([0-9a-f]{40}|[0-9a-f]{64})$/;

/** The refs of a `packed-refs` text and the lines of it that git would refuse. */
export function parsePackedRefs(text: string): { refs: Map<string, string>; garbled: string[] } {
  const refs = new Map<string, string>();
  const garbled: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# ') || PACKED_PEEL.test(line)) continue;
    const m = PACKED_REF.exec(line);
    if (m === null) garbled.push(line);
    else refs.set(m[2] as string, m[1] as string);
  }
  return { refs, garbled };
}

/**
 * The refs under `prefixes` (loose files over `packed-refs`) that name an object the repository
 * lacks (a marker written just before a power loss whose object never reached the disk): git's
 * ref listing then fails "missing object" for ever. One `cat-file`, run only after a git call
 * failed so: never on the path of a hook that works. Garbage in a loose file is repoDamage's.
 */
export async function refsWithoutObject(
  repo: GitOptions,
  gitDir: string,
  prefixes: readonly string[],
): Promise<string[]> {
  const packed = await readText(join(gitDir, 'packed-refs'));
  const ids = new Map<string, string>();
  if (packed !== null)
    for (const [ref, id] of parsePackedRefs(packed).refs)
      if (prefixes.some((p) => ref.startsWith(p))) ids.set(ref, id);
  for (const prefix of prefixes) {
    const dir = join(gitDir, ...prefix.split('/'));
    const names = await readdir(dir, { recursive: true }).catch((error: unknown) => {
      if (isAbsent(error)) return [];
      throw error;
    });
    for (const name of names) {
      const text = await readText(join(dir, name));
      if (text !== null && REF_TEXT.test(text))
        ids.set(`${prefix}${name.split(/[\\/]/).join('/')}`, text.trim());
    }
  }
  if (ids.size === 0) return [];
  const unique = [...new Set(ids.values())];
  const res = await runGit(repo, ['cat-file', '--batch-check'], { input: `${unique.join('\n')}\n` });
  const missing = new Set(
    res.stdout
      .split('\n')
      .filter((line) => line.endsWith(' missing'))
      .map((line) => line.slice(0, -' missing'.length)),
  );
  return [...ids].filter(([, id]) => missing.has(id)).map(([ref]) => ref);
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
