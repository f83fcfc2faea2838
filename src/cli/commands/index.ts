import type { CommandSpec } from '../spec.js';
import { CHECKPOINT_COMMANDS } from './checkpoint.js';
import { DEMO_COMMAND } from './demo.js';
import { REPORT_COMMAND } from './report.js';
import { RUN_SNAPSHOT_COMMANDS } from './run-snapshots.js';

export const COMMANDS: CommandSpec[] = [...RUN_SNAPSHOT_COMMANDS, DEMO_COMMAND, REPORT_COMMAND, ...CHECKPOINT_COMMANDS];
