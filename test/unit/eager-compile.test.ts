/**
 * scripts/eager-compile.mjs: the functions a start compiled lazily are parenthesised, V8 then
 * compiles them with the file (so Node's compile cache holds them), and the code does the same.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lazyRanges, lazyRangesInLog, markEager } from '../../scripts/eager-compile.mjs';

const SOURCE = [
  'const add = (a, b) => a + b;',
  'const twice = function (f) { return (x) => f(f(x)); };',
  'function unused() { return 0; }',
  'function declared(x) { return x * 3; }',
  'const box = { get value() { return 7; }, scale(x) { return x * 2; }, plain: function () { return 1; } };',
  'class Counter { n = 0; bump() { return ++this.n; } }',
  'const c = new Counter(); c.bump();',
  'const later = async () => 1; later();',
  'console.log(add(1, 2), twice((x) => x + 1)(0), declared(2), box.value, box.scale(3), box.plain(), c.bump());',
].join('\n');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eager-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function train(source: string): Set<string> {
  const file = join(dir, 'main.js');
  writeFileSync(file, source);
  return lazyRanges(file, [{ args: [], cwd: dir, env: { PATH: process.env.PATH ?? '' } }]);
}

function output(source: string): string {
  const file = join(dir, 'run.js');
  writeFileSync(file, source);
  return spawnSync(process.execPath, [file], { encoding: 'utf8' }).stdout;
}

describe('eager compile marks', () => {
  it('parenthesise what ran lazily, so that V8 compiles it with the file; the output is the same', () => {
    const lazy = train(SOURCE);
    const { source, marked } = markEager(SOURCE, lazy);
    expect(marked).toBe(5); // add, twice, its inner arrow, the arrow given to it, box.plain
    expect(source).toContain('const add = ((a, b) => a + b);');
    expect(source).toContain('function declared(x)');
    expect(output(source)).toBe(output(SOURCE));
    expect(output(source)).toBe('3 2 6 7 6 1 2\n');
    // What is still compiled lazily is what cannot be marked: declarations, methods, accessors and
    // async arrow functions.
    expect(markEager(source, train(source)).marked).toBe(0);
    expect(train(source).size).toBeLessThan(lazy.size);
  });

  it('read only parse-function events of the named script from a log', () => {
    const log = [
      'script-details,7,/x/other.js,0,0,',
      'script-details,9,/x/main.js,0,0,',
      'function,parse-function,9,10,20,0.01,100,f',
      'function,parse-function,7,10,20,0.01,101,g',
      'function,full-parse,9,30,40,0.01,102,h',
      'function,parse-function,9,50,60,0.01,103,',
    ].join('\n');
    expect(lazyRangesInLog(log, '/x/main.js')).toEqual(['10:20', '50:60']);
  });

  it('leave a source without lazily compiled functions as it was', () => {
    expect(markEager(SOURCE, [])).toEqual({ source: SOURCE, marked: 0 });
  });
});
