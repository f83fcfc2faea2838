import type { CommandSpec } from '../spec.js';

/** `serve`: the long-lived mode, so that an orchestrator calling us many times starts Node once. */
export const SERVE_COMMAND: CommandSpec = {
  name: 'serve',
  usage: 'serve',
  summary: 'Answer JSON-lines requests on stdin ({"id","command","args","options"} -> {"id","result"} or {"id","error"}) until end of input.',
  options: {},
  positionals: { required: [] },
  async run(_ctx, values) {
    const [{ serve }, { COMMANDS }] = await Promise.all([import('../serve.js'), import('./index.js')]);
    await serve(process.stdin, process.stdout, { commands: COMMANDS, defaults: values });
    return { silent: true };
  },
};
