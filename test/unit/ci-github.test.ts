import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  appendKeyValues,
  appendPath,
  appendStepSummary,
  detectCi,
  errorAnnotations,
  escapeData,
  formatKeyValues,
  githubFile,
} from '../../src/ci/github.js';
import type { VerifyCheck } from '../../types/verify.js';
import { parseGithubFile } from '../helpers/github-files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
/** The `code` a call throws with. */
function codeOf(call: () => unknown): string | undefined {
  try {
    call();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'agentgate-ci-'));
  dirs.push(d);
  return d;
}

describe('GitHub Actions files', () => {
  it('detects GitHub Actions from GITHUB_ACTIONS=true, and --ci wins either way', () => {
    expect(detectCi(undefined, { GITHUB_ACTIONS: 'true' })).toEqual({ mode: 'github', forced: false });
    expect(detectCi(undefined, {})).toEqual({ mode: 'none', forced: false });
    expect(detectCi('none', { GITHUB_ACTIONS: 'true' })).toEqual({ mode: 'none', forced: true });
    expect(detectCi('github', {})).toEqual({ mode: 'github', forced: true });
    expect(codeOf(() => detectCi('gitlab', {}))).toBe('INVALID_ARGUMENT');
  });

  it('a forced --ci github without the file variable is CI_ENV_MISSING; detected, it is skipped', () => {
    expect(githubFile('GITHUB_OUTPUT', false, {})).toBeNull();
    expect(codeOf(() => githubFile('GITHUB_OUTPUT', true, {}))).toBe('CI_ENV_MISSING');
    expect(githubFile('GITHUB_OUTPUT', true, { GITHUB_OUTPUT: '/x' })).toBe('/x');
  });

  it('a file the runner named that cannot be appended to (no such directory, a directory) is WRITE_FAILED', async () => {
    const dir = tmp();
    for (const file of [join(dir, 'missing', 'out'), dir]) {
      await expect(appendKeyValues(file, { a: 1 })).rejects.toMatchObject({ code: 'WRITE_FAILED' });
      await expect(appendStepSummary(file, '# x')).rejects.toMatchObject({ code: 'WRITE_FAILED' });
      await expect(appendPath(file, '/bin')).rejects.toMatchObject({ code: 'WRITE_FAILED' });
    }
  });

  it('writes values with newlines, = and delimiter look-alikes so that GitHub reads them back exactly', async () => {
    const file = join(tmp(), 'out');
    writeFileSync(file, 'earlier=kept\n');
    const values = {
      task: 'line one\nsecond = two\n\nEOF\nghadelimiter_x',
      plain: 'a=b',
      empty: '',
      n: 3,
      ok: true,
    };
    await appendKeyValues(file, values);
    expect(parseGithubFile(readFileSync(file, 'utf8'))).toEqual({
      earlier: 'kept',
      task: values.task,
      plain: 'a=b',
      empty: '',
      n: '3',
      ok: 'true',
    });
  });

  it('picks another delimiter when the value holds the first one', () => {
    const picks = ['D1', 'D1', 'D2'];
    const text = formatKeyValues({ a: 'x\nD1\ny' }, () => picks.shift() as string);
    expect(text).toBe('a<<D2\nx\nD1\ny\nD2\n');
    expect(codeOf(() => formatKeyValues({ 'bad name': 'x' }))).toBe('INVALID_ARGUMENT');
  });

  it('a step summary section takes only the room the file has left: whole, cut, its one-line note, or nothing', async () => {
    const file = join(tmp(), 'summary');
    const limit = 100;
    const section = {
      text: `# section\n${'r'.repeat(50)}\n`,
      cutTo: (room: number) => `${'c'.repeat(Math.max(0, room - 6))}(cut)`,
      note: '_left out_\n',
    };
    writeFileSync(file, 'x'.repeat(30));
    expect(await appendStepSummary(file, section, limit)).toBe('whole');
    // The last line the file holds is ended first (1 byte), so that ours starts a line of its own.
    expect(statSync(file).size).toBe(92);
    writeFileSync(file, 'x'.repeat(60));
    expect(await appendStepSummary(file, section, limit)).toBe('cut');
    expect(readFileSync(file, 'utf8')).toMatch(/c\(cut\)\n$/);
    expect(statSync(file).size).toBe(limit);
    writeFileSync(file, 'x'.repeat(85));
    expect(await appendStepSummary(file, { ...section, cutTo: () => section.text }, limit)).toBe('note');
    expect(readFileSync(file, 'utf8')).toBe(`${'x'.repeat(85)}\n_left out_\n`);
    writeFileSync(file, 'x'.repeat(95));
    expect(await appendStepSummary(file, section, limit)).toBe('nothing');
    expect(await appendStepSummary(file, 'plain text', limit)).toBe('nothing');
    expect(statSync(file).size).toBe(95);
  });

  it('a file whose last line another tool left unended gets a line break first: no line of it is joined to ours', async () => {
    const dir = tmp();
    const out = join(dir, 'out');
    writeFileSync(out, 'earlier=kept'); // printf 'earlier=kept' >> "$GITHUB_OUTPUT"
    await appendKeyValues(out, { 'snapshot-id': 's1', task: 'a\nb' });
    expect(parseGithubFile(readFileSync(out, 'utf8'))).toEqual({
      earlier: 'kept',
      'snapshot-id': 's1',
      task: 'a\nb',
    });
    const summary = join(dir, 'summary');
    writeFileSync(summary, '# theirs');
    expect(await appendStepSummary(summary, '## ours\n')).toBe('whole');
    expect(readFileSync(summary, 'utf8')).toBe('# theirs\n## ours\n');
    writeFileSync(summary, 'x'.repeat(92));
    expect(await appendStepSummary(summary, '1234567\n', 100)).toBe('nothing');
    expect(readFileSync(summary, 'utf8')).toBe('x'.repeat(92));
    const path = join(dir, 'path');
    writeFileSync(path, '/their/bin');
    await appendPath(path, '/opt/bin');
    expect(readFileSync(path, 'utf8')).toBe('/their/bin\n/opt/bin\n');
  });

  it('appends to the step summary and the path file', async () => {
    const dir = tmp();
    await appendStepSummary(join(dir, 'summary'), '# one');
    await appendStepSummary(join(dir, 'summary'), '# two\n');
    expect(readFileSync(join(dir, 'summary'), 'utf8')).toBe('# one\n# two\n');
    await appendPath(join(dir, 'path'), '/opt/bin');
    expect(readFileSync(join(dir, 'path'), 'utf8')).toBe('/opt/bin\n');
    await expect(appendPath(join(dir, 'path'), '/a\nb')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('writes at most 10 annotations: 9 failed checks and one line counting the rest, each on one line', () => {
    const check = (i: number, ok = false): VerifyCheck => ({
      snapshotId: `s${i}`,
      runId: 'r',
      check: 'after-sha',
      ok,
      detail: `bad %\n${i}`,
    });
    expect(errorAnnotations([check(1, true)])).toEqual([]);
    const lines = errorAnnotations([check(0, true), ...Array.from({ length: 13 }, (_, i) => check(i + 1))]);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('::error title=agentgate verify%3A after-sha::snapshot s1: bad %25%0A1');
    expect(lines[9]).toMatch(/^::error title=agentgate verify::4 more failed checks/);
    expect(errorAnnotations(Array.from({ length: 10 }, (_, i) => check(i)))).toHaveLength(10);
    for (const line of lines) expect(line).not.toMatch(/[\r\n]/);
    expect(escapeData('a\r\nb%')).toBe('a%0D%0Ab%25');
  });
});
