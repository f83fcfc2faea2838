import { runDemo } from '../../snapshotter/demo.js';
import { paint, short, table } from '../output.js';
import { defineCommand } from '../spec.js';

export const DEMO_COMMAND = defineCommand({
  name: 'demo',
  usage: 'demo',
  summary: 'Run the main job end to end on a throwaway workspace and home (your ~/.agentgate is not touched).',
  options: {},
  positionals: { required: [] },
  examples: ['demo', 'demo --json'],
  async run() {
    const summary = await runDemo();
    return {
      json: summary,
      exitCode: summary.verify.ok ? 0 : 1,
      human: (colour) => {
        const rows = summary.iterations.map((i) => [String(i.iteration), String(i.filesChanged), `+${i.insertions}`, `-${i.deletions}`, short(i.beforeSha), short(i.afterSha), i.patchPath ?? '-']);
        const verdict = summary.verify.ok
          ? paint(`verify: all ${summary.verify.checks} checks passed`, 'green', colour)
          : paint(`verify: ${summary.verify.failed} of ${summary.verify.checks} checks failed`, 'red', colour);
        return [
          `Run ${summary.runId} in ${summary.workspace}`,
          '',
          table(['ITER', 'FILES', '+', '-', 'BEFORE', 'AFTER', 'PATCH'], rows),
          '',
          verdict,
          `Workspace and home kept for a look: ${summary.workspace}, ${summary.home}`,
        ].join('\n');
      },
    };
  },
});
