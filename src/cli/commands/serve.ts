import { defineCommand, type Command } from '../spec.js';

/**
 * `serve`: the long-lived mode, so that an orchestrator calling us many times starts Node once.
 * `load` finds the command each request names (commands/index.ts passes its loadCommand).
 */
export const serveCommand = (load: (name: string) => Promise<Command | undefined>): Command =>
  defineCommand({
    name: 'serve',
    ownsStdio: true,
    usage: 'serve',
    summary:
      'Answer JSON-lines requests on stdin ({"id","command","args","options"} -> {"id","result"} or {"id","error"}) until end of input.',
    description:
      'Each request runs like the command line with --json: same parser, same checks, same error codes. serve\'s own -C, --home, --artifacts-dir and --config are the defaults of every request that does not give its own. A repeatable option takes a list of strings, {"require-gate": ["test", "lint"]}; any other option a list is INVALID_REQUEST.',
    options: {},
    positionals: { required: [] },
    examples: [`serve --home "$AGENTGATE_HOME" < requests.jsonl`],
    async run(_ctx, values) {
      const { serve } = await import('../serve.js');
      const exitCode = await serve(process.stdin, process.stdout, {
        defaults: values,
        load,
        aside: process.stderr,
      });
      return { silent: true, exitCode };
    },
  });
