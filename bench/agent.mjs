// The bench's agent program: applies one workload plan (files to write, remove and rename), as an
// agent's edits would, so that `iterate` and the floor run the very same program between before
// and after. Plain JavaScript, so that it starts as fast as Node.
//
//   node bench/agent.mjs PLAN.json      (run in the workspace)
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import { dirname } from 'node:path';
import { argv } from 'node:process';

const plan = JSON.parse(readFileSync(argv[2], 'utf8'));
for (const path of plan.remove) rmSync(path, { force: true });
for (const [from, to] of plan.rename) {
  mkdirSync(dirname(to), { recursive: true });
  renameSync(from, to);
}
for (const [path, base64] of Object.entries(plan.write)) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, Buffer.from(base64, 'base64'));
}
