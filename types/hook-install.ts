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
