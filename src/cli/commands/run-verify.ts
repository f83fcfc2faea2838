import type { VerifyReport } from '../../../types/verify.js';
import { NothingToVerifyError, UsageError } from '../../errors.js';
import { paint, paintCell, table, VERIFY_FAILED_EXIT } from '../output.js';
import { CI_OPTION, defineCommand } from '../spec.js';
import { detectCi, errorAnnotations } from '../../ci/github.js';
import { RUN_ID } from './run-output.js';

export const VERIFY_COMMAND = defineCommand({
  name: 'verify',
  usage:
    'verify [ID | --run ID | --all | --attestation FILE | --anchor REV] [--require-gate NAME]... [--each-iteration] [--ci github|none]',
  summary:
    'Validate stored snapshots against git, their artifacts and their runs; exits 3 when a check fails.',
  description:
    'Exit status: 0 every check passed; 3 a check failed (the report says which); 1 verify itself could not run, NOTHING_TO_VERIFY included (an empty or wrong home verifies nothing and never passes); 2 usage.',
  options: {
    run: { ...RUN_ID, description: 'every snapshot of this run, and the run record' },
    all: {
      type: 'boolean',
      description: 'the whole store, including files that no longer load (the default when nothing is given)',
    },
    'require-gate': {
      type: 'string',
      valueName: 'NAME',
      multiple: true,
      description:
        "with --run: fail unless the newest verdict of gate NAME on the run's last iteration is an observed pass",
    },
    'each-iteration': { type: 'boolean', description: 'ask --require-gate of every iteration of the run' },
    ci: {
      ...CI_OPTION,
      description:
        'GitHub Actions integration: github writes failed checks as ::error annotations, none turns it off',
    },
    attestation: {
      type: 'string',
      valueName: 'FILE',
      description: 'check a statement written by "attest" against the local records instead',
    },
    anchor: {
      type: 'string',
      valueName: 'REV',
      description:
        "recompute REV's anchor from the records and git and compare it with the recorded one (ANCHOR_NOT_FOUND when there is none)",
    },
  },
  positionals: { required: [], optional: ['ID'] },
  examples: [
    'verify --run "$RUN"',
    'verify --run "$RUN" --require-gate test --require-gate lint',
    'verify --attestation agentgate.intoto.json',
    'verify --anchor HEAD',
  ],
  async run(ctx, values, [id]) {
    const ci = detectCi(values.ci);
    const chosen = [
      id !== undefined,
      values.run !== undefined,
      values.all,
      values.attestation !== undefined,
      values.anchor !== undefined,
    ].filter(Boolean).length;
    if (chosen > 1)
      throw new UsageError('give one of ID, --run ID, --all, --attestation FILE or --anchor REV');
    // Before any mode is chosen: no mode but --run may take these and quietly pass.
    if ((values['require-gate'].length > 0 || values['each-iteration']) && values.run === undefined)
      throw new UsageError('--require-gate and --each-iteration need --run ID');
    if (values['each-iteration'] && values['require-gate'].length === 0)
      throw new UsageError('--each-iteration asks --require-gate NAME of every iteration: give one');
    const github = ci.mode === 'github';
    if (values.anchor !== undefined)
      return (await import('./provenance.js')).verifyAnchorCommand(ctx, values.anchor, github);
    if (values.attestation !== undefined)
      return (await import('./attest.js')).verifyAttestation(ctx, values.attestation, github);
    // A mistyped -C is no failed check (exit 3) of every snapshot: verify cannot run (exit 1).
    await ctx.assertGivenWorkspace();
    const target =
      id !== undefined ? { id } : values.run !== undefined ? { runId: values.run } : { all: true as const };
    // Snapshot checks, plus every gate verdict of the runs covered (src/gates/verify.ts).
    if (!('all' in target)) {
      ctx.preferGivenWorkspace();
      await ctx.assertGivenRepository();
    }
    const gates = await ctx.gates();
    const verifying = () =>
      gates.verify(target, {
        requireGates: values['require-gate'],
        eachIteration: values['each-iteration'],
      });
    // The whole store holds the recorded anchors too: one that does not load is a failed check.
    const report = 'all' in target ? await withAnchorFiles(ctx.settings.home, verifying) : await verifying();
    return {
      json: report,
      exitCode: report.ok ? 0 : VERIFY_FAILED_EXIT,
      ...(github ? { workflowCommands: errorAnnotations(report.checks) } : {}),
      human: (colour) => {
        const rows = report.checks.map((c) => [
          c.ok ? paintCell('ok', 'green', colour) : paintCell('FAIL', 'red', colour),
          c.snapshotId ?? '-',
          c.check,
          c.detail,
        ]);
        const verdict = report.ok
          ? paint(`All ${report.checks.length} checks passed.`, 'green', colour)
          : paint(
              `${report.checks.filter((c) => !c.ok).length} of ${report.checks.length} checks failed.`,
              'red',
              colour,
            );
        return `${rows.length ? `${table(['', 'SNAPSHOT', 'CHECK', 'DETAIL'], rows)}\n` : ''}${verdict}`;
      },
    };
  },
});

/** `verify --all`'s report with a failed `store-file` check for each anchor file that does not load. */
async function withAnchorFiles(home: string, verifying: () => Promise<VerifyReport>): Promise<VerifyReport> {
  const { AnchorStore } = await import('../../provenance/anchor-store.js');
  const problems = await new AnchorStore(home).problems();
  const checks = problems.map((p) => ({
    snapshotId: null,
    runId: null,
    check: 'store-file',
    ok: false,
    detail: p.message,
  }));
  const report = await verifying().catch((error: unknown) => {
    // A home holding only anchors, one of them corrupt, has something to report after all.
    if (error instanceof NothingToVerifyError && checks.length > 0) return { ok: true, checks: [] };
    throw error;
  });
  return checks.length === 0 ? report : { ok: false, checks: [...report.checks, ...checks] };
}
