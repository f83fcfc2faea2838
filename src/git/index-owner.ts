import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeBytes, fsPath } from '../fs/path-bytes.js';
import { parseIndexStat } from './parsers/ls-files-debug.js';
import { runGitBuffer } from './runner.js';

/**
 * Whether the index of the separate git dir `gitDir` was last written for the work tree `topLevel`.
 * git records no back-link from such a git dir to its work tree (`git init --separate-git-dir`
 * sets no core.worktree), but every index entry keeps the inode of the file it was staged or
 * refreshed from: our own git dir's index names a file here with that inode, another checkout's
 * names none. null when no entry carries an inode (no index, nothing staged): nothing tells.
 */
export async function indexIsOfWorkTree(topLevel: string, gitDir: string): Promise<boolean | null> {
  const { stdout } = await runGitBuffer({ cwd: topLevel, gitDir, workTree: topLevel }, [
    'ls-files',
    '-z',
    '-v',
    '-s',
    '--debug',
  ]);
  let evidence = false;
  for (const { path, ino } of parseIndexStat(decodeBytes(stdout))) {
    if (ino === 0n) continue;
    evidence = true;
    const info = await lstat(fsPath(join(topLevel, path)), { bigint: true }).catch(() => null);
    // git keeps the low 32 bits of an inode.
    if (info !== null && BigInt.asUintN(32, info.ino) === ino) return true;
  }
  return evidence ? false : null;
}
