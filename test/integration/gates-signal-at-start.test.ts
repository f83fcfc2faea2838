/**
 * A signal `gate` receives the moment its check starts (the check's own `kill $PPID`, a CI cancel
 * that lands then) is forwarded like any other: the verdict is recorded, not lost to a default
 * SIGTERM that ended us before we listened.
 */
import { describe, expect, it } from 'vitest';
import { GateResult } from '../../types/gate.js';
import { recordedCliRun } from '../helpers/cli.js';

describe('a signal at the very start of the check', () => {
  it('SIGTERM sent by the check as it starts: forwarded, and the verdict recorded (every time)', () => {
    const { cli } = recordedCliRun({ 'a.txt': 'a\n' });
    // A race: several calls, each of which must record its verdict.
    for (let i = 1; i <= 6; i++) {
      const res = cli(
        'gate',
        '--run',
        'r1',
        '--name',
        `t${i}`,
        '--json',
        '--',
        'sh',
        '-c',
        'kill -TERM $PPID; sleep 5',
      );
      expect(res.status, res.stderr).toBe(3);
      expect(GateResult.parse(res.json())).toMatchObject({
        verdict: 'fail',
        signal: 'SIGTERM',
        exitCode: null,
      });
    }
    expect(cli('gate', 'list', '--json').json() as unknown[]).toHaveLength(6);
  });
});
