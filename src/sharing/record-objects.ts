/**
 * A travelling record's three objects (its JSON blob, the tree holding it, the commit), the one
 * way they are made (recordCommit) and the one way they are written: each kind through a temp file
 * per object, then `writeObjects`.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { objectId, treeContent, writeObjects, type ObjectFormat } from '../git/record-objects.js';
import type { Repo } from '../git/repo.js';
import type * as z from '../../types/zod.js';
import { describeIssues } from '../store/json-file.js';
import { layout } from '../store/paths.js';
import { randomHex } from '../fs/random.js';
import { errnoOf } from '../fs/atomic.js';
import { WriteFailedError } from '../errors.js';
import { makeDirs } from '../fs/make-dirs.js';

export interface RecordObjects {
  json: { id: string; content: Buffer };
  tree: { id: string; content: Buffer };
  commit: { id: string; content: Buffer };
}

/** What a record commit is made of: the record's JSON under `file`, and where and when it stands. */
export interface RecordCommitSpec {
  file: string;
  json: Buffer;
  /** Other blobs of its tree, already in the object store (a gate verdict's log). */
  also?: ReadonlyArray<{ name: string; blob: string }>;
  /** Its only parent: the commit the record is about, so that it travels with the record. */
  parent: string;
  /** The author and committer date (ISO-8601), taken from the record itself. */
  at: string;
  message: string;
}

/**
 * A record commit's objects with their ids (computed here; git checks them when writing). Author,
 * committer and date are fixed by the record, so the same record gives the same commit id on every
 * machine, and a received one can be checked by making it again.
 */
export function recordCommit(format: ObjectFormat, spec: RecordCommitSpec): RecordObjects {
  const jsonId = objectId(format, 'blob', spec.json);
  const treeBuf = treeContent([{ name: spec.file, blob: jsonId }, ...(spec.also ?? [])]);
  const tree = objectId(format, 'tree', treeBuf);
  const who = `agentgate <agentgate@localhost> ${Math.floor(Date.parse(spec.at) / 1000)} +0000`;
  const commitBuf = Buffer.from(
    `tree ${tree}\nparent ${spec.parent}\nauthor ${who}\ncommitter ${who}\n\n${spec.message}`,
  );
  return {
    json: { id: jsonId, content: spec.json },
    tree: { id: tree, content: treeBuf },
    commit: { id: objectId(format, 'commit', commitBuf), content: commitBuf },
  };
}

/**
 * The id of the tree recordCommit makes: the regular file `name` holding `blob` (and `also`), in the
 * blob id's format. A received commit with another tree carries something more along.
 */
export function soleFileTree(
  name: string,
  blob: string,
  also: ReadonlyArray<{ name: string; blob: string }> = [],
): string {
  return objectId(blob.length === 64 ? 'sha256' : 'sha1', 'tree', treeContent([{ name, blob }, ...also]));
}

/** Writes every record's objects (blobs, then trees, then commits) in a temp dir of `home` (`label` names it). */
export async function writeRecordObjects(
  repo: Repo,
  home: string,
  label: string,
  records: readonly RecordObjects[],
): Promise<void> {
  const dir = join(layout(home).home, 'tmp', `${label}-${randomHex(6)}`);
  await makeDirs(dir).catch((cause: unknown) => scratchFailed(dir, cause));
  try {
    for (const [type, key] of [
      ['blob', 'json'],
      ['tree', 'tree'],
      ['commit', 'commit'],
    ] as const) {
      const files = new Map<string, string>();
      for (const r of records) {
        const path = join(dir, `${type}-${r[key].id}`);
        if (!files.has(r[key].id))
          await writeFile(path, r[key].content).catch((cause: unknown) => scratchFailed(path, cause));
        files.set(r[key].id, path);
      }
      await writeObjects(
        repo,
        type,
        [...files].map(([id, path]) => ({ id, path })),
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** WRITE_FAILED for the home's scratch directory (read-only, full, a file in its place), not INTERNAL. */
function scratchFailed(path: string, cause: unknown): never {
  throw new WriteFailedError(
    `could not write ${path} (${errnoOf(cause)}); check the home's permissions and free space, then retry`,
    { cause, details: { path } },
  );
}

/**
 * A record file received from elsewhere (`file` in a record commit's tree), parsed and checked
 * against its schema (`what` names it): its data, or null once `refuse` was told why.
 */
export function parseReceivedFile<S extends z.ZodMiniType>(
  content: Buffer,
  schema: S,
  file: string,
  what: string,
  refuse: (why: string) => void,
): z.output<S> | null {
  let json: unknown;
  try {
    json = JSON.parse(content.toString('utf8'));
  } catch {
    refuse(`${file} is not JSON`);
    return null;
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  refuse(`${file} does not match the ${what} schema: ${describeIssues(parsed.error.issues)}`);
  return null;
}
