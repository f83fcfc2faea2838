/**
 * Every command, by module. A module is imported only when one of its commands runs (or for the
 * full command list in `--help`), so that starting the CLI does not load the library.
 * Adding a module: list its command names here and return its commands from `load`.
 */
import { HOOK_AGENTS } from '../../../types/hook-agents.js';
import type { Command } from '../spec.js';

export interface CommandModule {
  names: readonly string[];
  load(): Promise<readonly Command[]>;
}

export const COMMAND_MODULES: readonly CommandModule[] = [
  {
    names: [
      'before',
      'after',
      'iterate',
      'show',
      'list',
      'runs',
      'patch',
      'stats',
      'verify',
      'delete',
      'cherry-pick',
    ],
    load: async () => (await import('./run-snapshots.js')).RUN_SNAPSHOT_COMMANDS,
  },
  { names: ['demo'], load: async () => [(await import('./demo.js')).DEMO_COMMAND] },
  {
    names: ['push', 'fetch', 'export', 'import'],
    load: async () => (await import('./sharing.js')).SHARING_COMMANDS,
  },
  { names: ['report'], load: async () => [(await import('./report.js')).REPORT_COMMAND] },
  { names: ['attest'], load: async () => [(await import('./attest.js')).ATTEST_COMMAND] },
  { names: ['anchor', 'trace'], load: async () => (await import('./provenance.js')).PROVENANCE_COMMANDS },
  { names: ['serve'], load: async () => [(await import('./serve.js')).serveCommand(loadCommand)] },
  {
    names: [
      'checkpoint track',
      'checkpoint patch',
      'checkpoint diff',
      'checkpoint diff-full',
      'checkpoint restore',
      'checkpoint revert',
      'checkpoint list',
      'checkpoint gc',
      'checkpoint status',
    ],
    load: async () => (await import('./checkpoint.js')).CHECKPOINT_COMMANDS,
  },
  {
    names: ['gate', 'gate record', 'gate list', 'gate replay'],
    load: async () => (await import('./gate.js')).GATE_COMMANDS,
  },
  {
    names: HOOK_AGENTS.map((agent) => `hook ${agent}`),
    load: async () => (await import('./hook.js')).HOOK_COMMANDS,
  },
  {
    names: ['hook install', 'hook uninstall'],
    load: async () => (await import('./hook-install.js')).HOOK_INSTALL_COMMANDS,
  },
];

export const COMMAND_NAMES: readonly string[] = COMMAND_MODULES.flatMap((m) => m.names);

/** The command called `name`, loading only its module; undefined when there is none. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  const module = COMMAND_MODULES.find((m) => m.names.includes(name));
  return (await module?.load())?.find((c) => c.name === name);
}

/** Every command, in the order listed above (loads every module). */
export async function loadAllCommands(): Promise<Command[]> {
  // Each module returns its commands in the order of its `names` (checked by cli-spec.test.ts).
  return (await Promise.all(COMMAND_MODULES.map((m) => m.load()))).flat();
}
