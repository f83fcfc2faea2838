/** The small parts of hooks and the store budget: count-objects parsing, the hook log's rotation, the time budget. */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountHome } from '../../src/fs/home-dir.js';
import { parseCountObjects } from '../../src/git/parsers/count-objects.js';
import { withinBudget } from '../../src/hooks/budget.js';
import { appendHookLog, HOOK_LOG_MAX_BYTES } from '../../src/hooks/log.js';
import { resolveHome } from '../../src/store/paths.js';
import { tempDir } from '../helpers/repo.js';

describe('parseCountObjects', () => {
  it('reads count-objects -v into bytes', () => {
    const text = readFileSync(
      join(import.meta.dirname, '../../fixtures/git-output/count-objects-v.txt'),
      'utf8',
    );
    expect(parseCountObjects(text)).toEqual({
      loose: 6791,
      looseBytes: 27340 * 1024,
      packs: 2,
      packBytes: 9121 * 1024,
      garbageBytes: 4 * 1024,
    });
    expect(() => parseCountObjects('count: 1\n')).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
  });
});

describe('appendHookLog', () => {
  it('appends one line per call, line breaks escaped (not a space: told apart from one) and long lines cut', async () => {
    const file = join(tempDir('hooklog-'), 'logs', 'hooks.log');
    expect(await appendHookLog(file, 'one\ntwo')).toBeNull();
    expect(await appendHookLog(file, 'x'.repeat(10_000))).toBeNull();
    expect(await appendHookLog(file, 'session=c\r\nFAKE 2026 one two')).toBeNull();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[0]).toBe('one\\x0atwo');
    expect(lines[1]).toHaveLength(2000);
    expect(lines[2]).toBe('session=c\\x0d\\x0aFAKE 2026 one two');
    expect(lines).toHaveLength(4);
  });

  it('escapes control characters (a terminal escape in a session id does not run on cat) and cuts on a character', async () => {
    const file = join(tempDir('hooklog-'), 'hooks.log');
    expect(
      await appendHookLog(file, 'session=s\u001b[31mred\u0007 \u009b2J \u202eevil\ttab \ud83d.'),
    ).toBeNull();
    expect(await appendHookLog(file, `${'x'.repeat(1999)}😀`)).toBeNull();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[0]).toBe('session=s\\x1b[31mred\\x07 \\x9b2J \\u202eevil\\x09tab \\ud83d.');
    expect(lines[1]).toBe(`${'x'.repeat(1999)}😀`);
    expect(await appendHookLog(file, `${'x'.repeat(1999)}😀😀`)).toBeNull();
    expect(readFileSync(file, 'utf8').split('\n')[2]).toBe(`${'x'.repeat(1999)}😀`);
  });

  it('rotates past 1 MiB: the log stays bounded, the previous one kept as hooks.log.1', async () => {
    const file = join(tempDir('hooklog-'), 'hooks.log');
    writeFileSync(file, 'y'.repeat(HOOK_LOG_MAX_BYTES));
    expect(await appendHookLog(file, 'after rotation')).toBeNull();
    expect(readFileSync(file, 'utf8')).toBe('after rotation\n');
    expect(statSync(`${file}.1`).size).toBe(HOOK_LOG_MAX_BYTES);
  });

  it('says why it could not write instead of throwing', async () => {
    const notADir = join(tempDir('hooklog-'), 'file');
    writeFileSync(notADir, '');
    expect(await appendHookLog(join(notADir, 'hooks.log'), 'x')).toMatch(
      /could not write the hook log .*\((EEXIST|ENOTDIR)\)/,
    );
  });
});

describe('withinBudget', () => {
  it('returns the value in time; past the deadline aborts the signal and reports not done; errors pass through', async () => {
    expect(await withinBudget(1000, async () => 7)).toEqual({ done: true, value: 7 });
    let aborted = false;
    const late = await withinBudget(20, (signal) => {
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => {
          aborted = true;
          reject(new Error('stopped'));
        }),
      );
    });
    expect(late).toEqual({ done: false });
    expect(aborted).toBe(true);
    // Stopped before the deadline, so that it winds down by then: a value that still comes in time is kept.
    let stoppedWhile = true;
    const kept = await withinBudget(400, (signal) => {
      return new Promise((resolve) =>
        signal.addEventListener('abort', () => setTimeout(() => resolve(9), 20)),
      ).finally(() => (stoppedWhile = signal.aborted));
    });
    expect(kept).toEqual({ done: true, value: 9 });
    expect(stoppedWhile).toBe(true);
    await expect(withinBudget(1000, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});

describe('the home with HOME empty (HOME= agent)', () => {
  it('is the account`s own home directory, absolute: never `.agentgate` in the current directory', () => {
    const saved = { HOME: process.env.HOME, AGENTGATE_HOME: process.env.AGENTGATE_HOME };
    try {
      process.env.HOME = '';
      delete process.env.AGENTGATE_HOME;
      expect(accountHome()).toBe(userInfo().homedir);
      expect(resolveHome()).toBe(join(userInfo().homedir, '.agentgate'));
      process.env.HOME = 'relative/dir';
      expect(isAbsolute(resolveHome())).toBe(true);
    } finally {
      process.env.HOME = saved.HOME;
      process.env.AGENTGATE_HOME = saved.AGENTGATE_HOME;
    }
  });
});
