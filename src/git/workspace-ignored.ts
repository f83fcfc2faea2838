import { decodeBytes } from '../fs/path-bytes.js';
import { GITLINK_MODE } from './parsers/ls-files-tagged.js';
import { splitNul } from './parsers/nul-records.js';
import type { ProbeOptions } from './checkpoint-repo.js';
import { runGitBuffer } from './runner.js';

/**
 * The files the workspace's own repository tracks although its ignore rules match them (added
 * with `git add -f`), read from its index (never written). git does not ignore a tracked file, so
 * a checkpoint must not either: the private store's index is another, and would. Each path once
 * (an unmerged one has several stages); a submodule's commit is no file and is left out.
 */
export async function listWorkspaceIgnoredTracked(root: string, opts: ProbeOptions = {}): Promise<string[]> {
  const res = await runGitBuffer({ cwd: root, ...opts }, [
    'ls-files',
    '-z',
    '-s',
    '--cached',
    '--ignored',
    '--exclude-standard',
  ]);
  const paths = new Set<string>();
  for (const record of splitNul(decodeBytes(res.stdout))) {
    const tab = record.indexOf('\t');
    if (tab > 0 && !record.startsWith(GITLINK_MODE)) paths.add(record.slice(tab + 1));
  }
  return [...paths];
}
