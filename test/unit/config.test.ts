import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigInvalidError } from '../../src/errors.js';
import { loadConfig, resolveSettings } from '../../src/store/config.js';
import { tempHome } from '../helpers/store-fixtures.js';

let home: string;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const noEnv: NodeJS.ProcessEnv = {};

async function configError(promise: Promise<unknown>): Promise<ConfigInvalidError> {
  const error = (await promise.catch((e: unknown) => e)) as ConfigInvalidError;
  expect(error.code).toBe('CONFIG_INVALID');
  return error;
}

describe('defaults', () => {
  it('a missing default config file gives every default', async () => {
    expect(await loadConfig({ home })).toEqual({});
    expect(await resolveSettings({ home, env: noEnv })).toEqual({
      home,
      configFile: null,
      artifactsDir: join(home, 'artifacts'),
      identity: { name: 'agentgate', email: 'agentgate@localhost' },
      onDirty: 'wip-commit',
      gitTimeoutMs: 120_000,
      lockTimeoutMs: 30_000,
      checkpoints: { maxFileSizeBytes: 10 * 1024 * 1024, keep: 100, maxStoreBytes: 2 * 1024 ** 3 },
      hooks: { timeoutMs: 5000, recordPrompts: false },
      report: { maxFileDiffBytes: 512 * 1024, maxTotalDiffBytes: 20 * 1024 * 1024 },
      sharing: { includeGateLogs: false },
    });
  });

  it('an empty config file is the same as none', async () => {
    writeFileSync(join(home, 'config.yaml'), '# nothing yet\n');
    expect(await loadConfig({ home })).toEqual({});
  });
});

describe('values from <home>/config.yaml', () => {
  it('reads every key and resolves paths against the config file directory', async () => {
    writeFileSync(
      join(home, 'config.yaml'),
      [
        'artifactsDir: out/artifacts',
        'identity: { name: Bot, email: bot@example.com }',
        'onDirty: error',
        'gitTimeoutMs: 5000',
        'lockTimeoutMs: 700',
        'checkpoints:',
        '  maxFileSizeBytes: 1024',
        '  keep: 3',
        '  maxStoreBytes: 1000000',
        'hooks:',
        '  timeoutMs: 250',
        '  recordPrompts: true',
        'report:',
        '  maxFileDiffBytes: 2048',
        '  maxTotalDiffBytes: 0',
        'sharing:',
        '  includeGateLogs: true',
      ].join('\n'),
    );
    const settings = await resolveSettings({ home, env: noEnv });
    expect(settings).toMatchObject({
      configFile: join(home, 'config.yaml'),
      artifactsDir: join(home, 'out', 'artifacts'),
      identity: { name: 'Bot', email: 'bot@example.com' },
      onDirty: 'error',
      gitTimeoutMs: 5000,
      lockTimeoutMs: 700,
      checkpoints: { maxFileSizeBytes: 1024, keep: 3, maxStoreBytes: 1_000_000 },
      hooks: { timeoutMs: 250, recordPrompts: true },
      report: { maxFileDiffBytes: 2048, maxTotalDiffBytes: 0 },
      sharing: { includeGateLogs: true },
    });
  });

  it('expands ~ in paths', async () => {
    writeFileSync(join(home, 'config.yaml'), 'artifactsDir: ~/agentgate-artifacts\n');
    expect((await loadConfig({ home })).artifactsDir).toBe(join(homedir(), 'agentgate-artifacts'));
  });
});

describe('artifacts directory precedence', () => {
  beforeEach(() => writeFileSync(join(home, 'config.yaml'), 'artifactsDir: /from/config\n'));

  it('explicit option > $AGENTGATE_ARTIFACTS_DIR > config > <home>/artifacts', async () => {
    const env = { AGENTGATE_ARTIFACTS_DIR: '/from/env' };
    expect((await resolveSettings({ home, env, artifactsDir: '/from/option' })).artifactsDir).toBe(
      '/from/option',
    );
    expect((await resolveSettings({ home, env })).artifactsDir).toBe('/from/env');
    expect((await resolveSettings({ home, env: { AGENTGATE_ARTIFACTS_DIR: '' } })).artifactsDir).toBe(
      '/from/config',
    );
    rmSync(join(home, 'config.yaml'));
    expect((await resolveSettings({ home, env: noEnv })).artifactsDir).toBe(join(home, 'artifacts'));
  });

  it('relative explicit and environment paths resolve against the working directory', async () => {
    const cwd = join(home, 'cwd');
    expect((await resolveSettings({ home, cwd, env: noEnv, artifactsDir: 'opt' })).artifactsDir).toBe(
      join(cwd, 'opt'),
    );
    expect((await resolveSettings({ home, cwd, env: { AGENTGATE_ARTIFACTS_DIR: 'env' } })).artifactsDir).toBe(
      join(cwd, 'env'),
    );
  });

  it('explicit options beat the config file for the other settings too', async () => {
    const settings = await resolveSettings({
      home,
      env: noEnv,
      onDirty: 'error',
      gitTimeoutMs: 1,
      lockTimeoutMs: 2,
    });
    expect(settings).toMatchObject({ onDirty: 'error', gitTimeoutMs: 1, lockTimeoutMs: 2 });
  });
});

describe('--config FILE', () => {
  it('is read instead of <home>/config.yaml, relative to the working directory, with paths relative to itself', async () => {
    mkdirSync(join(home, 'etc'));
    writeFileSync(join(home, 'etc', 'agentgate.yml'), 'artifactsDir: ../art\nonDirty: error\n');
    writeFileSync(join(home, 'config.yaml'), 'onDirty: wip-commit\n');
    const settings = await resolveSettings({ home, cwd: home, configFile: 'etc/agentgate.yml', env: noEnv });
    expect(settings).toMatchObject({
      configFile: join(home, 'etc', 'agentgate.yml'),
      artifactsDir: join(home, 'art'),
      onDirty: 'error',
    });
  });

  it('a missing explicit config file is CONFIG_INVALID naming it', async () => {
    const missing = join(home, 'missing.yaml');
    const error = await configError(loadConfig({ home, configFile: missing }));
    expect(error.details.path).toBe(missing);
    expect(error.message).toContain(missing);
  });
});

describe('invalid files are CONFIG_INVALID naming the file, the key and the problem', () => {
  const cases: Array<[string, string, string | null, string]> = [
    ['a value outside an enum', 'onDirty: sometimes\n', 'onDirty', 'expected one of wip-commit|error'],
    ['an unknown key (typo)', 'ondirty: error\n', 'ondirty', 'unknown key'],
    ['an unknown nested key', 'checkpoints:\n  kep: 3\n', 'checkpoints.kep', 'unknown key'],
    ['a wrong type', 'gitTimeoutMs: soon\n', 'gitTimeoutMs', 'expected number, got string "soon"'],
    [
      'a non-integer',
      'checkpoints:\n  keep: 1.5\n',
      'checkpoints.keep',
      'expected an integer, got 1.5 (not an integer)',
    ],
    [
      'a flag that is not a boolean',
      'sharing:\n  includeGateLogs: yes please\n',
      'sharing.includeGateLogs',
      'expected true or false, got string "yes please"',
    ],
    ['a non-positive number', 'lockTimeoutMs: 0\n', 'lockTimeoutMs', 'must be > 0'],
    ['a missing nested value', 'identity:\n  name: Bot\n', 'identity.email', 'missing (expected string)'],
    ['an empty string', 'artifactsDir: ""\n', 'artifactsDir', 'must not be empty'],
    ['a list at the top', '- a\n- b\n', null, 'expected a mapping'],
    ['broken yaml', 'onDirty: [error\n', null, 'line'],
    ['a duplicated key', 'onDirty: error\nonDirty: wip-commit\n', null, 'unique'],
  ];
  it.each(cases)('%s', async (_label, text, key, problem) => {
    const file = join(home, 'config.yaml');
    writeFileSync(file, text);
    const error = await configError(loadConfig({ home }));
    expect(error.message.startsWith(`${file}: `)).toBe(true);
    if (key !== null) expect(error.message).toContain(`${file}: ${key}: ${problem}`);
    else expect(error.message).toContain(problem);
    expect(error.details.path).toBe(file);
  });

  // What git refuses (a name of spaces and punctuation only) or would commit changed (`<`, `>`, a newline dropped).
  it.each([
    ['name: "<>", email: x@y', 'identity.name'],
    ['name: " ", email: x@y', 'identity.name'],
    ['name: "..", email: x@y', 'identity.name'],
    ['name: "a\\nb", email: x@y', 'identity.name'],
    ['name: "a\\u0000b", email: x@y', 'identity.name'],
    ['name: Bot, email: "x>y"', 'identity.email'],
    ['name: Bot, email: "<x@y>"', 'identity.email'],
    ['name: Bot, email: "\\t"', 'identity.email'],
  ])('identity { %s } names %s', async (fields, key) => {
    writeFileSync(join(home, 'config.yaml'), `identity: { ${fields} }\n`);
    const error = await configError(loadConfig({ home }));
    expect(new Set((error.details.issues as Array<{ key: string }>).map((i) => i.key))).toEqual(
      new Set([key]),
    );
  });

  it('an identity git keeps as written passes', async () => {
    const identity = { name: "J. O'Neil, Jr.", email: 'j.o+bot@example.com' };
    writeFileSync(join(home, 'config.yaml'), `identity: ${JSON.stringify(identity)}\n`);
    expect(await loadConfig({ home })).toEqual({ identity });
  });

  it('reports every bad key at once', async () => {
    writeFileSync(join(home, 'config.yaml'), 'onDirty: maybe\ngitTimeoutMs: -5\n');
    const error = await configError(loadConfig({ home }));
    expect((error.details.issues as Array<{ key: string }>).map((i) => i.key)).toEqual([
      'onDirty',
      'gitTimeoutMs',
    ]);
  });

  it('an unreadable default config file (a directory) is CONFIG_INVALID, not silently ignored', async () => {
    mkdirSync(join(home, 'config.yaml'));
    await configError(loadConfig({ home }));
  });
});
