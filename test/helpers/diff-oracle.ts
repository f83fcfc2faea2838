/**
 * Test-side checks for the diff module, through the independent oracle git only: what git's own
 * `--name-status`/`--numstat` say about two commits, and what tree a patch produces when
 * `git apply --index` puts it on top of the before commit in a separate worktree.
 */
import { chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git, gitRaw, tempDir } from './repo.js';

export interface OracleChange {
  path: string;
  oldPath: string | null;
  status: string;
  insertions: number;
  deletions: number;
  binary: boolean;
}

const STATUS: Record<string, string> = {
  A: 'added',
  C: 'copied',
  D: 'deleted',
  M: 'modified',
  R: 'renamed',
  T: 'typechange',
};

/** git's own answer, from two separate processes: `--name-status -z` and `--numstat -z`. */
export function oracleChanges(dir: string, from: string | null, to: string): OracleChange[] {
  const base = from ?? gitRaw(dir, ['hash-object', '-t', 'tree', '--stdin'], '').toString().trim();
  const names = fields(gitRaw(dir, ['diff-tree', '-r', '-z', '--name-status', '-M', '-C', base, to]));
  const counts = fields(gitRaw(dir, ['diff-tree', '-r', '-z', '--numstat', '-M', '-C', base, to]));
  const out: OracleChange[] = [];
  while (names.length > 0) {
    const letter = (names.shift() as string)[0] as string;
    const two = letter === 'R' || letter === 'C';
    const oldPath = two ? (names.shift() as string) : null;
    const path = names.shift() as string;
    const [ins, del, rest] = splitCounts(counts.shift() as string);
    if (rest === '') counts.splice(0, 2);
    out.push({
      path,
      oldPath,
      status: STATUS[letter] ?? letter,
      insertions: ins === '-' ? 0 : Number(ins),
      deletions: del === '-' ? 0 : Number(del),
      binary: ins === '-',
    });
  }
  return out;
}

function fields(buf: Buffer): string[] {
  const parts = buf.toString('utf8').split('\0');
  parts.pop();
  return parts;
}

function splitCounts(field: string): [string, string, string] {
  const a = field.indexOf('\t');
  const b = field.indexOf('\t', a + 1);
  return [field.slice(0, a), field.slice(a + 1, b), field.slice(b + 1)];
}

/**
 * Applies `patchFile` with `git apply --index` on top of `before` (null: an empty repository) in a
 * throwaway worktree, and returns the tree id git writes from the resulting index.
 */
export function treeAfterApply(dir: string, before: string | null, patchFile: string): string {
  const wt = join(tempDir('agentgate-apply-'), 'wt');
  try {
    const format = git(dir, ['rev-parse', '--show-object-format']);
    if (before === null) git(dirname(wt), ['init', '-q', `--object-format=${format}`, wt]);
    else git(dir, ['worktree', 'add', '-q', '--detach', wt, before]);
    git(wt, ['apply', '--index', '--whitespace=nowarn', patchFile]);
    return git(wt, ['write-tree']);
  } finally {
    rmSync(dirname(wt), { recursive: true, force: true });
    if (before !== null) git(dir, ['worktree', 'prune']);
  }
}

export function treeOf(dir: string, rev: string): string {
  return git(dir, ['rev-parse', `${rev}^{tree}`]);
}

/** Small file-system verbs for building before and after states. */
export const fsx = {
  write(dir: string, rel: string, content: string | Buffer): void {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  },
  link(dir: string, rel: string, target: string): void {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    symlinkSync(target, join(dir, rel));
  },
  rm(dir: string, rel: string): void {
    rmSync(join(dir, rel), { recursive: true, force: true });
  },
  mv(dir: string, from: string, to: string): void {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    renameSync(join(dir, from), join(dir, to));
  },
  chmod(dir: string, rel: string, mode: number): void {
    chmodSync(join(dir, rel), mode);
  },
};

/** `n` distinct lines, so that rename and copy detection has something to match. */
export function lines(tag: string, n: number, eol = '\n'): string {
  return Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}${eol}`).join('');
}
