import { appendFile, lstat } from 'node:fs/promises';
import { UnsafeWorkspaceError } from '../errors.js';
import { readChunks } from '../fs/read-chunks.js';
import { join } from 'node:path';
import { commonDir } from '../fs/git-locks.js';
import { decodeBytes, encodeBytes, fsPath } from '../fs/path-bytes.js';
import type { Repo } from './repo.js';
import { runGitBuffer } from './runner.js';
import { makeDirs } from '../fs/make-dirs.js';

/**
 * Our list of the nested repositories no `info/exclude` line can name (a name with a line break),
 * in the git dir beside that file: each name's bytes, NUL-terminated. Every capture leaves them out
 * by pathspec (nestedExcludes).
 */
const OWN_EXCLUDE = ['info', 'agentgate-exclude'];

/**
 * For a repository we have just initialised: the repositories nested in its directory (a clone
 * inside, a vendored checkout) are kept out of every commit, so that staging everything never
 * records them as gitlinks: in its `info/exclude`, or, for a name no pattern can hold, in our own
 * list. Returns their workspace-relative paths (a name that is not UTF-8 kept as bytes).
 */
export async function excludeNestedRepositories(repo: Repo): Promise<string[]> {
  // Without --directory git lists files one by one, and a nested repository as one `dir/` entry.
  const listed = decodeBytes(
    (await runGitBuffer(repo, ['ls-files', '-z', '--others', '--exclude-standard'])).stdout,
  );
  const found: string[] = [];
  for (const dir of listed.split('\0').filter((p) => p.endsWith('/'))) {
    const path = dir.slice(0, -1);
    if (await lstat(fsPath(join(repo.topLevel, path, '.git'))).catch(() => null)) found.push(path);
  }
  const lines = found.filter((p) => !p.includes('\n')).map((p) => `${ignorePattern(p)}\n`);
  const unwritable = found.filter((p) => p.includes('\n')).map((p) => `${p}\0`);
  if (lines.length > 0 || unwritable.length > 0) await makeDirs(join(repo.gitDir, 'info'));
  if (lines.length > 0) {
    const heading = '\n# nested repositories, left out by agentgate-snapshot before --init\n';
    await appendFile(join(repo.gitDir, 'info', 'exclude'), encodeBytes(heading + lines.join('')));
  }
  if (unwritable.length > 0)
    await appendFile(join(repo.gitDir, ...OWN_EXCLUDE), encodeBytes(unwritable.join('')));
  return found;
}

/**
 * A gitignore line that matches the directory `path` (workspace-relative) and nothing else: anchored
 * at the top, a directory only, a wildcard, `\`, `!` or `#` escaped to stand for itself; ending in
 * `/`, no trailing space of the name is trimmed. A line break cannot be written at all.
 */
function ignorePattern(path: string): string {
  return `/${path.replace(/[*?[\\!#]/g, '\\$&')}/`;
}

/**
 * The nested repositories in our own list (excludeNestedRepositories) still there as directories:
 * workspace-relative paths every capture leaves out, as `info/exclude` does the others.
 */
export async function nestedExcludes(repo: Repo): Promise<string[]> {
  const file = join(await commonDir(repo.gitDir), ...OWN_EXCLUDE);
  const text = await readOwnList(file, repo.topLevel);
  if (text === null) return [];
  const names = decodeBytes(text)
    .split('\0')
    .filter((p) => p !== '');
  const dirs = await Promise.all(
    names.map(async (p) => (await lstat(fsPath(join(repo.topLevel, p))).catch(() => null))?.isDirectory()),
  );
  return names.filter((_, i) => dirs[i] === true);
}

/**
 * Our list's bytes, or null when there is none. Read without blocking (readChunks): a FIFO planted
 * there (the git dir is the agent's too) would otherwise hold every capture for ever.
 */
async function readOwnList(file: string, workspace: string): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of readChunks(file)) chunks.push(Buffer.from(chunk));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code !== 'EINVAL') throw error;
    throw new UnsafeWorkspaceError(
      `${file}, agentgate's list of nested repositories to leave out, is not a regular file (a FIFO, socket or device put there): reading it would never end; remove it (it is made again by "before --init" only)`,
      { details: { workspace, path: file } },
    );
  }
  return Buffer.concat(chunks);
}
