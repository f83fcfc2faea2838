import { ANCHOR_REF_PREFIX, type Anchor } from '../../types/anchor.js';
import { ANCHOR_RECORD_FILE, ANCHOR_RECORD_FORMAT, AnchorRecordFile } from '../../types/anchor-record.js';
import { OBJECT_ID_PATTERN } from '../../types/ids.js';
import type { RefusedRecord } from '../../types/sharing.js';
import { batchCheck, readBlobs, type CommitRef, type ObjectFormat } from '../git/record-objects.js';
import type { Repo } from '../git/repo.js';
import { parseReceivedFile, recordCommit, type RecordObjects } from './record-objects.js';

/** Where anchors live, locally and on every remote: one ref per anchored commit. */
export const ANCHORS_PREFIX = ANCHOR_REF_PREFIX;
/** Fetched and imported anchors land here first (under the sharing incoming namespace, swept alike). */
export const ANCHOR_INCOMING_PREFIX = 'refs/agentgate/incoming/anchors/';

/** The largest anchor.json taken from elsewhere (an anchor of a commit changing 100,000 files is ~20 MB). */
const MAX_ANCHOR_BYTES = 64 * 1024 * 1024;

export function anchorRef(commit: string, prefix: string = ANCHORS_PREFIX): string {
  return `${prefix}${commit}`;
}

/** `<prefix><commit>` back to the commit id; null for any other name (untrusted input). */
export function parseAnchorRef(ref: string, prefix: string, format: ObjectFormat): string | null {
  if (!ref.startsWith(prefix)) return null;
  const commit = ref.slice(prefix.length);
  const length = format === 'sha1' ? 40 : 64;
  return OBJECT_ID_PATTERN.test(commit) && commit.length === length ? commit : null;
}

export type AnchorObjects = RecordObjects;

/**
 * The anchor's commit: its tree holds anchor.json, its only parent is the anchored commit (so that
 * the commit travels with its anchor and stays reachable), and its dates are the anchor's
 * createdAt, so the same anchor gives the same commit on every machine. A received anchor commit
 * must be exactly this (receive checks it), so nothing else can ride along in its tree or message.
 */
export function anchorObjects(format: ObjectFormat, anchor: Anchor): AnchorObjects {
  const file: AnchorRecordFile = { format: ANCHOR_RECORD_FORMAT, anchor };
  const c = anchor.coverage;
  return recordCommit(format, {
    file: ANCHOR_RECORD_FILE,
    json: Buffer.from(`${JSON.stringify(AnchorRecordFile.parse(file), null, 2)}\n`),
    parent: anchor.commit,
    at: anchor.createdAt,
    message: `[agentgate] Anchor of ${anchor.commit}: ${c.linesFromRuns} of ${c.linesAdded} added lines from runs\n\nAgentgate-Anchor: ${anchor.commit}\n`,
  });
}

/**
 * The anchors held by anchor commits (refs named `<ANCHORS_PREFIX><commit>`): shape, size, JSON,
 * schema, the commit it names, and that the commit is exactly the one anchorObjects makes of it.
 * What fails is refused (under the ANCHORS_PREFIX name) and left out of the answer.
 */
export async function readAnchorCommits(
  repo: Repo,
  format: ObjectFormat,
  refs: readonly CommitRef[],
  refused: RefusedRecord[],
): Promise<Array<{ ref: CommitRef; commit: string; anchor: Anchor }>> {
  const refuse = (ref: string, reason: string) => refused.push({ ref, reason });
  const shaped = refs.flatMap((r) => {
    const commit = parseAnchorRef(r.ref, ANCHORS_PREFIX, format);
    if (commit === null) refuse(r.ref, 'not an anchor ref name (refs/agentgate/anchors/<full commit id>)');
    else if (r.type !== 'commit' || r.parents.length !== 1 || r.parents[0] !== commit)
      refuse(r.ref, 'not an anchor commit (one parent: the anchored commit its ref names)');
    else return [{ ref: r, commit }];
    return [];
  });
  const probes = await batchCheck(
    repo,
    shaped.map((s) => `${s.ref.sha}:${ANCHOR_RECORD_FILE}`),
  );
  const sized = shaped.flatMap((s, i) => {
    const p = probes[i];
    if (!p?.found || p.type !== 'blob') refuse(s.ref.ref, `has no ${ANCHOR_RECORD_FILE}`);
    else if (p.size > MAX_ANCHOR_BYTES)
      refuse(s.ref.ref, `${ANCHOR_RECORD_FILE} is larger than ${MAX_ANCHOR_BYTES} bytes`);
    else return [{ ...s, blob: p.id }];
    return [];
  });
  const contents = await readBlobs(repo, [...new Set(sized.map((s) => s.blob))]);
  return sized.flatMap((s) => {
    const parsed = parseReceivedFile(
      contents.get(s.blob) as Buffer,
      AnchorRecordFile,
      ANCHOR_RECORD_FILE,
      'anchor',
      (why) => refuse(s.ref.ref, why),
    );
    if (parsed === null) return [];
    const anchor = parsed.anchor;
    if (anchor.commit !== s.commit) refuse(s.ref.ref, `it describes commit ${anchor.commit}`);
    else if (anchorObjects(format, anchor).commit.id !== s.ref.sha)
      refuse(s.ref.ref, 'its commit is not the one this version writes for the anchor it holds');
    else return [{ ref: s.ref, commit: s.commit, anchor }];
    return [];
  });
}
