import type { CommitInfo } from '../../types/snapshot.js';
import { GitOutputUnparseableError, RevisionNotFoundError } from '../errors.js';
import { assertGitId } from './ids.js';
import { assertRevisionSyntax, resolveRevision } from './refs.js';
import { runGitBuffer, type GitOptions } from './runner.js';

/**
 * Reads one commit: full id, message, author, author date and every parent. `rev` may be any
 * revision (abbreviated ids included). One `cat-file --batch` process on the happy path; no log
 * machinery, so no signature checks, mailmap or pretty-format config can interfere.
 * Throws REVISION_NOT_FOUND or AMBIGUOUS_ID.
 */
export async function getCommitInfo(repo: GitOptions, rev: string): Promise<CommitInfo> {
  assertRevisionSyntax(rev);
  const { stdout } = await runGitBuffer(repo, ['cat-file', '--batch'], { input: `${rev}^{commit}\n` });
  const eol = stdout.indexOf(0x0a);
  const header = /^([0-9a-f]+) commit (\d+)$/.exec(stdout.subarray(0, Math.max(eol, 0)).toString('utf8'));
  if (!header) {
    // Let the resolver say precisely why (ambiguous prefix, not a commit, missing).
    await resolveRevision(repo, rev, 'commit');
    throw new RevisionNotFoundError(`commit ${rev} could not be read`, { details: { rev } });
  }
  const size = Number(header[2]);
  const body = stdout.subarray(eol + 1, eol + 1 + size);
  if (body.length !== size)
    throw new GitOutputUnparseableError(`git cat-file returned a truncated commit for ${rev}`, {
      details: { args: ['cat-file', '--batch'], rev },
    });
  return parseCommitObject(assertGitId(header[1] as string, 'cat-file --batch'), body);
}

/**
 * Parses a raw commit object (the bytes of `git cat-file commit <sha>`). Pure. Headers continue on
 * lines that start with a space (signatures, merge tags); the message is everything after the first
 * blank line, decoded in the commit's declared `encoding` and without its final newline.
 */
export function parseCommitObject(sha: string, raw: Buffer): CommitInfo {
  const text = decode(raw);
  const split = text.indexOf('\n\n');
  const headerText = split < 0 ? text.replace(/\n$/, '') : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2).replace(/\n$/, '');
  const parents: string[] = [];
  let author: { ident: string; date: string } | null = null;
  for (const line of headerText.split('\n')) {
    if (line.startsWith(' ')) continue; // continuation of a multi-line header
    const space = line.indexOf(' ');
    const key = space < 0 ? line : line.slice(0, space);
    const value = space < 0 ? '' : line.slice(space + 1);
    if (key === 'parent') parents.push(assertGitId(value, 'cat-file commit'));
    else if (key === 'author' && author === null) author = parseIdent(value, sha);
  }
  if (author === null) throw badCommit(sha, 'no author header');
  return { sha, message, author: author.ident, date: author.date, parents };
}

/** Decodes the whole object in its `encoding` header's charset (git re-encodes headers and message alike). */
function decode(raw: Buffer): string {
  const end = raw.indexOf('\n\n');
  const headers = raw.subarray(0, end < 0 ? raw.length : end).toString('latin1');
  const label = /(?:^|\n)encoding ([^\n]+)/.exec(headers)?.[1];
  if (label !== undefined) {
    try {
      return new TextDecoder(label.trim()).decode(raw);
    } catch {
      // An encoding Node does not know: fall through to UTF-8, as git log does when iconv fails.
    }
  }
  return raw.toString('utf8');
}

/** `Name <email> 1709290800 +0100` -> the ident and an ISO-8601 date in the author's own offset. */
function parseIdent(value: string, sha: string): { ident: string; date: string } {
  const m = /^(.*) (-?\d+) ([+-])(\d{2})(\d{2})$/.exec(value);
  if (!m) throw badCommit(sha, `unreadable author line ${JSON.stringify(value)}`);
  const [, ident, epoch, sign, hh, mm] = m as unknown as [string, string, string, string, string, string];
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
  const local = new Date((Number(epoch) + offsetMinutes * 60) * 1000);
  if (Number.isNaN(local.getTime())) throw badCommit(sha, `author date out of range: ${epoch}`);
  const iso = local.toISOString().replace(/\.\d{3}Z$/, '');
  return { ident, date: `${iso}${sign === '-' && offsetMinutes !== 0 ? '-' : '+'}${hh}:${mm}` };
}

function badCommit(sha: string, reason: string): GitOutputUnparseableError {
  return new GitOutputUnparseableError(`commit ${sha} is malformed: ${reason}`, {
    details: { args: ['cat-file', 'commit', sha], reason },
  });
}
