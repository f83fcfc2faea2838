import type { CommandSpec } from '../spec.js';
import { CHECKPOINT_COMMANDS } from './checkpoint.js';
import { DEMO_COMMAND } from './demo.js';
import { RUN_SNAPSHOT_COMMANDS } from './run-snapshots.js';
import { SHARING_COMMANDS } from './sharing.js';

export const COMMANDS: CommandSpec[] = [...RUN_SNAPSHOT_COMMANDS, DEMO_COMMAND, ...CHECKPOINT_COMMANDS, ...SHARING_COMMANDS];
