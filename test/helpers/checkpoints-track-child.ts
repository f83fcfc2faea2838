// Child process for the concurrency test: opens the store, says "ready" on stderr, then tracks
// (waiting for the store lock if needed) and prints the TrackResult as JSON.
import { Checkpoints } from '../../src/checkpoints/index.js';

const [ws, home, label] = process.argv.slice(2);
if (ws === undefined || home === undefined)
  throw new Error('usage: checkpoints-track-child.ts WS HOME [LABEL]');
const cp = await Checkpoints.open(ws, { home, lockTimeoutMs: 60_000 });
process.stderr.write('ready\n');
process.stdout.write(JSON.stringify(await cp.track(label)));
