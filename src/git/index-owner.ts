import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeBytes, fsPath } from '../fs/path-bytes.js';
import { runGitBuffer } from './runner.js';

/** One `ls-files -z --debug` record after its path: five lines, the last `  size: N\tflags: X`. */
const DEBUG_BLOCK = /^([\s\S]*?\n {2}size: \d+\tflags: [0-9a-f]+\n)([\s\S]*)$/;

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
    '--debug',
  ]);
  let evidence = false;
  for (const { path, ino } of indexEntries(decodeBytes(stdout))) {
    if (ino === 0n) continue;
    evidence = true;
    const info = await lstat(fsPath(join(topLevel, path)), { bigint: true }).catch(() => null);
    // git keeps the low 32 bits of an inode.
    if (info !== null && BigInt.asUintN(32, info.ino) === ino) return true;
  }
  return evidence ? false : null;
}

/** The path and recorded inode of each entry of `ls-files -z --debug` output. */
function* indexEntries(out: string): Generator<{ path: string; ino: bigint }> {
  const parts = out.split('\0');
  let path = parts[0] ?? '';
  for (const part of parts.slice(1)) {
    const block = DEBUG_BLOCK.exec(part);
    if (block === null) return;
    const ino = /\tino: (\d+)\n/.exec(block[1]!)?.[1];
    if (ino !== undefined) yield { path, ino: BigInt(ino) };
    path = block[2]!;
  }
}
