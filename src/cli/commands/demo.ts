import { runDemo, type DemoSummary } from '../../demo/demo.js';
import { paint, short, table } from '../output.js';
import { defineCommand } from '../spec.js';

export const DEMO_COMMAND = defineCommand({
  name: 'demo',
  usage: 'demo [--keep]',
  summary:
    'Run the main job end to end on a throwaway workspace and home (your ~/.agentgate is not touched).',
  description:
    'Three scripted agent iterations, each judged by a test gate (red on the second, green again on the third), then verify --require-gate test. The throwaway workspace and home are removed when the demo ends, unless --keep leaves them for a look.',
  options: {
    keep: { type: 'boolean', description: 'keep the throwaway workspace and home, and say where they are' },
  },
  positionals: { required: [] },
  examples: ['demo', 'demo --keep --json'],
  async run(_ctx, values) {
    const summary = await runDemo({ keep: values.keep });
    return {
      json: summary,
      exitCode: summary.verify.ok ? 0 : 1,
      human: (colour) => {
        const rows = summary.iterations.map((i) => [
          String(i.iteration),
          String(i.filesChanged),
          `+${i.insertions}`,
          `-${i.deletions}`,
          short(i.beforeSha),
          short(i.afterSha),
          gateCell(i.gate, colour),
          i.patchPath ?? '-',
        ]);
        const verdict = summary.verify.ok
          ? paint(`verify: all ${summary.verify.checks} checks passed`, 'green', colour)
          : paint(
              `verify: ${summary.verify.failed} of ${summary.verify.checks} checks failed`,
              'red',
              colour,
            );
        return [
          `Run ${summary.runId} in ${summary.workspace}`,
          '',
          table(['ITER', 'FILES', '+', '-', 'BEFORE', 'AFTER', 'GATE', 'PATCH'], rows),
          '',
          verdict,
          summary.kept
            ? `Workspace and home kept for a look: ${summary.workspace}, ${summary.home}`
            : 'The throwaway workspace and home were removed (demo --keep keeps them).',
        ].join('\n');
      },
    };
  },
});

/** `test pass 2/2`, `test fail 1/2`: the gate's verdict and how many of its tests passed. */
function gateCell(gate: DemoSummary['iterations'][number]['gate'], colour: boolean): string {
  const counts = gate.tests === null ? '' : ` ${gate.tests.passed}/${gate.tests.total}`;
  return paint(`${gate.name} ${gate.verdict}${counts}`, gate.verdict === 'pass' ? 'green' : 'red', colour);
}
