/*
 * What provenance's diffs and blame are computed from: the objects alone. Anyone holding the
 * records and the commits must get the same anchor, so nothing of this clone may change what is
 * binary or how lines compare: attributes (the work tree's `.gitattributes`, the index's,
 * `info/attributes`, `core.attributesFile`; git 2.39 has no `--attr-source`) are kept out by
 * diffing with `--text` and deciding binary here from content, as git does with no attributes;
 * the settings that decide the rest are pinned.
 */
import { encodeBytes } from '../fs/path-bytes.js';
import { CatFileScanner, type ScanMode, type ScannedObject } from './parsers/cat-file-scan.js';
import { runGitStream, type GitOptions } from './runner.js';

/** core.bigFileThreshold as provenance pins it (git's default): git's diff takes a larger blob as binary. */
const BIG_FILE_BYTES = 512 * 1024 * 1024;

/**
 * Settings of command scope for provenance's `diff-tree` and `blame`: the repository's own
 * `core.bigFileThreshold` would make a text file binary, and `diff.indentHeuristic=false` moves
 * the lines a diff or blame gives a commit; both pinned to git's defaults.
 */
const PINNED = [`core.bigFileThreshold=${BIG_FILE_BYTES}`, 'diff.indentHeuristic=true'];

/** `repo` with the pinned settings added (after its own: command scope, so they win). */
export function pinnedFor(repo: GitOptions): GitOptions {
  return { ...repo, config: [...(repo.config ?? []), ...PINNED] };
}

/** A mode whose object is a blob (regular file, executable, symbolic link; not a submodule). */
export function isBlobMode(mode: string): boolean {
  return /^1[02]0[0-7]{3}$/.test(mode);
}

/**
 * For each name (an object id, or `<commit>:<path>`), whether git's diff takes it as binary with
 * no attributes: a NUL byte in its first 8000 bytes, or more than BIG_FILE_BYTES. A name that is
 * no blob here (a missing path, a submodule): false. Streamed: a large blob goes by, only its
 * first bytes are looked at. `names` may come in batches (git starts on the first while the
 * caller finds more).
 */
export async function binaryByContent(
  repo: GitOptions,
  names: readonly string[] | AsyncIterable<readonly string[]>,
): Promise<boolean[]> {
  return (await catFile(repo, 'scan', names)).map(isBinary);
}

/**
 * What each name (an object id, `<tree-ish>:<path>`) is here, through one `cat-file -z` (any
 * path, bytes that are not UTF-8 included): `check` its id, type and size; `keep` its content too.
 */
export async function catFile(
  repo: GitOptions,
  mode: ScanMode,
  names: readonly string[] | AsyncIterable<readonly string[]>,
): Promise<ScannedObject[]> {
  const sent: Buffer[] = [];
  const encode = (batch: readonly string[]): Buffer => {
    const bytes = batch.map((n) => encodeBytes(n));
    sent.push(...bytes);
    return Buffer.concat(bytes.flatMap((b) => [b, Buffer.from([0])]));
  };
  if (Array.isArray(names) && names.length === 0) return [];
  const input = Array.isArray(names)
    ? encode(names as readonly string[])
    : (async function* () {
        for await (const batch of names as AsyncIterable<readonly string[]>)
          if (batch.length > 0) yield encode(batch);
      })();
  const scanner = new CatFileScanner(mode, (i) => sent[i]);
  await runGitStream(
    repo,
    ['cat-file', mode === 'check' ? '--batch-check' : '--batch', '-z'],
    async (stdout) => {
      for await (const chunk of stdout as AsyncIterable<Buffer>) scanner.push(chunk);
    },
    { input },
  );
  return scanner.end(sent.length);
}

function isBinary(o: ScannedObject): boolean {
  return o.found && o.type === 'blob' && (o.binary || o.size > BIG_FILE_BYTES);
}

/** Answers of binaryBlobs already given for a repository: a blob's content never changes. */
const known = new WeakMap<GitOptions, Map<string, boolean>>();
const MAX_KNOWN = 100_000;

/** The blobs of `ids` (full ids) that git's diff takes as binary by content (binaryByContent), each read once per repository. */
export async function binaryBlobs(repo: GitOptions, ids: Iterable<string>): Promise<Set<string>> {
  let seen = known.get(repo);
  if (seen === undefined || seen.size > MAX_KNOWN) known.set(repo, (seen = new Map()));
  const cache = seen;
  const all = [...new Set(ids)];
  const ask = all.filter((id) => !cache.has(id));
  const answers = await binaryByContent(repo, ask);
  ask.forEach((id, i) => cache.set(id, answers[i] === true));
  return new Set(all.filter((id) => cache.get(id) === true));
}
