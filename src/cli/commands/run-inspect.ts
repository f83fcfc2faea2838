import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SafeId, type DiffStats, type Snapshot } from '../../../types/snapshot.js';
import { InvalidIdError, SnapshotNotFoundError, UsageError } from '../../errors.js';
import type { Context } from '../context.js';
import { assertSafeId } from '../../store/paths.js';
import { paint, printable, short, storeWarning, table } from '../output.js';
import { defineCommand, type CommandResult } from '../spec.js';
import { RUN_ID, SNAPSHOT_KEY, snapshotResult, statsText } from './run-output.js';
import { makeTempDir } from '../../fs/temp-dir.js';

const show = defineCommand({
  name: 'show',
  usage: 'show ID',
  summary: 'Show one snapshot.',
  description: `ID is ${SNAPSHOT_KEY}.`,
  options: {},
  positionals: { required: ['ID'] },
  examples: ['show 3f2a9c1e0b --json'],
  async run(ctx, _values, [id]) {
    await ctx.assertGivenWorkspace();
    const snapshotter = await ctx.snapshotter();
    return snapshotResult(await snapshotter.getSnapshot(id));
  },
});

const list = defineCommand({
  name: 'list',
  usage: 'list [--run ID]',
  summary: 'List snapshots, by run then iteration.',
  options: { run: { ...RUN_ID, description: 'only the snapshots of this run' } },
  positionals: { required: [] },
  examples: ['list --run "$RUN"'],
  async run(ctx, values) {
    const runId = values.run;
    await ctx.assertGivenWorkspace();
    const listed =
      runId === undefined
        ? await ctx.store.list()
        : await ctx.store.inspectRun(assertSafeId(runId, 'run id'));
    const local = ctx.localPaths;
    const snapshots = await Promise.all(listed.snapshots.map((s) => local.snapshot(s)));
    return {
      json: snapshots,
      // stdout stays Snapshot[]; with --json, the files that do not load are named on stderr.
      warnings: listed.problems.map(storeWarning),
      human: (colour) => {
        const rows = snapshots.map((s) => [
          s.runId,
          String(s.iteration),
          s.id,
          String(s.filesChanged),
          `+${s.insertions}`,
          `-${s.deletions}`,
          short(s.afterSha),
          s.patchPath ?? '-',
        ]);
        const warnings = listed.problems.map((p) =>
          paint(`warning: ${p.code}: ${printable(p.message)}`, 'yellow', colour),
        );
        return [
          rows.length
            ? table(['RUN', 'ITER', 'ID', 'FILES', '+', '-', 'AFTER', 'PATCH'], rows)
            : 'No snapshots.',
          ...warnings,
        ].join('\n');
      },
    };
  },
});

const runs = defineCommand({
  name: 'runs',
  usage: 'runs',
  summary: 'List run records.',
  options: {},
  positionals: { required: [] },
  examples: ['runs --json'],
  async run(ctx) {
    await ctx.assertGivenWorkspace();
    const listed = await ctx.store.listRuns();
    const local = ctx.localPaths;
    const runs = await Promise.all(listed.runs.map((r) => local.run(r)));
    return {
      json: runs,
      warnings: listed.problems.map(storeWarning),
      human: (colour) => {
        const rows = runs.map((r) => [
          r.runId,
          String(r.snapshotIds.length),
          short(r.before?.sha),
          r.updatedAt,
          r.workspace,
        ]);
        const warnings = listed.problems.map((p) =>
          paint(`warning: ${p.code}: ${printable(p.message)}`, 'yellow', colour),
        );
        return [
          rows.length ? table(['RUN', 'SNAPSHOTS', 'BEFORE', 'UPDATED', 'WORKSPACE'], rows) : 'No runs.',
          ...warnings,
        ].join('\n');
      },
    };
  },
});

const patch = defineCommand({
  name: 'patch',
  usage: 'patch ID [-o, --output FILE]',
  summary: "Print (or write to FILE) the snapshot's unified diff.",
  description: `ID is ${SNAPSHOT_KEY}. The diff is the patch artifact when it is intact, else regenerated from git, byte for byte. With --json: { "id", "diff" } (a byte that is not UTF-8 as \\udcNN, so that the string encodes back to the exact bytes), or { "id", "path" } with -o.`,
  options: {
    output: {
      type: 'string',
      short: 'o',
      valueName: 'FILE',
      description: 'write the diff to FILE (atomically) instead of printing it',
    },
  },
  positionals: { required: ['ID'] },
  examples: ['patch 3f2a9c1e0b -o iteration-1.diff'],
  async run(ctx, values, [id]): Promise<CommandResult> {
    await ctx.assertGivenWorkspace();
    const snapshotter = await ctx.snapshotter();
    const snapshot = await snapshotter.getSnapshot(id);
    if (values.output !== undefined) {
      // Printed as written: absolute, like every other -o.
      const output = resolve(values.output);
      await snapshotter.generatePatch(snapshot, output);
      return { json: { id: snapshot.id, path: output }, human: () => `Wrote ${output}` };
    }
    const dir = await makeTempDir('agentgate-patch-');
    const file = join(dir, 'patch.diff');
    const cleanup = () => rm(dir, { recursive: true, force: true });
    try {
      await snapshotter.generatePatch(snapshot, file);
    } catch (error) {
      await cleanup();
      throw error;
    }
    // --json promises exactly one JSON document on stdout, so the diff travels inside one: streamed
    // from the file and escaped chunk by chunk (the same bytes as JSON.stringify, never held whole).
    if (ctx.json)
      return {
        streamJson: {
          prefix: `{\n  "id": ${JSON.stringify(snapshot.id)},\n  "diff": "`,
          file,
          suffix: '"\n}\n',
        },
        cleanup,
      };
    return { streamFile: file, cleanup };
  },
});

const stats = defineCommand({
  name: 'stats',
  usage: 'stats FROM TO | stats SNAPSHOT | stats --run ID',
  summary: 'Diff statistics between two revisions, of one snapshot, or of a whole run.',
  description: `FROM TO: any two revisions of the workspace. SNAPSHOT: ${SNAPSHOT_KEY}; its before..after. --run ID: from the run's first snapshot's before SHA to its last snapshot's after SHA. A snapshot or run is read in its recorded workspace unless -C is given.`,
  options: {
    run: {
      ...RUN_ID,
      description: "the whole run: from its first snapshot's before SHA to its last snapshot's after SHA",
    },
  },
  positionals: { required: [], optional: ['FROM', 'TO'] },
  examples: ['stats HEAD~3 HEAD', 'stats --run "$RUN" --json'],
  async run(ctx, values, positionals) {
    const result = await statsFor(ctx, values.run, positionals);
    return { json: result, human: () => statsText(result) };
  },
});

/** FROM TO in the workspace; SNAPSHOT or --run ID in the recorded workspace unless -C names one. */
async function statsFor(ctx: Context, runId: string | undefined, positionals: string[]): Promise<DiffStats> {
  const [from, to] = positionals;
  if (runId !== undefined && positionals.length > 0)
    throw new UsageError('give FROM TO, SNAPSHOT or --run ID, not several');
  await ctx.assertGivenWorkspace();
  const snapshotter = await ctx.snapshotter();
  if (from !== undefined && to !== undefined) return snapshotter.stats(ctx.workspace, from, to);
  let range: Snapshot[];
  if (from !== undefined) range = [await snapshotter.getSnapshot(snapshotKey(from))];
  else if (runId !== undefined) range = await snapshotter.listByRun(runId);
  else
    throw new UsageError(
      'give FROM TO, SNAPSHOT or --run ID; run "agentgate-snapshot stats --help" for the forms',
    );
  const first = range[0];
  const last = range[range.length - 1];
  if (first === undefined || last === undefined) {
    throw new SnapshotNotFoundError(`run ${runId ?? ''} has no snapshots yet; "after" records them`, {
      details: { runId },
    });
  }
  return snapshotter.stats(
    ctx.workspaceGiven ? ctx.workspace : first.workspace,
    first.beforeSha,
    last.afterSha,
  );
}

/** One argument is a snapshot: one that cannot name a snapshot is more likely a revision given without TO. */
function snapshotKey(key: string): string {
  if (SafeId.safeParse(key).success) return key;
  const shown = JSON.stringify(key.slice(0, 80));
  throw new InvalidIdError(
    `stats takes a snapshot id, two revisions FROM TO, or --run ID: ${shown} is no snapshot id; for a revision give both ends ("stats ${bothEnds(key.slice(0, 80))}")`,
    { details: { value: key.slice(0, 200), what: 'snapshot id' } },
  );
}

/** The FROM TO that mean what git reads in a revision or a range (`A..B`, `A...B`, `A..`). */
function bothEnds(key: string): string {
  const range = /^(.*?)(\.\.\.?)(.*)$/s.exec(key);
  if (range === null) return `${key} HEAD`;
  const [from, to] = [range[1] || 'HEAD', range[3] || 'HEAD'];
  return range[2] === '...' ? `"$(git merge-base ${from} ${to})" ${to}` : `${from} ${to}`;
}

const del = defineCommand({
  name: 'delete',
  usage: 'delete ID',
  summary:
    "Remove a snapshot's metadata, its link from its run and its iteration ref (the commit stays in git).",
  options: {},
  positionals: { required: ['ID'] },
  examples: ['delete 3f2a9c1e0b'],
  async run(ctx, _values, [id]) {
    await ctx.assertGivenWorkspace();
    const snapshotter = await ctx.snapshotter();
    const deleted = await snapshotter.delete(id);
    return { json: { deleted }, human: () => `Deleted ${deleted}.` };
  },
});

const cherryPick = defineCommand({
  name: 'cherry-pick',
  usage: 'cherry-pick ID [--onto BRANCH]',
  summary: "Apply a snapshot's whole change (before..after) as one commit on BRANCH.",
  description: `ID is ${SNAPSHOT_KEY}. The commit is made in the workspace -C names (default: the current directory), as git would, whatever workspace the run was recorded in; its repository must hold the snapshot's commits (REVISION_NOT_FOUND otherwise: fetch the run into it first). EMPTY_SNAPSHOT when the snapshot's before and after trees are the same.`,
  options: {
    onto: {
      type: 'string',
      valueName: 'BRANCH',
      description: "the branch to commit on, in the workspace's repository",
      defaultText: "the workspace's current branch",
    },
  },
  positionals: { required: ['ID'] },
  examples: ['cherry-pick 3f2a9c1e0b --onto release'],
  async run(ctx, values, [id]) {
    const snapshotter = await ctx.snapshotter();
    const onto = values.onto;
    const commit = await snapshotter.cherryPick(ctx.workspace, id, onto === undefined ? {} : { onto });
    return {
      json: commit,
      human: () =>
        `Created ${short(commit.sha)}${values.onto ? ` on ${printable(values.onto)}` : ''}: ${printable(commit.message.split('\n')[0] ?? '')}`,
    };
  },
});

/** The commands that read, change or apply stored snapshots. */
export const INSPECT_COMMANDS = { show, list, runs, patch, stats, del, cherryPick };
