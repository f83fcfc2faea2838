// Marks the functions a command's start runs for V8 to compile eagerly, so that Node's compile
// cache holds their bytecode.
//
// Why: Node's compile cache keeps what V8 compiled when the file was first compiled, which is the
// top-level code and the functions V8 compiles eagerly, not the ones it compiles lazily, on first
// call. Every start of the CLI compiled those again (about 170 functions for `runs --json`, 3 ms of
// a 42 ms start; docs/performance.md). V8 compiles a function expression eagerly when it is
// wrapped in parentheses (its "PIFE" heuristic), so this runs the bundle on a few common commands
// with V8's function events logged, and parenthesises each arrow function and function expression
// that was compiled lazily. The code does the same: only where V8 compiles it changes. Function
// declarations, methods and async arrow functions cannot be marked so, and stay lazy.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { parse } from 'acorn';

/** Source ranges ("start:end") V8 compiled lazily while `file` ran each of `runs` ({ args, cwd, env }). */
export function lazyRanges(file, runs) {
  const dir = mkdtempSync(join(tmpdir(), 'agentgate-eager-'));
  try {
    const ranges = new Set();
    runs.forEach((run, i) => {
      const log = join(dir, `v8-${i}.log`);
      const res = spawnSync(
        process.execPath,
        ['--log-function-events', `--logfile=${log}`, '--no-logfile-per-isolate', file, ...run.args],
        {
          cwd: run.cwd,
          env: { ...run.env, NODE_DISABLE_COMPILE_CACHE: '1' },
          encoding: 'utf8',
        },
      );
      if (res.status !== 0) throw new Error(`${run.args.join(' ')} failed while training: ${res.stderr}`);
      for (const range of lazyRangesInLog(readFileSync(log, 'utf8'), file)) ranges.add(range);
    });
    return ranges;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The "start:end" ranges of `file`'s functions that a V8 function-events log shows compiled lazily. */
export function lazyRangesInLog(log, file) {
  const lines = log.split('\n').map((line) => line.split(','));
  const ids = new Set(lines.filter((f) => f[0] === 'script-details' && f[2] === file).map((f) => f[1]));
  return lines
    .filter((f) => f[0] === 'function' && f[1] === 'parse-function' && ids.has(f[2]))
    .map((f) => `${f[3]}:${f[4]}`);
}

/** `source` with each arrow function and function expression whose range is in `ranges` parenthesised. */
export function markEager(source, ranges) {
  const ends = new Map();
  for (const range of ranges) {
    const [start, end] = range.split(':').map(Number);
    ends.set(end, [...(ends.get(end) ?? []), start]);
  }
  const marks = [];
  const visit = (node, parent) => {
    if (
      isMarkable(node, parent) &&
      (ends.get(node.end) ?? []).some((s) => s >= node.start && s <= node.body.start)
    ) {
      marks.push(node);
    }
    for (const value of Object.values(node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child !== null && typeof child === 'object' && typeof child.type === 'string') visit(child, node);
      }
    }
  };
  visit(parse(source, { ecmaVersion: 'latest', sourceType: 'script' }), null);
  const cuts = marks
    .flatMap((node) => [
      [node.start, '('],
      [node.end, ')'],
    ])
    .sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [pos, text] of cuts) {
    out += source.slice(at, pos) + text;
    at = pos;
  }
  return { source: out + source.slice(at), marked: marks.length };
}

/**
 * An arrow function or function expression that stands as a value (not a method, accessor or class
 * member). V8 does not compile an async arrow function eagerly for its parentheses: left as it is.
 */
function isMarkable(node, parent) {
  if (node.type === 'ArrowFunctionExpression') return !node.async;
  if (node.type !== 'FunctionExpression') return false;
  const member =
    parent?.type === 'MethodDefinition' ||
    (parent?.type === 'Property' && (parent.method || parent.kind !== 'init'));
  return !member;
}
