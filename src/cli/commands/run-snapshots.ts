import type { Command } from '../spec.js';
import { CAPTURE_COMMANDS } from './run-capture.js';
import { INSPECT_COMMANDS } from './run-inspect.js';
import { VERIFY_COMMAND } from './run-verify.js';

/**
 * The run snapshot commands, in the order `--help` lists them: capturing (run-capture.ts), reading
 * and changing stored snapshots (run-inspect.ts), verifying (run-verify.ts).
 */
const { show, list, runs, patch, stats, del, cherryPick } = INSPECT_COMMANDS;
export const RUN_SNAPSHOT_COMMANDS: Command[] = [
  ...CAPTURE_COMMANDS,
  show,
  list,
  runs,
  patch,
  stats,
  VERIFY_COMMAND,
  del,
  cherryPick,
];
