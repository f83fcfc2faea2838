import * as z from './zod.js';
import { deferred } from './zod.js';

/** What `hook install` or `hook uninstall` changed (with --dry-run: would change) in one agent's config. */
export const HookInstallResult = deferred(() =>
  z.object({
    agent: z.string(),
    action: z.enum(['install', 'uninstall']),
    scope: z.enum(['project', 'user']),
    /** The config file (Cline: the hooks directory). */
    file: z.string(),
    dryRun: z.boolean(),
    /** Whether the file was written (false when nothing changed, or with --dry-run). */
    written: z.boolean(),
    /** Our entries, per event: added, updated (another command), removed. */
    changes: z.array(z.object({ event: z.string(), change: z.enum(['added', 'updated', 'removed']) })),
    /** The command each hook runs (install). */
    command: z.optional(z.string()),
    /** Entries that are not ours and are in the way (a Cline hook file of the same name): left alone. */
    leftAlone: z.array(z.string()),
    /** What the user must do before the agent runs the hooks (trust them, enable hooks). */
    notes: z.array(z.string()),
  }),
);
export type HookInstallResult = z.infer<typeof HookInstallResult>;

/**
 * What `hook install` keeps about one config file it wrote, in `<home>/hooks/installs/`, so that
 * `hook uninstall` gives back exactly what was there: nothing (the file and directories install
 * created go), or the user's file byte for byte (`undo`). Used only while the file is exactly as
 * install last wrote it (`written`; a file install created, also the very file it made: `stamp`);
 * otherwise uninstall cuts our entries out and removes nothing.
 */
export const HookInstallRecord = deferred(() =>
  z.object({
    version: z.literal(1),
    /** The config file (Cline: the hooks directory), as install named it. */
    file: z.string(),
    /** SHA-256 of the text install last wrote (none for Cline's hook files, which carry a marker). */
    written: z.optional(z.string()),
    /** No file was there before install: install created it. */
    created: z.boolean(),
    /**
     * The created file's stamp (src/fs/stamps.ts) as install left it: it is the file install made
     * only while its bytes are `written` and its stamp this (one re-made with the same bytes is not).
     */
    stamp: z.optional(z.string()),
    /** The directories install created for it, deepest first. */
    dirs: z.array(z.string()),
    /** Splices that turn the text install wrote back into the user's (undo.ts); absent: not known. */
    undo: z.optional(z.array(z.object({ at: z.number(), length: z.number(), text: z.string() }))),
  }),
);
export type HookInstallRecord = z.infer<typeof HookInstallRecord>;
