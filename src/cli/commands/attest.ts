import {
  attestSources,
  verifyStatement,
  writeStatement,
  type AttestSources,
  type CommitLinker,
} from '../../gates/attest.js';
import { errorAnnotations } from '../../ci/github.js';
import { UsageError } from '../../errors.js';
import type { Context } from '../context.js';
import { paint, paintCell, printable, table } from '../output.js';
import { defineCommand, MAX_ITERATION, type CommandResult } from '../spec.js';

/** `attest`: an in-toto Statement of a run's iterations and their gate verdicts. */
export const ATTEST_COMMAND = defineCommand({
  name: 'attest',
  usage: 'attest (--run ID [--iteration N] | --commit REV) -o FILE',
  summary:
    "Write an in-toto Statement v1 (Test Result predicate) of the run's iterations: subjects are the patch artifacts (sha256) and after commits (gitCommit), the predicate the newest verdict of each gate. Signing is left to the CI (for example actions/attest).",
  description:
    'The CI run URL comes from GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_RUN_ID when they are set. "verify --attestation FILE" checks a statement against the local records.',
  options: {
    run: {
      type: 'string',
      valueName: 'ID',
      description: 'the run to attest',
    },
    commit: {
      type: 'string',
      valueName: 'REV',
      description:
        "a statement about REV itself (subject: the commit), only when REV's tree is an iteration's after tree; COMMIT_NOT_GATED (exit 3) otherwise",
    },
    iteration: {
      type: 'integer',
      valueName: 'N',
      max: MAX_ITERATION,
      description: 'only this iteration (default: every iteration of the run)',
    },
    output: {
      type: 'string',
      short: 'o',
      valueName: 'FILE',
      description: 'where to write the statement (JSON)',
      required: true,
    },
  },
  positionals: { required: [] },
  examples: ['attest --run "$RUN" -o agentgate.intoto.json', 'attest --commit HEAD -o commit.intoto.json'],
  async run(ctx, values) {
    if ((values.run === undefined) === (values.commit === undefined))
      throw new UsageError('give one of --run ID or --commit REV');
    if (values.commit !== undefined) {
      if (values.iteration !== undefined) throw new UsageError('--iteration goes with --run, not --commit');
      return (await import('./provenance.js')).attestCommitCommand(ctx, values.commit, values.output);
    }
    const snapshotter = await ctx.snapshotter();
    const written = await writeStatement(attestSources(snapshotter), values.run as string, values.output, {
      ...(values.iteration === undefined ? {} : { iteration: values.iteration }),
      env: process.env,
    });
    return {
      json: { file: written.file, subjects: written.subjects },
      human: () => `Wrote ${written.file} (${written.subjects} subjects).`,
      notices: written.warnings.map((w) => `warning: ${w}`),
    };
  },
});

/** `verify --attestation FILE`: exit 0 when the statement matches the local records, 3 when not. */
export async function verifyAttestation(ctx: Context, file: string, github: boolean): Promise<CommandResult> {
  const src = attestSources(await ctx.snapshotter());
  const report = await verifyStatement(src, file, process.cwd(), commitLinker(ctx, src));
  const checks = report.checks.map((c) => ({ ...c, snapshotId: null, runId: report.runId }));
  return {
    json: report,
    exitCode: report.ok ? 0 : 3,
    ...(github ? { workflowCommands: errorAnnotations(checks) } : {}),
    human: (colour) => {
      const rows = report.checks.map((c) => [
        c.ok ? paintCell('ok', 'green', colour) : paintCell('FAIL', 'red', colour),
        printable(c.check),
        printable(c.detail),
      ]);
      const failed = report.checks.filter((c) => !c.ok).length;
      const verdict =
        failed === 0
          ? paint(`The statement matches the records (${report.checks.length} checks).`, 'green', colour)
          : paint(`${failed} of ${report.checks.length} checks failed.`, 'red', colour);
      return `${table(['', 'CHECK', 'DETAIL'], rows)}\n${verdict}`;
    },
  };
}

/** A commit statement is checked in the workspace's repository, against the iterations whose after tree is its tree. */
function commitLinker(ctx: Context, src: AttestSources): CommitLinker {
  return async (commit) => {
    const [{ openRepo }, { gatedIterations }] = await Promise.all([
      import('../../git/repo.js'),
      import('../../provenance/attest-commit.js'),
    ]);
    const { identity, gitTimeoutMs } = ctx.settings;
    const repo = await openRepo(ctx.workspace, { identity, timeoutMs: gitTimeoutMs });
    const { tree, matches } = await gatedIterations(src, repo, commit);
    return {
      tree,
      matches: matches.map((m) => ({
        runId: m.snapshot.runId,
        iteration: m.iteration,
        afterSha: m.after.commit,
      })),
    };
  };
}
