/**
 * Pure parsers for the `-z` output of the git commands the checkpoint store runs. No I/O here:
 * every function takes git's bytes or text and returns plain data, and is unit-tested on canned
 * output in fixtures/git-output/.
 */

/** One blob entry of a tree listing (`ls-tree -r`). */
export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  /** Repository-relative path with `/` separators. */
  path: string;
}

/** What `ls-files -t -o -m` reported: new files, changed tracked files, and nested repositories. */
export interface CandidateListing {
  untracked: string[];
  modified: string[];
  /** Directories git did not descend into because they hold their own repository (no trailing `/`). */
  nestedRepos: string[];
}

/** One changed path of `diff-tree -r --raw --numstat -z --no-renames`. */
export interface DiffRecord {
  path: string;
  /** A, D, M or T (type change). */
  status: string;
  oldMode: string;
  newMode: string;
  oldOid: string;
  newOid: string;
  /** Line counts; null for binary files (numstat prints `-`). */
  additions: number | null;
  deletions: number | null;
  binary: boolean;
}

/** One object of `cat-file --batch` output. */
export type BatchObject =
  | { kind: 'found'; oid: string; type: string; content: Buffer }
  | { kind: 'missing'; name: string };

/** One ref of our `for-each-ref` format: name, commit, its tree, commit date and message body. */
export interface RefRecord {
  ref: string;
  oid: string;
  tree: string;
  date: string;
  body: string;
}

/** Splits NUL-terminated records; a missing final terminator is tolerated. */
export function splitNul(text: string): string[] {
  const parts = text.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/** Parses `ls-files -z -t -o -m`: `? ` marks untracked entries (a trailing `/` marks a nested repository), `C ` changed ones. */
export function parseCandidateListing(text: string): CandidateListing {
  const out: CandidateListing = { untracked: [], modified: [], nestedRepos: [] };
  const seenModified = new Set<string>();
  for (const record of splitNul(text)) {
    const tag = record.slice(0, 2);
    const path = record.slice(2);
    if (path === '') throw new SyntaxError(`ls-files record without a path: ${JSON.stringify(record)}`);
    if (tag === '? ') {
      if (path.endsWith('/')) out.nestedRepos.push(path.slice(0, -1));
      else out.untracked.push(path);
    } else if (tag === 'C ' || tag === 'R ') {
      if (!seenModified.has(path)) out.modified.push(path);
      seenModified.add(path);
    } else {
      throw new SyntaxError(`unexpected ls-files tag ${JSON.stringify(tag)}`);
    }
  }
  return out;
}

/** Parses `ls-tree -r -z --full-tree`: `<mode> SP <type> SP <oid> TAB <path>` per record. */
export function parseLsTree(text: string): Map<string, TreeEntry> {
  const out = new Map<string, TreeEntry>();
  for (const record of splitNul(text)) {
    const tab = record.indexOf('\t');
    const head = tab < 0 ? [] : record.slice(0, tab).split(' ');
    const [mode, type, oid] = head;
    if (head.length !== 3 || mode === undefined || type === undefined || oid === undefined || !/^[0-9a-f]{40,64}$/.test(oid)) {
      throw new SyntaxError(`malformed ls-tree record: ${JSON.stringify(record.slice(0, 120))}`);
    }
    const path = record.slice(tab + 1);
    out.set(path, { mode, type, oid, path });
  }
  return out;
}

/**
 * Parses `diff-tree -r -z --raw --numstat --no-renames`: first every raw record
 * (`:<old mode> <new mode> <old oid> <new oid> <status>` NUL `<path>` NUL), then every numstat
 * record (`<added> TAB <deleted> TAB <path>` NUL), in the same path order.
 */
export function parseDiffRawNumstat(text: string): DiffRecord[] {
  const tokens = splitNul(text);
  const records: DiffRecord[] = [];
  const byPath = new Map<string, DiffRecord>();
  let i = 0;
  while (i < tokens.length && tokens[i]?.startsWith(':')) {
    const head = (tokens[i] ?? '').slice(1).split(' ');
    const path = tokens[i + 1];
    const [oldMode, newMode, oldOid, newOid, status] = head;
    if (head.length !== 5 || path === undefined || oldMode === undefined || newMode === undefined || oldOid === undefined || newOid === undefined || status === undefined) {
      throw new SyntaxError(`malformed raw diff record: ${JSON.stringify(tokens[i])}`);
    }
    const record: DiffRecord = { path, status, oldMode, newMode, oldOid, newOid, additions: null, deletions: null, binary: false };
    records.push(record);
    byPath.set(path, record);
    i += 2;
  }
  for (; i < tokens.length; i += 1) {
    const token = tokens[i] ?? '';
    const first = token.indexOf('\t');
    const second = token.indexOf('\t', first + 1);
    if (first < 0 || second < 0) throw new SyntaxError(`malformed numstat record: ${JSON.stringify(token)}`);
    const added = token.slice(0, first);
    const deleted = token.slice(first + 1, second);
    const record = byPath.get(token.slice(second + 1));
    if (record === undefined) throw new SyntaxError(`numstat names a path the raw diff did not: ${JSON.stringify(token)}`);
    if (added === '-' && deleted === '-') {
      record.binary = true;
    } else {
      record.additions = toCount(added, token);
      record.deletions = toCount(deleted, token);
    }
  }
  return records;
}

function toCount(value: string, token: string): number {
  if (!/^\d+$/.test(value)) throw new SyntaxError(`malformed numstat count in ${JSON.stringify(token)}`);
  return Number(value);
}

/**
 * Parses `cat-file --batch` output: `<oid> SP <type> SP <size> LF <bytes> LF` per object, or
 * `<name> SP missing LF` (also `ambiguous`). Sizes are byte counts, so contents are sliced, never
 * scanned for separators.
 */
export function parseCatFileBatch(buf: Buffer): BatchObject[] {
  const out: BatchObject[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const eol = buf.indexOf(0x0a, pos);
    if (eol < 0) throw new SyntaxError('cat-file --batch output ends inside a header');
    const header = buf.toString('utf8', pos, eol);
    pos = eol + 1;
    const missing = /^(.*) (missing|ambiguous)$/.exec(header);
    if (missing) {
      out.push({ kind: 'missing', name: missing[1] ?? '' });
      continue;
    }
    const found = /^([0-9a-f]{40,64}) ([a-z]+) (\d+)$/.exec(header);
    if (!found) throw new SyntaxError(`malformed cat-file header ${JSON.stringify(header.slice(0, 120))}`);
    const size = Number(found[3]);
    if (pos + size + 1 > buf.length || buf[pos + size] !== 0x0a) throw new SyntaxError(`cat-file object ${found[1]} is truncated`);
    out.push({ kind: 'found', oid: found[1] ?? '', type: found[2] ?? '', content: buf.subarray(pos, pos + size) });
    pos += size + 1;
  }
  return out;
}

/** The `for-each-ref` format that parseRefRecords reads: NUL-separated fields, NUL after the body. */
export const REF_RECORD_FORMAT = '%(refname)%00%(objectname)%00%(tree)%00%(creatordate:iso-strict)%00%(contents:body)%00';

/** Parses for-each-ref output in REF_RECORD_FORMAT (git adds a newline after each record). */
export function parseRefRecords(text: string): RefRecord[] {
  const out: RefRecord[] = [];
  const parts = text.split('\0');
  let i = 0;
  while (i + 5 <= parts.length - 1) {
    const ref = (parts[i] ?? '').replace(/^\n/, '');
    const [oid = '', tree = '', date = '', body = ''] = parts.slice(i + 1, i + 5);
    if (!ref.startsWith('refs/') || !/^[0-9a-f]{40,64}$/.test(oid)) throw new SyntaxError(`malformed ref record for ${JSON.stringify(ref.slice(0, 120))}`);
    out.push({ ref, oid, tree, date, body });
    i += 5;
  }
  const rest = parts.slice(i).join('\0').trim();
  if (rest !== '') throw new SyntaxError(`trailing for-each-ref output ${JSON.stringify(rest.slice(0, 120))}`);
  return out;
}
