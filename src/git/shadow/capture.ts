import { assertGitId } from './ids.js';
import { parseCandidateListing, splitNul, type CandidateListing } from './parse.js';
import type { ShadowStore } from './store.js';
import { STAGING_CONFIG } from '../hardening.js';
import { runGit } from '../runner.js';

/** A pathspec that matches exactly `path` (and everything below it), with no glob or magic. */
function excludeSpec(path: string): string {
  return `:(exclude,literal)${path}`;
}

/**
 * Lists what a capture has to look at, in one process: files the store's index does not have yet
 * and are not ignored (untracked), tracked files whose stat data changed (modified or deleted), and
 * nested repositories, which git reports as a directory and does not enter. `excluded` are
 * workspace-relative paths never looked at (our home, an artifacts directory).
 */
export async function listCaptureCandidates(store: ShadowStore, excluded: readonly string[]): Promise<CandidateListing> {
  const res = await runGit(store, ['ls-files', '-z', '-t', '--others', '--modified', '--exclude-standard', '--', '.', ...excluded.map(excludeSpec)]);
  return parseCandidateListing(res.stdout);
}

/** Paths the store's index tracks that the ignore rules now match: they must leave the capture. */
export async function listIgnoredTracked(store: ShadowStore): Promise<string[]> {
  const res = await runGit(store, ['ls-files', '-z', '--cached', '--ignored', '--exclude-standard']);
  return splitNul(res.stdout);
}

/** Removes paths (files, or directories recursively) from the store's index only; the workspace is not touched. */
export async function unstagePaths(store: ShadowStore, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await runGit(store, ['--literal-pathspecs', 'rm', '--cached', '-r', '-f', '-q', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], {
    input: paths.map((p) => `${p}\0`).join(''),
  });
}

/**
 * Stages the whole work tree into the store's index (`add -A`: new, changed and deleted files),
 * except `excluded` paths. Pathspecs go through stdin, so any number of exclusions fits. A failure
 * throws: a capture that did not stage must never fall back to an older tree.
 */
export async function stageWorkspace(store: ShadowStore, excluded: readonly string[]): Promise<void> {
  const specs = ['.', ...excluded.map(excludeSpec)];
  await runGit(store, [...STAGING_CONFIG, 'add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: specs.map((s) => `${s}\0`).join('') });
}

/**
 * Stages exactly `paths` (new, changed or deleted files; never directories) with one
 * `update-index --add --remove --replace` process. After listCaptureCandidates has found what
 * changed, this saves add's second pass over the whole work tree.
 */
export async function stagePaths(store: ShadowStore, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await runGit(store, [...STAGING_CONFIG, 'update-index', '--add', '--remove', '--replace', '-z', '--stdin'], { input: paths.map((p) => `${p}\0`).join('') });
}

/** Writes the store's index as a tree object and returns its id. */
export async function writeTree(store: ShadowStore): Promise<string> {
  const res = await runGit(store, ['write-tree']);
  return assertGitId(res.stdout.trim(), 'write-tree');
}
