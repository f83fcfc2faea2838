// The bench's "ideal Node iterate" (issue 29 item 1): the least any `iterate` written for Node can
// do. It runs the floor's git commands (bench/floor.sh before and after) and the agent between
// them, each spawned with child_process.spawn, the three diffs of the after step at once. No
// repository checks, no lock, no store, no ignore rules of our own: a lower bound, not a tool.
//
//   node bench/ideal-iterate.mjs WORKSPACE OUT_DIR AGENT [ARG...]
//
// Identity and a clean config come from the environment the harness passes in. Plain JavaScript
// in one file, so that it loads as fast as Node can.
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { argv, exit, stderr } from 'node:process';

const [ws, out, ...agent] = argv.slice(2);

/** Runs COMMAND in the workspace; resolves to its stdout, trimmed (or writes it to the file `to`). */
function run(command, args, { input, to } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ws,
      stdio: [
        input === undefined ? 'ignore' : 'pipe',
        to === undefined ? 'pipe' : openSync(to, 'w'),
        'inherit',
      ],
    });
    let text = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => (text += chunk));
    if (input !== undefined) child.stdin.end(input);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(text.trim()) : reject(new Error(`${command} ${args[0]}: ${code}`)),
    );
  });
}

const git = (args, options) => run('git', args, options);

try {
  const head = await git(['rev-parse', '--verify', 'HEAD']);
  await git(['add', '-A']);
  let before = head;
  const tree = await git(['write-tree']);
  if (tree !== (await git(['rev-parse', '--verify', `${head}^{tree}`]))) {
    before = await git(['commit-tree', '-p', head, tree], { input: '[agentgate] WIP before run\n' });
    await git(['update-ref', '-m', 'ideal', 'refs/heads/main', before, head]);
  }
  await run(agent[0], agent.slice(1));
  await git(['add', '-A']);
  const after = await git(['commit-tree', '-p', before, await git(['write-tree'])], {
    input: 'ideal iteration\n',
  });
  await git(['update-ref', '-m', 'ideal', 'refs/heads/main', after, before]);
  const diff = ['diff-tree', '-r', '-M', '-C'];
  await Promise.all([
    git([...diff, '-z', '--numstat', before, after], { to: join(out, 'numstat') }),
    git([...diff, '-z', '--name-status', before, after], { to: join(out, 'name-status') }),
    git([...diff, '-p', '--binary', '--full-index', before, after], { to: join(out, 'patch.diff') }),
  ]);
} catch (error) {
  stderr.write(`${String(error)}\n`);
  exit(1);
}
