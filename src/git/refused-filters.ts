import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  FilterUnsupportedError,
  LfsUnsupportedError,
  UnsafeWorkspaceError,
  type AgentgateError,
} from '../errors.js';
import { commonDir } from '../fs/git-locks.js';
import { readRegularFile } from '../fs/regular-file.js';

/** Where a repository's attributes are read from (see assertNoRefusedFilter). */
export interface AttributeSources {
  topLevel: string;
  /** Absent for a directory `--init` is about to make a repository of: it has no info/attributes yet. */
  gitDir?: string;
  /** The effective core.attributesFile as our git applies it (Repo.attributesFile), absolute; null for none. */
  attributesFile: string | null;
}

interface RefusedFilter {
  name: RegExp;
  refuse: (file: string, filter: string, details: Record<string, unknown>) => AgentgateError;
}

const NEXT =
  'and changed nothing here. Snapshot a clone without it, or record this one with your own git; if the line was added during this iteration, remove it and run the command again (see "Git LFS and encrypting filters" in docs/runs.md)';

/**
 * Filters whose output is what the user's git commits, and whose absence changes what a commit
 * holds: committed unrun, LFS files are raw big files instead of pointers, and git-crypt's (a named
 * key: `git-crypt-<key>`) and transcrypt's (a context: `crypt-<context>`) secrets are plaintext.
 * Any other filter is never run either, and its file committed as the work tree holds it.
 */
const REFUSED: readonly RefusedFilter[] = [
  {
    name: /^lfs$/,
    refuse: (file, filter, details) =>
      new LfsUnsupportedError(
        `${file} sends paths through Git LFS (filter=${filter}), whose filter agentgate's git never runs: agentgate snapshots no repository that uses LFS, whether or not an LFS file changed, ${NEXT}`,
        { details },
      ),
  },
  {
    name: /^(git-crypt|crypt)(-.+)?$/,
    refuse: (file, filter, details) =>
      new FilterUnsupportedError(
        `${file} sends paths through the encrypting filter ${filter} (git-crypt or transcrypt), which agentgate's git never runs, so their plaintext would be committed: agentgate snapshots no repository that uses it, whether or not such a file changed, ${NEXT}`,
        { details },
      ),
  },
];

/**
 * A repository whose top-level `.gitattributes`, `info/attributes` or core.attributesFile sends
 * paths through a filter of REFUSED is refused (LFS_UNSUPPORTED, FILTER_UNSUPPORTED), whether any
 * such file changed or not: `before`, `iterate` (before its agent starts) and `after` ask the same
 * question, so no agent works on a repository whose `after` would be refused. Our hardened git
 * never runs a filter. An `.gitattributes` further down the tree is not read.
 */
export async function assertNoRefusedFilter(repo: AttributeSources): Promise<void> {
  const files = [join(repo.topLevel, '.gitattributes')];
  if (repo.gitDir !== undefined) files.push(join(await commonDir(repo.gitDir), 'info', 'attributes'));
  if (repo.attributesFile !== null) files.push(repo.attributesFile);
  for (const [i, file] of files.entries()) {
    // git does not follow a link at the work tree's .gitattributes; the others it does.
    const text = await attributesText(file, i > 0, repo.topLevel);
    for (const filter of filtersNamed(text)) {
      const refused = REFUSED.find((r) => r.name.test(filter));
      if (refused) throw refused.refuse(file, filter, { workspace: repo.topLevel, attributes: file, filter });
    }
  }
}

/** The `filter=<name>` values of an attributes file; a line starting with # is a comment to git. */
function filtersNamed(text: string): string[] {
  if (!text.includes('filter=')) return [];
  return (
    text
      .split('\n')
      .filter((line) => !/^[ \t]*#/.test(line))
      // After a blank, or right after a quoted pattern (`"a b"filter=x`: git reads no blank there).
      .flatMap((line) => [...line.matchAll(/(?<=[\s"])filter=([^\s"]+)/g)].map((m) => m[1] as string))
  );
}

/**
 * An attributes file's text as git reads it ('' where git reads nothing). A FIFO, socket or device
 * (but /dev/null) is UNSAFE_WORKSPACE: reading it waits for a writer for ever (this call and git's
 * own add alike), or never ends. Never opened blocking: stat first, then a non-blocking open
 * checked again on the descriptor.
 */
async function attributesText(file: string, follow: boolean, workspace: string): Promise<string> {
  const read = await readRegularFile(file, follow);
  if (read === null) return '';
  if ('bytes' in read) return read.bytes.toString('utf8');
  if (await isDevNull(read.stats)) return '';
  throw notRegular(file, read.special, workspace);
}

async function isDevNull(info: Stats): Promise<boolean> {
  if (!info.isCharacterDevice()) return false;
  const devNull = await stat('/dev/null').catch(() => null);
  return devNull !== null && devNull.rdev === info.rdev;
}

function notRegular(file: string, kind: string, workspace: string): UnsafeWorkspaceError {
  return new UnsafeWorkspaceError(
    `the attributes file ${file} of ${workspace} is a ${kind}, not a regular file: reading it would wait for a writer for ever, or never end (git's own add included); make it a regular file or remove it (for core.attributesFile: unset it, or point it at /dev/null)`,
    { details: { workspace, attributes: file, kind } },
  );
}
