// The bench's "ideal Node hook" (issue 28 item 7): the least any agent hook written for Node can
// do per event. It reads the event on stdin (every hook must), takes its `cwd`, and checkpoints it
// with the floor's four git commands (add -A, write-tree, commit-tree, update-ref) into a private
// git dir, spawned one after the other with child_process.spawn. No validation, no lock, no
// ignore rules of our own, no log: a lower bound, not a hook to use. With `one-shell`, Node spawns
// one process only, the floor script itself (bench/floor.sh checkpoint): what is left of a Node
// hook's cost once every git step runs outside Node.
//
//   node bench/ideal-hook.mjs PRIVATE_GIT_DIR [one-shell] < event.json
//
// Identity and a clean config come from the environment the harness passes in. Plain JavaScript
// in one file, so that it loads as fast as Node can.
import { spawn } from 'node:child_process';
import { argv, env, exit, stderr, stdin } from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const gitDir = argv[2];
const oneShell = argv[3] === 'one-shell';
const FLOOR_SCRIPT = fileURLToPath(new URL('./floor.sh', import.meta.url));

function git(args, cwd) {
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = oneShell
      ? ['sh', [FLOOR_SCRIPT, 'checkpoint', cwd, gitDir]]
      : ['git', args];
    const child = spawn(command, commandArgs, {
      cwd,
      env: { ...env, GIT_DIR: gitDir, GIT_WORK_TREE: cwd, GIT_INDEX_FILE: `${gitDir}/index` },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`git ${args[0]}: ${code}`)),
    );
  });
}

let input = '';
stdin.setEncoding('utf8');
for await (const chunk of stdin) input += chunk;
const { cwd } = JSON.parse(input);
try {
  if (oneShell) await git([], cwd);
  else {
    await git(['add', '-A'], cwd);
    const tree = await git(['write-tree'], cwd);
    const commit = await git(['commit-tree', tree, '-m', 'ideal hook'], cwd);
    await git(['update-ref', 'refs/ideal/latest', commit], cwd);
  }
} catch (error) {
  stderr.write(`${String(error)}\n`);
  exit(1);
}
