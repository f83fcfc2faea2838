import * as z from '../../types/zod.js';
import { CheckpointRole, type CheckpointEntry } from '../../types/checkpoint.js';
import type { RefRecord } from '../git/parsers/for-each-ref.js';
import { randomHex } from '../fs/random.js';
import { firstChars } from '../text.js';
import { TOUCHED_MAX } from './sessions.js';

/** What a checkpoint commit records about itself, as one JSON line in its message body. */
export const CheckpointMeta = z.object({
  label: z.nullable(z.string()),
  createdAt: z.string(),
  kind: z.enum(['track', 'safety']),
  /** Set by agent hooks: the agent's session id and the event that took the checkpoint. */
  session: z.optional(z.string()),
  event: z.optional(z.string()),
  /** The N-th prompt of the session: this checkpoint is the state just before it. */
  prompt: z.optional(z.int().check(z.positive())),
  /** What the checkpoint is to its session (absent on records made before roles were kept). */
  role: z.optional(CheckpointRole),
  /**
   * Its place in the store's line of checkpoints (sessions.ts linePosition): `seq` counts them as
   * recorded, `span` is the seq from which the step into it is its owner's alone, so that a step
   * whose checkpoints in between were pruned is not handed to the next one's owner.
   */
  seq: z.optional(z.int().check(z.nonnegative())),
  span: z.optional(z.int().check(z.nonnegative())),
  /**
   * On a `change` whose tool named the files it wrote: those of them inside the workspace, as git
   * paths (at most TOUCHED_MAX). The step into it is its session's for these (and below them) only;
   * absent: the whole step. `runTouched` is the same for the run back to `span` (null: all of it),
   * absent when it equals `touched` (sessions.ts linePosition).
   */
  touched: z.optional(z.array(z.string()).check(z.maxLength(TOUCHED_MAX))),
  runTouched: z.optional(z.nullable(z.array(z.string()).check(z.maxLength(TOUCHED_MAX)))),
  /**
   * Set when the track did not count the store's objects: what the tracks since the count at commit
   * `since` may have added at most (src/checkpoints/budget-count.ts).
   */
  uncounted: z.optional(
    z.object({
      since: z.string(),
      events: z.int().check(z.positive()),
      loose: z.int().check(z.nonnegative()),
      bytes: z.int().check(z.nonnegative()),
    }),
  ),
  /**
   * The paths its capture skipped (skip-rules.ts), as git paths by reason, so that a restore to it
   * leaves them alone; `many` past SKIPPED_CHARS. Absent: none, or a checkpoint made before skips were kept.
   */
  skipped: z.optional(z.union([z.literal('many'), z.record(z.string(), z.array(z.string()))])),
});
export type CheckpointMeta = z.infer<typeof CheckpointMeta>;

/** What an agent hook records about a checkpoint (see CheckpointMeta). */
export type AgentTag = Pick<
  CheckpointMeta,
  'session' | 'event' | 'prompt' | 'role' | 'uncounted' | 'seq' | 'span' | 'touched' | 'runTouched'
>;

export const CHECKPOINT_REF_PREFIX = 'refs/checkpoints/';
export const META_REF_PREFIX = 'refs/checkpoints-meta/';
export const LATEST_REF = `${META_REF_PREFIX}latest`;
export const BASELINE_REF = `${META_REF_PREFIX}baseline`;
export const SAFETY_REF = `${META_REF_PREFIX}safety`;

// eslint-disable-next-line no-control-regex -- control characters are what is taken out
const CONTROL = /[\u0000-\u001f\u007f]/g;

/**
 * Commit message: a readable subject, then the metadata as JSON (labels may hold any text: the
 * JSON escapes it). The subject has no control character: git refuses a message with a NUL byte.
 */
export function encodeMessage(meta: CheckpointMeta): string {
  const line = meta.label?.split('\n')[0] ?? '';
  const firstLine = firstChars(line, 72).text.replace(CONTROL, ' ');
  const subject = meta.kind === 'safety' ? 'agentgate safety checkpoint' : 'agentgate checkpoint';
  return `${subject}${firstLine ? `: ${firstLine}` : ''}\n\n${JSON.stringify(meta)}\n`;
}

/** Reads the metadata back from a message body; a body we did not write falls back to the commit date. */
export function decodeMessage(body: string, commitDate: string): CheckpointMeta {
  for (const line of body.split('\n').reverse()) {
    if (!line.startsWith('{')) continue;
    try {
      const parsed = CheckpointMeta.safeParse(JSON.parse(line));
      if (parsed.success) return parsed.data;
    } catch {
      // Not our JSON: keep looking, then fall back.
    }
  }
  return { label: null, createdAt: new Date(commitDate).toISOString(), kind: 'track' };
}

let lastStamp = 0;
/** The last time a ref name holds (four-digit years). */
const LAST_STAMP = Date.UTC(9999, 11, 31);

/**
 * A new checkpoint ref name: `refs/checkpoints/<UTC time to the ms>-<random>`. Names sort by
 * time, and "newest first" is the reverse name order, so the time is forced past `after` (the
 * newest checkpoint's, from any process: captures are serialised by the store lock) and past this
 * process's last one: a clock stepped back (NTP, a virtual machine resumed) never puts a new
 * checkpoint before older ones. refTime gives the time back, the checkpoint's `createdAt`.
 */
export function newCheckpointRef(now: number = Date.now(), after: number = 0): string {
  // A time that a name cannot hold (a store tampered with: year 10000 on) is no floor.
  const floor = Number.isFinite(after) && after < LAST_STAMP ? after + 1 : 0;
  lastStamp = Math.max(now, lastStamp + 1, floor);
  const iso = new Date(lastStamp).toISOString(); // 2025-01-02T03:04:05.678Z
  const stamp = iso.replace(/[-:]/g, '').replace('.', '');
  return `${CHECKPOINT_REF_PREFIX}${stamp}-${randomHex(3)}`;
}

/** The time in a name newCheckpointRef made, as an ISO string. */
export function refTime(ref: string): string {
  const s = ref.slice(CHECKPOINT_REF_PREFIX.length);
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}.${s.slice(15, 18)}Z`;
}

/** A checkpoint as the line reads it: the entry, with its event, place and the paths its tool named. */
export function lineEntryOf(
  r: RefRecord & { oid: string },
): CheckpointEntry & CheckpointMeta & { oid: string } {
  const meta = decodeMessage(r.body, r.date);
  return { ...plainEntry({ ref: r.ref, hash: r.tree, ...meta }), ...meta, oid: r.oid };
}

/** The listed fields of a line entry (CheckpointEntry), without its place, paths and oid. */
export function plainEntry(e: CheckpointEntry): CheckpointEntry {
  const { ref, hash, label, createdAt, kind, session, event, prompt, role } = e;
  return {
    ref,
    hash,
    label,
    createdAt,
    kind,
    ...(session === undefined ? {} : { session }),
    ...(event === undefined ? {} : { event }),
    ...(prompt === undefined ? {} : { prompt }),
    ...(role === undefined ? {} : { role }),
  };
}

/** A checkpoint ref as listed: its tree and what its message records. */
export function entryOf(r: RefRecord): CheckpointEntry {
  return plainEntry({ ref: r.ref, hash: r.tree, ...decodeMessage(r.body, r.date) });
}

/**
 * The distinct trees of the recorded checkpoints `rev` names: the ref itself, or every record
 * whose tree or commit id is `rev` or starts with it (more than one: an ambiguous abbreviation).
 */
export function recordedTrees(records: readonly RefRecord[], rev: string): string[] {
  return [...new Set(namedRecords(records, rev).map((r) => r.tree))];
}

/** The records `rev` names (see recordedTrees): its ref, or those whose tree or commit id starts with it. */
export function namedRecords(records: readonly RefRecord[], rev: string): RefRecord[] {
  const named = records.find((r) => r.ref === rev);
  if (named !== undefined) return named.tree === '' ? [] : [named];
  if (!/^[0-9a-f]+$/.test(rev)) return [];
  return records.filter((r) => r.tree !== '' && (r.tree.startsWith(rev) || r.oid.startsWith(rev)));
}

/** The checkpoints that baseline, latest and the last safety checkpoint point at, among `records`. */
export function markersOf(
  records: readonly RefRecord[],
): Record<'baseline' | 'latest' | 'safety', CheckpointEntry | null> {
  const find = (meta: string): CheckpointEntry | null => {
    const marker = records.find((r) => r.ref === meta);
    if (marker === undefined) return null;
    const named = records.find((r) => r.ref.startsWith(CHECKPOINT_REF_PREFIX) && r.oid === marker.oid);
    return entryOf(named ?? marker);
  };
  return { baseline: find(BASELINE_REF), latest: find(LATEST_REF), safety: find(SAFETY_REF) };
}
