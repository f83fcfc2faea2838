import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DEFAULT_KEEP } from '../../../types/config.js';
import type { FileDiff, RevertResult } from '../../../types/checkpoint.js';
import { Checkpoints, DEFAULT_PRUNE_AGE } from '../../checkpoints/index.js';
import { InvalidArgumentError, PathNotFoundError, UsageError } from '../../errors.js';
import type { Context } from '../context.js';
import {
  fullText,
  leftAloneLines,
  pathArgument,
  pathText,
  restorePrompt,
  upkeepText,
} from './checkpoint-text.js';
import { countOf, printable, short, table } from '../output.js';
import { defineCommand, PROGRAM, type Command } from '../spec.js';
import { makeTempDir } from '../../fs/temp-dir.js';

/** The workspace's checkpoint store, configured from the settings. */
function open(ctx: Context): Promise<Checkpoints> {
  const s = ctx.settings;
  return Checkpoints.open(ctx.workspace, {
    home: s.home,
    maxFileSizeBytes: s.checkpoints.maxFileSizeBytes,
    excludePaths: [s.artifactsDir],
    lockTimeoutMs: s.lockTimeoutMs,
    gitTimeoutMs: s.gitTimeoutMs,
    identity: s.identity,
    maxStoreBytes: s.checkpoints.maxStoreBytes,
    keep: s.checkpoints.keep,
  });
}

/** How every HASH argument is read; shown in the help of the commands that take one. */
const HASH_FORMS =
  'HASH is a checkpoint hash (full or abbreviated), a label given to "checkpoint track --label" (the newest checkpoint with it), or latest, baseline or safety.';

const track = defineCommand({
  name: 'checkpoint track',
  usage: 'checkpoint track [--label L]',
  summary: "Record the workspace's current state in its private checkpoint store.",
  options: {
    label: {
      type: 'string',
      valueName: 'L',
      description: 'a name for the checkpoint; other commands accept it where they take a HASH',
    },
  },
  positionals: { required: [] },
  examples: ['checkpoint track --label "before tool call" --json'],
  async run(ctx, values) {
    const { upkeepError, recovered, ...result } = await (
      await open(ctx)
    ).track(values.label, { checkObjects: true });
    const warnings = [
      ...(recovered === undefined ? [] : [{ code: 'STORE_RECOVERED', message: recovered, file: null }]),
      ...(upkeepError === undefined
        ? []
        : [{ code: 'UPKEEP_FAILED', message: upkeepText(upkeepError), file: null }]),
    ];
    return {
      json: result,
      warnings,
      human: () =>
        [
          `Checkpoint ${result.hash} (${result.ref})`,
          ...result.skipped.map(
            (s) => `  skipped ${pathText(s.path)}: ${s.reason}${s.size === null ? '' : ` (${s.size} bytes)`}`,
          ),
          ...warnings.map((w) => `  warning: ${printable(w.message)}`),
        ].join('\n'),
    };
  },
});

const patch = defineCommand({
  name: 'checkpoint patch',
  usage: 'checkpoint patch HASH',
  summary: 'List the files changed since checkpoint HASH (the diff itself: "checkpoint diff").',
  description: `Prints one absolute path a line; with --json, { "hash", "files" }. ${HASH_FORMS}`,
  options: {},
  positionals: { required: ['HASH'] },
  examples: ['checkpoint patch latest'],
  async run(ctx, _values, [name]) {
    const cp = await open(ctx);
    const result = await cp.patch(name);
    return {
      json: result,
      human: () =>
        result.files.length
          ? [
              `${countOf(result.files.length, 'file')} changed since checkpoint ${short(result.hash)}:`,
              ...result.files.map(pathText),
            ].join('\n')
          : `Nothing changed since checkpoint ${short(result.hash)}.`,
    };
  },
});

const diff = defineCommand({
  name: 'checkpoint diff',
  usage: 'checkpoint diff HASH',
  summary: 'Print the unified diff from checkpoint HASH to the current state.',
  description: `The diff is binary-safe and applies with git apply; with --json, { "diff" }. ${HASH_FORMS}`,
  options: {},
  positionals: { required: ['HASH'] },
  examples: ['checkpoint diff latest > since-latest.diff'],
  async run(ctx, _values, [name]) {
    const cp = await open(ctx);
    if (ctx.json) return { json: { diff: await cp.diff(name) }, human: () => '' };
    // For people (and for `| git apply`), the patch goes out byte for byte, never decoded.
    const dir = await makeTempDir('agentgate-cpdiff-');
    const file = join(dir, 'diff.patch');
    const cleanup = () => rm(dir, { recursive: true, force: true });
    try {
      await writeFile(file, await cp.diffBytes(name));
    } catch (error) {
      await cleanup();
      throw error;
    }
    return { streamFile: file, cleanup };
  },
});

const diffFull = defineCommand({
  name: 'checkpoint diff-full',
  usage: 'checkpoint diff-full FROM [TO]',
  summary:
    "Print each changed file's whole contents before and after, from checkpoint FROM to TO (default: now).",
  description: `Each file starts with "=== STATUS PATH (+N -M)", then "--- before" and "--- after" with its full contents; binary files are named, not printed. With --json, FileDiff[]. FROM and TO take the forms of HASH: ${HASH_FORMS.slice('HASH is '.length)}`,
  options: {},
  positionals: { required: ['FROM'], optional: ['TO'] },
  examples: ['checkpoint diff-full baseline latest --json'],
  async run(ctx, _values, [from, to]) {
    const cp = await open(ctx);
    const diffs: FileDiff[] = await cp.diffFull(from, to);
    return { json: diffs, human: () => (diffs.length ? diffs.map(fullText).join('\n') : 'No differences.') };
  },
});

const restore = defineCommand({
  name: 'checkpoint restore',
  usage: 'checkpoint restore HASH | --prompt N [--session ID] [--force] [--dry-run]',
  summary:
    'Make the workspace match checkpoint HASH, or put back the files an agent session changed after its prompt N.',
  description: `A safety checkpoint is taken first; "checkpoint restore SAFETY" undoes it. With HASH, every path the checkpoints know is made to match. ${HASH_FORMS} With --prompt N instead: only the files the session (--session ID, default the latest session hooks recorded; "checkpoint list" shows both) changed after its N-th prompt go back as they were just before it; a file another session or a person changed after the session last did is left alone and reported (RESTORE_CONFLICT, exit 3) unless --force. --dry-run prints that plan (files to restore, to delete, in conflict) and changes nothing.`,
  options: {
    prompt: {
      type: 'integer',
      min: 1,
      valueName: 'N',
      description: "put back the session's files as they were just before its N-th prompt",
    },
    session: {
      type: 'string',
      valueName: 'ID',
      description: 'the agent session of --prompt (default: the latest one hooks recorded)',
    },
    force: {
      type: 'boolean',
      description: 'with --prompt: restore files another session or a person changed since, too',
    },
    'dry-run': {
      type: 'boolean',
      description: 'with --prompt: print what would be restored, deleted and left alone; change nothing',
    },
  },
  positionals: { required: [], optional: ['HASH'] },
  examples: [
    'checkpoint restore "before tool call"',
    'checkpoint restore --prompt 3',
    'checkpoint restore --prompt 2 --session 8f1c --dry-run',
  ],
  async run(ctx, values, [name]) {
    if ((name === undefined) === (values.prompt === undefined))
      throw new UsageError('give either a HASH or --prompt N (with --session ID for an older session)');
    const withPrompt = {
      session: values.session !== undefined,
      force: values.force,
      'dry-run': values['dry-run'],
    };
    for (const [option, given] of Object.entries(withPrompt))
      if (given === true && values.prompt === undefined)
        throw new UsageError(`--${option} goes with --prompt N`);
    if (values.session === '')
      throw new InvalidArgumentError('--session must not be empty; "checkpoint list" shows the sessions', {
        details: { option: '--session' },
      });
    const cp = await open(ctx);
    if (values.prompt !== undefined)
      return restorePrompt(
        await cp.restorePrompt(values.prompt, values.session, {
          force: values.force === true,
          dryRun: values['dry-run'] === true,
        }),
      );
    const result = await cp.restore(name as string);
    return {
      json: result,
      human: () =>
        [
          `Restored ${result.hash}.`,
          ...leftAloneLines(result.leftAlone),
          `Undo with: ${PROGRAM} checkpoint restore ${result.safety}`,
        ].join('\n'),
    };
  },
});

const revert = defineCommand({
  name: 'checkpoint revert',
  usage: 'checkpoint revert HASH [PATH...]',
  summary: 'Put back the given (default: all changed) files as they were at checkpoint HASH.',
  description: `PATHs are relative to the workspace (-C); the workspace itself means every changed file. In a PATH, \\udcNN (NN from 80 to ff) stands for a byte of a name that is not UTF-8, as --json output writes it. A safety checkpoint is taken first; "checkpoint restore SAFETY" undoes it. ${HASH_FORMS}`,
  options: {},
  positionals: { required: ['HASH'], rest: 'PATH' },
  examples: ['checkpoint revert latest src/app.ts'],
  async run(ctx, _values, [name, ...paths]) {
    if (paths.includes(''))
      throw new UsageError(
        'an empty PATH names nothing; give files or directories inside the workspace, or no PATH to mean every changed file',
      );
    const cp = await open(ctx);
    // Like git -C, paths are taken relative to the -C directory.
    const result = paths.length
      ? await revertPaths(
          cp,
          name,
          paths.map((p) => resolve(ctx.workspace, p)),
        )
      : await cp.revert(name);
    return {
      json: result,
      human: () =>
        [
          `Reverted ${countOf(result.reverted.length, 'file')}, deleted ${result.deleted.length}.`,
          ...result.reverted.map((p) => `  reverted ${pathText(p)}`),
          ...result.deleted.map((p) => `  deleted  ${pathText(p)}`),
          ...leftAloneLines(result.leftAlone),
          `Undo with: ${PROGRAM} checkpoint restore ${result.safety}`,
        ].join('\n'),
    };
  },
});

/**
 * revert of PATHs given on the command line, `\\udcNN` read as bytes (pathArgument). A name no
 * file has with those bytes, in the checkpoint or the workspace, is then tried as written: a file
 * literally named so that the agent deleted (pathArgument's lstat did not find it).
 */
async function revertPaths(cp: Checkpoints, hash: string, given: readonly string[]): Promise<RevertResult> {
  const decoded = await Promise.all(given.map(pathArgument));
  return cp.revert(hash, decoded).catch((error: unknown) => {
    if (!(error instanceof PathNotFoundError)) throw error;
    const missing = new Set(error.details.paths as string[]);
    const escaped = decoded.map((p, i) => p !== given[i]);
    // Matched by name when -C is the workspace's own path; else every escaped one is tried as written.
    const named = decoded.some((p, i) => escaped[i] && missing.has(p));
    const literal = decoded.map((p, i) =>
      escaped[i] && (!named || missing.has(p)) ? (given[i] as string) : p,
    );
    if (!escaped.some(Boolean)) throw error;
    return cp.revert(hash, literal).catch((again: unknown) => {
      throw again instanceof PathNotFoundError ? error : again;
    });
  });
}

const list = defineCommand({
  name: 'checkpoint list',
  usage: 'checkpoint list',
  summary: 'Recorded checkpoints, newest first.',
  options: {},
  positionals: { required: [] },
  examples: ['checkpoint list --json'],
  async run(ctx) {
    const entries = await (await open(ctx)).list();
    return {
      json: entries,
      human: () =>
        entries.length
          ? table(
              ['CREATED', 'HASH', 'SESSION', 'PROMPT', 'EVENT', 'ROLE', 'LABEL', 'REF'],
              entries.map((e) => [
                e.createdAt,
                e.hash,
                e.session ?? '-',
                e.prompt === undefined ? '-' : String(e.prompt),
                e.event ?? '-',
                e.role ?? '-',
                e.label ?? '-',
                e.ref,
              ]),
            )
          : 'No checkpoints.',
    };
  },
});

const gc = defineCommand({
  name: 'checkpoint gc',
  usage: 'checkpoint gc [--keep N] [--prune AGE]',
  summary: 'Keep the newest N checkpoints (and the baseline), then git gc the store.',
  description:
    "The checkpoints latest, baseline and safety point at are always kept. Reports the store's size before and after.",
  options: {
    keep: {
      type: 'integer',
      valueName: 'N',
      description: 'checkpoints to keep, newest first',
      defaultText: `checkpoints.keep in the config, else ${DEFAULT_KEEP}`,
    },
    prune: {
      type: 'string',
      valueName: 'AGE',
      description:
        'drop unreachable objects older than AGE, a git date such as 2.weeks.ago, 1.day.ago, 2025-01-31, now or never',
      default: DEFAULT_PRUNE_AGE,
    },
  },
  positionals: { required: [] },
  examples: ['checkpoint gc --keep 20 --prune 1.day.ago'],
  async run(ctx, values) {
    const result = await (
      await open(ctx)
    ).gc({ keep: values.keep ?? ctx.settings.checkpoints.keep, pruneAge: values.prune });
    return {
      json: result,
      human: () =>
        `Kept ${result.kept} checkpoints, removed ${result.removed}; store ${result.storeBytesBefore} -> ${result.storeBytesAfter} bytes (pruned objects older than ${printable(result.pruneAge)}).`,
    };
  },
});

const status = defineCommand({
  name: 'checkpoint status',
  usage: 'checkpoint status',
  summary: "The checkpoint store's size against its budget, its checkpoints, and what upkeep pruned.",
  description:
    'checkpoints.maxStoreBytes in the config is the budget: after each checkpoint, the oldest unprotected checkpoints are pruned and the store packed to stay under it.',
  options: {},
  positionals: { required: [] },
  examples: ['checkpoint status --json'],
  async run(ctx) {
    const st = await (await open(ctx)).status();
    const removed = st.pruned.reduce((n, p) => n + p.removed.length, 0);
    return {
      json: st,
      human: () =>
        [
          `Store of ${printable(st.workspace)}: ${st.storeBytes} of ${st.budgetBytes} bytes, ${st.checkpoints} checkpoints`,
          `  ${st.looseObjects} loose objects, ${st.packs} packs; last packed ${st.lastPackedAt ?? 'never'}`,
          st.pruned.length === 0
            ? '  nothing pruned'
            : `  pruned ${removed} checkpoints to stay under budget, last at ${st.pruned[0]?.at ?? ''} (${st.pruned[0]?.storeBytesBefore ?? 0} -> ${st.pruned[0]?.storeBytesAfter ?? 0} bytes)`,
        ].join('\n'),
    };
  },
});

export const CHECKPOINT_COMMANDS: Command[] = [
  track,
  patch,
  diff,
  diffFull,
  restore,
  revert,
  list,
  gc,
  status,
];
