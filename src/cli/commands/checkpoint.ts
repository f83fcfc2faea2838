import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FileDiff } from '../../../types/checkpoint.js';
import { Checkpoints } from '../../checkpoints/index.js';
import { InvalidArgumentError, UsageError } from '../../errors.js';
import { str, type Context } from '../context.js';
import { short, table } from '../output.js';
import type { CommandSpec } from '../spec.js';

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
  });
}

const track: CommandSpec = {
  name: 'checkpoint track',
  usage: 'checkpoint track [--label L]',
  summary: 'Record the workspace\'s current state in its private checkpoint store.',
  options: { label: { type: 'string' } },
  positionals: { required: [] },
  async run(ctx, values) {
    const result = await (await open(ctx)).track(str(values.label));
    return {
      json: result,
      human: () =>
        [`Checkpoint ${result.hash} (${result.ref})`, ...result.skipped.map((s) => `  skipped ${s.path}: ${s.reason}${s.size === null ? '' : ` (${s.size} bytes)`}`)].join('\n'),
    };
  },
};

const patch: CommandSpec = {
  name: 'checkpoint patch',
  usage: 'checkpoint patch HASH',
  summary: 'List the files changed since checkpoint HASH.',
  options: {},
  positionals: { required: ['HASH'] },
  async run(ctx, _values, [hash]) {
    const result = await (await open(ctx)).patch(hash as string);
    return { json: result, human: () => (result.files.length ? result.files.join('\n') : `Nothing changed since ${short(result.hash)}.`) };
  },
};

const diff: CommandSpec = {
  name: 'checkpoint diff',
  usage: 'checkpoint diff HASH',
  summary: 'Unified diff from checkpoint HASH to the current state.',
  options: {},
  positionals: { required: ['HASH'] },
  async run(ctx, _values, [hash]) {
    const cp = await open(ctx);
    if (ctx.json) return { json: { diff: await cp.diff(hash as string) }, human: () => '' };
    // For people (and for `| git apply`), the patch goes out byte for byte, never decoded.
    const bytes = await cp.diffBytes(hash as string);
    const dir = await mkdtemp(join(tmpdir(), 'agentgate-cpdiff-'));
    const file = join(dir, 'diff.patch');
    await writeFile(file, bytes);
    return { streamFile: file, cleanup: () => rm(dir, { recursive: true, force: true }) };
  },
};

const diffFull: CommandSpec = {
  name: 'checkpoint diff-full',
  usage: 'checkpoint diff-full FROM [TO]',
  summary: 'Per-file before/after contents between two checkpoints (TO defaults to now).',
  options: {},
  positionals: { required: ['FROM'], optional: ['TO'] },
  async run(ctx, _values, [from, to]) {
    const diffs: FileDiff[] = await (await open(ctx)).diffFull(from as string, to);
    return {
      json: diffs,
      human: () => (diffs.length ? table(['STATUS', '+', '-', 'FILE'], diffs.map((d) => [d.status, d.binary ? 'bin' : String(d.additions), d.binary ? 'bin' : String(d.deletions), d.file])) : 'No differences.'),
    };
  },
};

const restore: CommandSpec = {
  name: 'checkpoint restore',
  usage: 'checkpoint restore HASH',
  summary: 'Make the workspace match checkpoint HASH (a safety checkpoint is taken first).',
  options: {},
  positionals: { required: ['HASH'] },
  async run(ctx, _values, [hash]) {
    const result = await (await open(ctx)).restore(hash as string);
    return { json: result, human: () => `Restored ${result.hash}.\nUndo with: agentgate-snapshot checkpoint restore ${result.safety}` };
  },
};

const revert: CommandSpec = {
  name: 'checkpoint revert',
  usage: 'checkpoint revert HASH [PATH...]',
  summary: 'Put back the given (default: all changed) files as they were at checkpoint HASH.',
  options: {},
  positionals: { required: ['HASH'], rest: 'PATH' },
  async run(ctx, _values, [hash, ...paths]) {
    if (paths.includes('')) throw new UsageError('an empty PATH names nothing; give files or directories inside the workspace, or no PATH to mean every changed file');
    const cp = await open(ctx);
    // Like git -C, paths are taken relative to the -C directory.
    const result = paths.length ? await cp.revert(hash as string, paths.map((p) => resolve(ctx.workspace, p))) : await cp.revert(hash as string);
    return {
      json: result,
      human: () =>
        [
          `Reverted ${result.reverted.length} files, deleted ${result.deleted.length}.`,
          ...result.reverted.map((p) => `  reverted ${p}`),
          ...result.deleted.map((p) => `  deleted  ${p}`),
          `Undo with: agentgate-snapshot checkpoint restore ${result.safety}`,
        ].join('\n'),
    };
  },
};

const list: CommandSpec = {
  name: 'checkpoint list',
  usage: 'checkpoint list',
  summary: 'Recorded checkpoints, newest first.',
  options: {},
  positionals: { required: [] },
  async run(ctx) {
    const entries = await (await open(ctx)).list();
    return {
      json: entries,
      human: () => (entries.length ? table(['CREATED', 'HASH', 'LABEL', 'REF'], entries.map((e) => [e.createdAt, e.hash, e.label ?? '-', e.ref])) : 'No checkpoints.'),
    };
  },
};

const gc: CommandSpec = {
  name: 'checkpoint gc',
  usage: 'checkpoint gc [--keep N] [--prune AGE]',
  summary: 'Keep the newest N checkpoints (and the baseline), then git gc the store.',
  options: { keep: { type: 'string' }, prune: { type: 'string' } },
  positionals: { required: [] },
  async run(ctx, values) {
    const keepText = str(values.keep);
    if (keepText !== undefined && !/^\d{1,9}$/.test(keepText)) throw new InvalidArgumentError(`--keep must be a whole number, not ${JSON.stringify(keepText.slice(0, 40))}`);
    const prune = str(values.prune);
    const result = await (await open(ctx)).gc({
      keep: keepText === undefined ? ctx.settings.checkpoints.keep : Number(keepText),
      ...(prune === undefined ? {} : { pruneAge: prune }),
    });
    return {
      json: result,
      human: () => `Kept ${result.kept} checkpoints, removed ${result.removed}; store ${result.storeBytesBefore} -> ${result.storeBytesAfter} bytes (pruned objects older than ${result.pruneAge}).`,
    };
  },
};

export const CHECKPOINT_COMMANDS: CommandSpec[] = [track, patch, diff, diffFull, restore, revert, list, gc];
