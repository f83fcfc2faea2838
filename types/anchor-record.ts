import * as z from './zod.js';
import { deferred } from './zod.js';
import { Anchor } from './anchor.js';
import { RefusedRecord } from './sharing.js';
import { Sha } from './snapshot.js';

/**
 * An anchor as it travels (push, fetch, export, import): one commit per anchored commit under
 * `refs/agentgate/anchors/<commit>`, whose only parent is the anchored commit and whose tree holds
 * `anchor.json` (this schema). Untrusted on arrival: parsed, its commit id checked against the ref
 * name and its parent, and kept only when it recomputes the same from this machine's records.
 */
export const ANCHOR_RECORD_FORMAT = 'agentgate-anchor/1' as const;
export const ANCHOR_RECORD_FILE = 'anchor.json';

export const AnchorRecordFile = deferred(() =>
  z.strictObject({
    format: z.literal(ANCHOR_RECORD_FORMAT),
    anchor: Anchor,
  }),
);
export type AnchorRecordFile = z.infer<typeof AnchorRecordFile>;

/** Which anchors a push, fetch, export or import carries: beside the runs (default), only them, or none. */
export const ANCHOR_MODES = ['with', 'only', 'none'] as const;
export const AnchorMode = deferred(() => z.enum(ANCHOR_MODES));
export type AnchorMode = z.infer<typeof AnchorMode>;

/** What taking anchors in did: the commits whose anchors were kept now, those already here, and the refused refs. */
export const AnchorsReceived = deferred(() =>
  z.object({
    anchors: z.array(Sha),
    unchanged: z.int().check(z.nonnegative()),
    refused: z.array(RefusedRecord),
  }),
);
export type AnchorsReceived = z.infer<typeof AnchorsReceived>;
