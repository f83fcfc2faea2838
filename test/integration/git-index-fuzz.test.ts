import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../src/fs/path-bytes.js';
import { parseIndexFile, type EntryFilter } from '../../src/git/parsers/index-file.js';
import { GITLINK_MODE, parseIndexEntries, type IndexEntry } from '../../src/git/parsers/ls-files-tagged.js';
import { git, initRepo, oracleEnv, tempDir } from '../helpers/repo.js';

/*
 * Differential fuzz of the index-file reader against git itself: each fixture index
 * (fixtures/git-index/) is mutated a few dozen times from a fixed seed, written over the index of a
 * throwaway repository, and listed by `git -c index.threads=1 ls-files -z -v -s` (our git is pinned to
 * one thread). Wherever git lists the index and the reader returns a list, the two must be the same:
 * a list that differs would let a crafted index hide a mark or an entry from us. The reader's null
 * (git is asked instead) and git's failure (every git command fails too) are both fine.
 */

const SEED = 0x1d3f_2026;
const CASES_PER_FIXTURE = 50;
const FIXTURES = ['v2', 'v3', 'v4', 'v4-ieot', 'sha256', 'unmerged', 'untracked-cache'] as const;

const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const SKIP_WORKTREE = 0x4000;
const INTENT_TO_ADD = 0x2000;

/** mulberry32: a tiny deterministic generator, so that every run tries the same cases. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { int, pick };
}
type Rng = ReturnType<typeof generator>;

/** Where one entry of an unmutated fixture lies: its start, flags, name (v4: varint), name's NUL, next entry. */
interface EntryAt {
  start: number;
  flags: number;
  name: number;
  nul: number;
  next: number;
}
interface Layout {
  version: number;
  id: number;
  entries: EntryAt[];
  extensions: number[];
}

/** The layout of a well-formed fixture (its names hold no NUL). */
function layoutOf(bytes: Buffer, id: number): Layout {
  const version = bytes.readUInt32BE(4);
  const entries: EntryAt[] = [];
  let at = 12;
  for (let i = 0; i < bytes.readUInt32BE(8); i++) {
    const flags = bytes.readUInt16BE(at + 40 + id);
    const name = at + 42 + id + ((flags & EXTENDED) !== 0 ? 2 : 0);
    const nul = bytes.indexOf(0, version === 4 ? skipVarint(bytes, name) : name);
    const next = version === 4 ? nul + 1 : at + ((nul - at + 8) & ~7);
    entries.push({ start: at, flags, name, nul, next });
    at = next;
  }
  const extensions: number[] = [];
  while (at < bytes.length - id) {
    extensions.push(at);
    at += 8 + bytes.readUInt32BE(at + 4);
  }
  return { version, id, entries, extensions };
}

function skipVarint(bytes: Buffer, at: number): number {
  while (((bytes[at] as number) & 0x80) !== 0) at++;
  return at + 1;
}

const splice = (b: Buffer, from: number, to: number, ...insert: Buffer[]) =>
  Buffer.concat([b.subarray(0, from), ...insert, b.subarray(to)]);
const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const randomBytes = (r: Rng, n: number) => Buffer.from(Array.from({ length: n }, () => r.int(256)));
const setCount = (b: Buffer, n: number) => void b.writeUInt32BE(Math.max(0, n) >>> 0, 8);

/** One mutation: edits `b` (a copy) in place or returns a new buffer. */
type Mutation = (b: Buffer, r: Rng, l: Layout) => Buffer | void;

const MUTATIONS: Record<string, Mutation> = {
  'header byte': (b, r) => void (b[r.int(12)] ^= 1 << r.int(8)),
  version: (b, r) => void b.writeUInt32BE(r.pick([2, 3, 4, 2, 3, 4, 1, 5, r.int(2 ** 32)]), 4),
  'entry count': (b, r) =>
    setCount(b, r.pick([b.readUInt32BE(8) + r.pick([-2, -1, 1, 2]), 0, 1, r.int(b.readUInt32BE(8) + 3)])),
  'flag bits': (b, r, l) => {
    const e = r.pick(l.entries);
    const at = e.start + 40 + l.id;
    b.writeUInt16BE(
      b.readUInt16BE(at) ^ r.pick([ASSUME_VALID, ASSUME_VALID, EXTENDED, 0x1000, 0x2000, 0x3000]),
      at,
    );
  },
  'assume-valid': (b, r, l) => {
    for (let n = 1 + r.int(3); n > 0; n--) {
      const at = r.pick(l.entries).start + 40 + l.id;
      b.writeUInt16BE(b.readUInt16BE(at) | ASSUME_VALID, at);
    }
  },
  // Extended flags set the way git writes them (the entry rebuilt, its padding too), or any bit.
  'extended bits': (b, r, l) => {
    const e = r.pick(l.entries);
    const bits = r.pick([SKIP_WORKTREE, INTENT_TO_ADD, SKIP_WORKTREE | INTENT_TO_ADD, 0, 1 << r.int(16)]);
    if ((e.flags & EXTENDED) !== 0) return void b.writeUInt16BE(bits, e.name - 2);
    const head = Buffer.concat([
      b.subarray(e.start, e.start + 40 + l.id),
      u16(e.flags | EXTENDED),
      u16(bits),
    ]);
    const name = b.subarray(e.name, e.nul + 1);
    const pad = l.version === 4 ? 0 : ((head.length + name.length - 1 + 8) & ~7) - head.length - name.length;
    return splice(b, e.start, e.next, head, name, Buffer.alloc(pad));
  },
  'name length': (b, r, l) => {
    const e = r.pick(l.entries);
    const at = e.start + 40 + l.id;
    const length = e.flags & 0xfff;
    const to = r.pick([0, length - 1, length + 1, length + 8, 0xfff, 0xffe, r.int(0x1000)]);
    b.writeUInt16BE((e.flags & 0xf000) | (to & 0xfff), at);
  },
  'name byte': (b, r, l) => {
    const e = r.pick(l.entries);
    b[e.name + r.int(e.nul - e.name + 1)] = r.pick([0, 0, 0x2f, 0x80, 0x01, r.int(256)]);
  },
  'v4 varint': (b, r, l) => {
    const e = r.pick(l.entries.slice(1));
    if (l.version !== 4 || e === undefined) return void (b[r.int(b.length)] ^= 0xff);
    b[e.name] =
      r.pick([0, 1, 0x7f, 0x80, 0x81, 0xff, (b[e.name] as number) + 1, (b[e.name] as number) - 1]) & 0xff;
  },
  'extension header': (b, r, l) => {
    const at = l.extensions.length > 0 ? r.pick(l.extensions) : b.length - l.id - 8;
    const i = r.int(8);
    b[at + i] ^= i < 4 ? r.pick([0x20, 0x20, 1 << r.int(8)]) : 1 << r.int(8);
  },
  mode: (b, r, l) =>
    void b.writeUInt32BE(
      r.pick([0o100644, 0o100755, 0o120000, 0o160000, 0o40000, 0, 0o1000000, r.int(2 ** 32)]),
      r.pick(l.entries).start + 24,
    ),
  truncate: (b, r) => b.subarray(0, r.int(b.length)),
  'duplicate bytes': (b, r, l) => {
    if (r.int(2) === 0) {
      const at = r.int(b.length);
      return splice(b, at, at, Buffer.from(b.subarray(at, at + 1 + r.int(16))));
    }
    const e = r.pick(l.entries);
    const copy = Buffer.from(b.subarray(e.start, e.next));
    if (r.int(3) > 0) setCount(b, b.readUInt32BE(8) + 1);
    return splice(b, e.next, e.next, copy);
  },
  'drop bytes': (b, r, l) => {
    if (r.int(2) === 0) {
      const at = r.int(b.length);
      return splice(b, at, at + 1 + r.int(16));
    }
    const e = r.pick(l.entries);
    if (r.int(3) > 0) setCount(b, b.readUInt32BE(8) - 1);
    return splice(b, e.start, e.next);
  },
  'append extension': (b, r, l) => {
    const letters = () => String.fromCharCode(...Array.from({ length: 3 }, () => 0x41 + r.int(26)));
    const first = String.fromCharCode((r.int(2) === 0 ? 0x41 : 0x61) + r.int(26));
    const signature = r.pick([
      first + letters(),
      first + letters(),
      'TREE',
      'REUC',
      'UNTR',
      'EOIE',
      'IEOT',
      'link',
      'sdir',
    ]);
    const body = randomBytes(r, r.int(24));
    const size = r.pick([body.length, body.length, body.length + 1, body.length - 1, r.int(2 ** 32)]);
    const at = r.int(3) === 0 && l.extensions.length > 0 ? r.pick(l.extensions) : b.length - l.id;
    return splice(b, at, at, Buffer.from(signature, 'latin1'), u32(size), body);
  },
  'random bytes': (b, r) => {
    for (let n = 1 + r.int(4); n > 0; n--) b[r.int(b.length)] = r.int(256);
  },
};
const KINDS = Object.keys(MUTATIONS);

/** The mutated index and the names of the mutations made (one, or two or three in a row). */
function mutate(original: Buffer, r: Rng, layout: Layout): { bytes: Buffer; made: string[] } {
  let bytes: Buffer = Buffer.from(original);
  const made: string[] = [];
  for (let n = r.int(4) === 0 ? 2 + r.int(2) : 1; n > 0; n--) {
    const kind = r.pick(KINDS);
    made.push(kind);
    // Later mutations use the fixture's layout: on a shifted index they hit other bytes, also fine.
    try {
      bytes = (MUTATIONS[kind] as Mutation)(bytes, r, layout) ?? bytes;
    } catch (error) {
      // A field of the fixture's layout past the end of an index cut short: no mutation.
      if (!(error instanceof RangeError)) throw error;
    }
  }
  return { bytes, made };
}

/** What oracle git lists for the repository's index, or null when git fails. */
function gitListing(dir: string): Buffer | null {
  try {
    return execFileSync('git', ['-c', 'index.threads=1', 'ls-files', '-z', '-v', '-s'], {
      cwd: dir,
      env: oracleEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 20_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    return null;
  }
}

const plain = (entries: readonly IndexEntry[]) =>
  entries.map(({ tag, mode, oid, path }) => ({ tag, mode, oid, path }));
/** Where two listings first differ (paths cut short), or null when they are the same. */
function difference(ours: readonly IndexEntry[], theirs: readonly IndexEntry[]): string | null {
  const show = (e: IndexEntry | undefined) =>
    e === undefined ? 'nothing' : JSON.stringify({ ...e, path: e.path.slice(0, 60) });
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    const [a, b] = [ours[i], theirs[i]];
    if (a?.tag !== b?.tag || a?.mode !== b?.mode || a?.oid !== b?.oid || a?.path !== b?.path)
      return `entry ${i} of ${ours.length} (git: ${theirs.length}): ours ${show(a)}, git ${show(b)}`;
  }
  return null;
}

/** The filter `readIndexEntries(repo, 'marked')` reads with: marked entries and gitlinks. */
const marked: EntryFilter = (tag, mode) => tag !== 'H' || mode === GITLINK_MODE;

const totals = { cases: 0, accepted: 0, nullByUs: 0, gitFailed: 0, unlisted: 0, listedWhereGitFailed: 0 };
const started = performance.now();

describe('parseIndexFile against git on mutated index files (fixed seed)', () => {
  afterAll(() => {
    const ms = Math.round(performance.now() - started);
    console.info(
      `index fuzz: ${totals.cases} cases, ${totals.accepted} listed alike by both, ${totals.nullByUs} null by us ` +
        `(git listed), ${totals.gitFailed} failed by git (${totals.listedWhereGitFailed} of them listed by us), ` +
        `${totals.unlisted} with a listing ls-files-tagged does not parse; ${ms} ms`,
    );
  });

  it.each(FIXTURES.map((name, i) => [name, i] as const))('%s', (name, i) => {
    const id = name === 'sha256' ? 32 : 20;
    const original = readFileSync(new URL(`../../fixtures/git-index/${name}.index`, import.meta.url));
    const layout = layoutOf(original, id);
    let dir: string;
    if (id === 32)
      git((dir = tempDir('agentgate-repo-')), ['init', '-q', '-b', 'main', '--object-format=sha256']);
    else dir = initRepo();
    const indexFile = join(dir, '.git', 'index');
    const r = generator(SEED + i);
    const divergences: string[] = [];
    for (let n = 0; n < CASES_PER_FIXTURE; n++) {
      const { bytes, made } = mutate(original, r, layout);
      totals.cases++;
      writeFileSync(indexFile, bytes);
      const ours = parseIndexFile(bytes, id);
      const output = gitListing(dir);
      if (output === null) {
        totals.gitFailed++;
        if (ours !== null) totals.listedWhereGitFailed++;
        continue;
      }
      let listed: IndexEntry[];
      try {
        listed = parseIndexEntries(decodeBytes(output));
      } catch {
        totals.unlisted++;
        continue;
      }
      if (ours === null) totals.nullByUs++;
      else totals.accepted++;
      const case_ = `${name} #${n} (${made.join(', ')})`;
      const ourDifference = ours === null ? null : difference(plain(ours), listed);
      if (ourDifference !== null) divergences.push(`${case_}: ${ourDifference}`);
      const kept = parseIndexFile(bytes, id, marked);
      const keptDifference =
        kept === null
          ? null
          : difference(
              plain(kept),
              listed.filter((e) => marked(e.tag, e.mode)),
            );
      if (keptDifference !== null) divergences.push(`${case_}, marked only: ${keptDifference}`);
    }
    // The unmutated fixture, as a check that the repository lists it as the fixture says.
    writeFileSync(indexFile, original);
    const whole = parseIndexFile(original, id);
    expect(whole).not.toBeNull();
    expect(plain(whole ?? [])).toEqual(parseIndexEntries(decodeBytes(gitListing(dir) ?? Buffer.alloc(0))));
    expect(divergences).toEqual([]);
  });

  it('the mutations reach all three outcomes', () => {
    expect(totals.cases).toBe(FIXTURES.length * CASES_PER_FIXTURE);
    expect(totals.accepted).toBeGreaterThan(totals.cases / 10);
    expect(totals.nullByUs).toBeGreaterThan(totals.cases / 20);
    expect(totals.gitFailed).toBeGreaterThan(totals.cases / 20);
  });
});
