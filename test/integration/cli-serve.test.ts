/**
 * `serve`: the built CLI as one long-lived child speaking JSON lines. Requests run exactly as the
 * CLI commands do with --json (same results, same error codes), one response line per request
 * line in order, malformed and oversized lines refused with INVALID_REQUEST, unknown commands with
 * USAGE, and end of input ends the process cleanly (exit 0).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServeResponse, SERVE_MAX_LINE_BYTES } from '../../types/serve.js';
import { BeforeState, Snapshot } from '../../types/snapshot.js';
import { VerifyReport } from '../../types/verify.js';
import { CLI, runCli } from '../helpers/cli.js';
import { head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

interface Served {
  status: number | null;
  stderr: string;
  responses: ServeResponse[];
}

/** Starts `serve`, writes every line (then closes stdin), and parses each stdout line as a response. */
function serveLines(
  lines: (string | Buffer)[],
  args: string[],
  home: string,
  cwd: string | undefined = undefined,
): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', ...args], {
      cwd,
      env: { ...process.env, AGENTGATE_HOME: home, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (status) => {
      const text = Buffer.concat(out).toString('utf8');
      expect(text === '' || text.endsWith('\n')).toBe(true);
      const responses = text
        .split('\n')
        .filter(Boolean)
        .map((l) => ServeResponse.parse(JSON.parse(l)));
      resolve({ status, stderr: Buffer.concat(err).toString('utf8'), responses });
    });
    for (const line of lines) child.stdin.write(line);
    child.stdin.end();
  });
}

const req = (
  id: string | number,
  command: string,
  options: Record<string, unknown> = {},
  args: string[] = [],
): string => `${JSON.stringify({ id, command, args, options })}\n`;

function result(r: ServeResponse | undefined): unknown {
  if (!r || !('result' in r)) throw new Error(`expected a result, got ${JSON.stringify(r)}`);
  return r.result;
}
function errorCode(r: ServeResponse | undefined): string {
  if (!r || !('error' in r)) throw new Error(`expected an error, got ${JSON.stringify(r)}`);
  return r.error.code;
}

describe('serve (JSON lines over stdio)', () => {
  it('answers before/after/show/patch/verify in order with the CLI --json documents, then ends at EOF', async () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir('agentgate-home-');
    const first = await serveLines([req(1, 'before', { run: 'srv' })], ['-C', dir], home);
    expect(first.status).toBe(0);
    expect(first.stderr).toBe('');
    const b = BeforeState.parse(result(first.responses[0]));
    expect(first.responses[0]?.id).toBe(1);
    expect(b.sha).toBe(head(dir));

    writeFiles(dir, { 'f.txt': 'changed "quoted" \\ line\n', 'new é.txt': 'added\n' });
    const second = await serveLines(
      [req('a', 'after', { run: 'srv', iteration: 1, task: 'serve task', workspace: dir })],
      [],
      home,
    );
    const snap = Snapshot.parse(result(second.responses[0]));
    expect(snap).toMatchObject({ runId: 'srv', iteration: 1, filesChanged: 2, beforeSha: b.sha });

    const third = await serveLines(
      [
        req('s', 'show', {}, [snap.id]),
        req('p', 'patch', {}, [snap.id]),
        req('v', 'verify', { run: 'srv' }),
        req('l', 'list', { run: 'srv' }),
      ],
      ['-C', dir],
      home,
    );
    expect(third.status).toBe(0);
    expect(third.responses.map((r) => r.id)).toEqual(['s', 'p', 'v', 'l']);
    expect(Snapshot.parse(result(third.responses[0])).id).toBe(snap.id);
    expect(result(third.responses[1])).toEqual({
      id: snap.id,
      diff: readFileSync(snap.patchPath as string, 'utf8'),
    });
    expect(VerifyReport.parse(result(third.responses[2])).ok).toBe(true);
    expect(result(third.responses[3])).toHaveLength(1);
  });

  it('refuses malformed, oversized and unknown requests with codes, and keeps serving', async () => {
    const dir = repoWithCommit();
    const home = tempDir('agentgate-home-');
    const huge = Buffer.alloc(SERVE_MAX_LINE_BYTES + 10, 'x');
    const served = await serveLines(
      [
        'not json\n',
        '\n',
        '{"id": 2}\n',
        '{"id": 3, "command": "before", "extra": 1}\n',
        req(4, 'frobnicate'),
        req(5, 'serve'),
        req(6, 'before', { 'no-such-option': 'x' }),
        req(7, 'before'),
        req(8, 'after', { run: 'r', iteration: 'x' }),
        req(9, 'show', {}, ['../etc']),
        req(10, 'before', { help: true }),
        req(13, 'before', { version: true }),
        // An own `__proto__` option (JSON.parse makes one): refused, not dropped unseen.
        '{"id": 14, "command": "list", "options": {"__proto__": {"run": "x"}}}\n',
        Buffer.concat([huge, Buffer.from('\n')]),
        req(11, 'before', { run: 'ok' }),
        req(12, 'runs').trimEnd(), // the last line may lack its newline
      ],
      ['-C', dir],
      home,
    );
    expect(served.status).toBe(0);
    expect(served.stderr).toBe('');
    const byId = served.responses.map((r) => [r.id, 'error' in r ? r.error.code : 'ok']);
    expect(byId).toEqual([
      [null, 'INVALID_REQUEST'],
      [2, 'INVALID_REQUEST'],
      [3, 'INVALID_REQUEST'],
      [4, 'USAGE'],
      [5, 'USAGE'],
      [6, 'USAGE'],
      [7, 'USAGE'],
      [8, 'INVALID_ARGUMENT'],
      [9, 'INVALID_ID'],
      [10, 'USAGE'],
      [13, 'USAGE'],
      [14, 'INVALID_REQUEST'],
      [null, 'INVALID_REQUEST'],
      [11, 'ok'],
      [12, 'ok'],
    ]);
    expect(errorCode(served.responses[0])).toBe('INVALID_REQUEST');
    // The same details the command line prints with --json.
    const unsafe = served.responses.find((r) => r.id === 9);
    const cli = runCli(['show', '../etc', '--json', '-C', dir], { env: { AGENTGATE_HOME: home } }).json();
    expect(unsafe && 'error' in unsafe ? unsafe.error : null).toEqual((cli as { error: unknown }).error);
  });

  it('streams a patch larger than one read chunk inside one response line, and reports a failed verify with exitCode 1', async () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir('agentgate-home-');
    const big = Array.from({ length: 8000 }, (_, i) => `line ${i} "q" \\ é€😀 \u2028\t\n`).join('');
    const run = async (lines: string[]) => serveLines(lines, ['-C', dir], home);
    await run([req(1, 'before', { run: 'big' })]);
    writeFiles(dir, { 'big.txt': big });
    const snap = Snapshot.parse(
      result((await run([req(2, 'after', { run: 'big', iteration: 1 })])).responses[0]),
    );
    const artifact = readFileSync(snap.patchPath as string, 'utf8');
    expect(artifact.length).toBeGreaterThan(128 * 1024);
    const patched = await run([req(3, 'patch', {}, [snap.id])]);
    expect(patched.responses).toHaveLength(1);
    expect(result(patched.responses[0])).toEqual({ id: snap.id, diff: artifact });
    writeFileSync(snap.patchPath as string, artifact.replace('line 1 ', 'line one '));
    const verified = (await run([req(4, 'verify', {}, [snap.id])])).responses[0];
    expect(verified).toMatchObject({ id: 4, exitCode: 3 });
    expect(VerifyReport.parse(result(verified)).ok).toBe(false);
  });

  it('takes a list for a repeatable option, as the command line takes the option repeated, and for no other', async () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir('agentgate-home-');
    const cli = (args: string[]) => runCli(['-C', dir, '--json', ...args], { env: { AGENTGATE_HOME: home } });
    expect(cli(['before', '--run', 'r1']).status).toBe(0);
    writeFiles(dir, { 'f.txt': 'changed\n' });
    expect(cli(['after', '--run', 'r1', '--iteration', '1']).status).toBe(0);
    const passes = ['--', process.execPath, '-e', ''];
    expect(cli(['gate', '--run', 'r1', '--name', 'test', ...passes]).status).toBe(0);
    const verify = (id: number, gates: unknown) => req(id, 'verify', { run: 'r1', 'require-gate': gates });
    const served = await serveLines(
      [
        verify(1, ['test', 'lint']),
        verify(2, ['lint', 'test']),
        verify(3, ['test']),
        verify(4, []),
        req(5, 'verify', { run: ['r1', 'r2'] }),
        req(6, 'runs', { json: ['x'] }),
        verify(7, ['test', 7]),
      ],
      ['-C', dir],
      home,
    );
    expect(served.status).toBe(0);
    const outcome = (r: ServeResponse | undefined) =>
      r === undefined ? 'none' : 'error' in r ? r.error.code : (r.exitCode ?? 0);
    expect(served.responses.map(outcome)).toEqual([
      3,
      3,
      0,
      0,
      'INVALID_REQUEST',
      'INVALID_REQUEST',
      'INVALID_REQUEST',
    ]);
    // The same report as the option given twice on the command line.
    const twice = cli(['verify', '--run', 'r1', '--require-gate', 'test', '--require-gate', 'lint']);
    expect(twice.status).toBe(3);
    expect(result(served.responses[0])).toEqual(twice.json());

    expect(cli(['gate', '--run', 'r1', '--name', 'lint', ...passes]).status).toBe(0);
    const both = await serveLines([verify(8, ['test', 'lint'])], ['-C', dir], home);
    expect(both.responses.map(outcome)).toEqual([0]);
  });

  it('refuses the agent hooks (they read stdin and answer on stdout), judges numbers as the command line does, and warns on stderr as it does', async () => {
    const dir = repoWithCommit();
    const home = tempDir('agentgate-home-');
    expect(
      runCli(['before', '--run', 'r', '--json', '-C', dir], { env: { AGENTGATE_HOME: home } }).status,
    ).toBe(0);
    writeFileSync(join(home, 'runs', 'broken.json'), '{bad');
    const served = await serveLines(
      [
        req(1, 'hook claude-code'),
        req(2, 'hook gemini'),
        req(3, 'hook cline'),
        req(4, 'after', { run: 'r', iteration: 1.5 }),
        req(5, 'after', { run: 'r', iteration: -1 }),
        req(6, 'hook install', { agent: 'nope' }),
        req(7, 'runs'),
      ],
      ['-C', dir],
      home,
    );
    expect(served.status).toBe(0);
    expect(served.responses.map((r) => [r.id, 'error' in r ? r.error.code : 'ok'])).toEqual([
      [1, 'USAGE'],
      [2, 'USAGE'],
      [3, 'USAGE'],
      [4, 'INVALID_ARGUMENT'],
      [5, 'INVALID_ARGUMENT'],
      [6, 'USAGE'],
      [7, 'ok'],
    ]);
    // The listing is partial, and says so where `runs --json` says it.
    const cli = runCli(['runs', '--json', '-C', dir], { env: { AGENTGATE_HOME: home } });
    expect(result(served.responses[6])).toEqual(cli.json());
    const warnings = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith('{"warnings"'))
        .map((l) => JSON.parse(l) as { warnings: Array<{ code: string }> });
    expect(warnings(served.stderr).map((w) => w.warnings.map((x) => x.code))).toEqual([['STORE_CORRUPT']]);
    expect(warnings(served.stderr)).toEqual(warnings(cli.stderr));
  });

  it("takes an inherited option set to false as left out: serve's own -C and --home stay its defaults", async () => {
    const dir = repoWithCommit({ 'f.txt': 'serve -C\n' });
    const cwd = repoWithCommit({ 'g.txt': 'serve cwd\n' });
    const envHome = tempDir('agentgate-home-');
    const ownHome = tempDir('agentgate-home-');
    const off = { workspace: false, home: false, 'artifacts-dir': false, config: false };
    const served = await serveLines(
      [req(1, 'before', { run: 'r', ...off }), req(2, 'checkpoint track', off)],
      ['-C', dir, '--home', ownHome],
      envHome,
      cwd,
    );
    expect(served.responses.map((r) => ('error' in r ? r.error.code : 'ok'))).toEqual(['ok', 'ok']);
    expect(BeforeState.parse(result(served.responses[0])).sha).toBe(head(dir));
    expect(existsSync(join(ownHome, 'runs', 'r.json'))).toBe(true);
    expect(existsSync(join(ownHome, 'checkpoints'))).toBe(true);
    expect(readdirSync(envHome)).toEqual([]);
  });

  it('stops after a gate whose check got its SIGTERM: the verdict answered, no further request run, exit 143', async () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir('agentgate-home-');
    const cli = (args: string[]) => runCli(['-C', dir, '--json', ...args], { env: { AGENTGATE_HOME: home } });
    expect(cli(['before', '--run', 'r1']).status).toBe(0);
    writeFiles(dir, { 'f.txt': 'changed\n' });
    expect(cli(['after', '--run', 'r1', '--iteration', '1']).status).toBe(0);
    const child = spawn(process.execPath, [CLI, 'serve', '-C', dir], {
      env: { ...process.env, AGENTGATE_HOME: home, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      const closed = new Promise<[number | null, string | null]>((resolve) =>
        child.on('close', (code, signal) => resolve([code, signal])),
      );
      // The check says it started (its stdout is serve's stderr): then serve gets the signal.
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        if (d.includes('check-started')) child.kill('SIGTERM');
      });
      const check = ['sh', '-c', 'echo check-started; sleep 30'];
      child.stdin.write(req(1, 'gate', { run: 'r1', name: 'slow', isolated: true }, check));
      child.stdin.write(req(2, 'checkpoint track'));
      // stdin stays open: serve must stop on its own.
      expect(await closed).toEqual([143, null]);
      const responses = stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => ServeResponse.parse(JSON.parse(l)));
      expect(responses).toHaveLength(1);
      expect(result(responses[0])).toMatchObject({ verdict: 'fail', signal: 'SIGTERM' });
      expect(existsSync(join(home, 'checkpoints'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it("refuses a request naming serve's own stdin or stdout as a file: the requests after it are read, the answers stay JSON lines", async () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir('agentgate-home-');
    expect(runCli(['before', '--run', 'own', '-C', dir, '--home', home]).status).toBe(0);
    writeFiles(dir, { 'f.txt': 'changed\n' });
    expect(runCli(['after', '--run', 'own', '--iteration', '1', '-C', dir, '--home', home]).status).toBe(0);
    const served = await serveLines(
      [
        // Read as a config file, /dev/stdin took every request after it, which were never answered.
        req(1, 'runs', { config: '/dev/stdin' }),
        // Written as a file, the report or bundle went into the answers without an id.
        req(2, 'report', { format: 'md', output: '/proc/self/fd/1' }),
        req(3, 'export', { output: '/dev/stdout' }),
        req(4, 'import', {}, ['/dev/stdin']),
        req(5, 'runs'),
        // A gate's command line is its own: the check reads and writes its own stdio.
        req(6, 'gate', { run: 'own', name: 'lint', iteration: 1 }, ['cat', '/dev/stdin']),
      ],
      ['-C', dir],
      home,
    );
    expect(served.status).toBe(0);
    expect(served.responses.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(served.responses.slice(0, 4).map(errorCode)).toEqual(Array(4).fill('INVALID_REQUEST'));
    expect(
      served.responses.slice(0, 4).map((r) => ('error' in r ? r.error.details?.argument : null)),
    ).toEqual(['options.config', 'options.output', 'options.output', 'args.0']);
    expect(result(served.responses[4])).toHaveLength(1);
    expect(
      served.responses[5] && 'error' in served.responses[5] ? served.responses[5].error.code : 'ran',
    ).not.toBe('INVALID_REQUEST');
  });

  it('reads half a surrogate pair as the command line reads a byte that is not UTF-8: no branch, file or record under another name', async () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir('agentgate-home-');
    const out = tempDir('agentgate-out-');
    expect(runCli(['before', '--run', 'half', '-C', dir, '--home', home]).status).toBe(0);
    writeFiles(dir, { 'f.txt': 'changed\n' });
    expect(runCli(['after', '--run', 'half', '--iteration', '1', '-C', dir, '--home', home]).status).toBe(0);
    const served = await serveLines(
      [
        // git got "b\uFFFD" (the only UTF-8 it has) while the record said "b\ud800".
        req(1, 'before', { run: 'half2', branch: 'b\ud800' }),
        // The report went to "o\uFFFD.html" while the answer named "o\udc80.html".
        req(2, 'report', { run: 'half', format: 'html', output: join(out, 'o\udc80.html') }),
      ],
      ['-C', dir],
      home,
    );
    expect(served.responses.map(errorCode)).toEqual(['INVALID_ARGUMENT', 'INVALID_ARGUMENT']);
    expect(readdirSync(out)).toEqual([]);
    const branches = spawnSync('git', ['for-each-ref', '--format=%(refname)', 'refs/heads/'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(branches.stdout.trim().split('\n')).toEqual(['refs/heads/main']);
  });

  it('answers trace of a path holding a NUL byte (which no command line can give) with PATH_NOT_FOUND, not INTERNAL', async () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const served = await serveLines(
      [req(1, 'trace', {}, ['f\0.txt']), req(2, 'trace', { rev: 'HEAD' }, ['\0'])],
      ['-C', dir],
      tempDir('agentgate-home-'),
    );
    expect(served.responses.map(errorCode)).toEqual(['PATH_NOT_FOUND', 'PATH_NOT_FOUND']);
  });

  it('answers many streamed results (patch, checkpoint diff) without piling listeners on its output: stderr stays empty', async () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir('agentgate-home-');
    const cli = (args: string[]) => runCli(['-C', dir, '--json', ...args], { env: { AGENTGATE_HOME: home } });
    expect(cli(['before', '--run', 'many']).status).toBe(0);
    expect(cli(['checkpoint', 'track']).status).toBe(0);
    writeFiles(dir, { 'f.txt': 'changed\n' });
    const snap = Snapshot.parse(cli(['after', '--run', 'many', '--iteration', '1']).json());
    const hash = (cli(['checkpoint', 'list']).json() as Array<{ hash: string }>)[0]?.hash as string;
    const lines: string[] = [];
    for (let i = 0; i < 6; i++)
      lines.push(req(`p${i}`, 'patch', {}, [snap.id]), req(`d${i}`, 'checkpoint diff', {}, [hash]));
    const served = await serveLines(lines, ['-C', dir], home);
    expect(served.status).toBe(0);
    expect(served.responses).toHaveLength(12);
    expect(served.responses.every((r) => 'result' in r)).toBe(true);
    // A long-lived serve must not leak: Node warns (MaxListenersExceededWarning) once 11 are piled up.
    expect(served.stderr).toBe('');
  });

  it('writes U+0085, U+2028 and U+2029 of a task, an id or a patch escaped: a reader splitting lines as Python does gets one answer per line', () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir('agentgate-home-');
    const odd = 'a\u2028b\u2029c\u0085d';
    runCli(['-C', dir, 'before', '--run', 'seps'], { env: { AGENTGATE_HOME: home } });
    writeFiles(dir, { 'f.txt': `${odd}\n` });
    const after = runCli(['-C', dir, 'after', '--run', 'seps', '--iteration', '1', '--task', odd, '--json'], {
      env: { AGENTGATE_HOME: home },
    });
    const snap = Snapshot.parse(after.json());
    const input = [req(odd, 'show', {}, [snap.id]), req(2, 'patch', {}, [snap.id]), req(3, 'list', {})].join(
      '',
    );
    const res = spawnSync(process.execPath, [CLI, 'serve', '-C', dir], {
      input,
      env: { ...process.env, AGENTGATE_HOME: home },
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).not.toMatch(/[\u0085\u2028\u2029]/);
    // str.splitlines() in Python breaks at these too, besides \n, \r, \v, \f and \x1c-\x1e.
    // eslint-disable-next-line no-control-regex -- the separators splitlines() breaks at
    const lines = res.stdout.split(/\r\n|[\n\r\v\f\x1c-\x1e\u0085\u2028\u2029]/).filter(Boolean);
    const answers = lines.map((l) => ServeResponse.parse(JSON.parse(l)));
    expect(answers.map((a) => a.id)).toEqual([odd, 2, 3]);
    expect(result(answers[0])).toMatchObject({ id: snap.id, task: odd });
    expect(result(answers[1])).toMatchObject({ diff: expect.stringContaining(`+${odd}\n`) });
  });

  it('ends cleanly on an empty input', async () => {
    const served = await serveLines([], [], tempDir('agentgate-home-'));
    expect(served).toEqual({ status: 0, stderr: '', responses: [] });
  });
});
