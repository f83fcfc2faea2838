/**
 * Which remote push and fetch go to, and what runs there, decided as git decides it (remote.c): a
 * URL that is also the name of a configured remote is that remote, checked as such; what git is
 * handed can never be taken by git for another remote's name; the hardened upload-pack and
 * receive-pack are chosen by where git goes after its rewrites; pushInsteadOf leaves a pushurl
 * alone; remote names with `/` or `+` work; a helper named with a leading digit is refused.
 * Planted programs leave a marker file; controls with plain git prove they are live.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, oracleEnv } from '../helpers/repo.js';
import { failsWith, machineCli, runIterations, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

/** A world, machine a with one run, and a directory for the markers planted programs leave. */
async function setup(): Promise<{ a: Machine; markers: string }> {
  w = world();
  const a = w.machine('a');
  await runIterations(a, 'r', 1);
  const markers = join(w.root, 'markers');
  mkdirSync(markers);
  return { a, markers };
}

/** An executable at `path` that leaves `markers/NAME` (its arguments in it) and exits with `status`. */
function planted(path: string, markers: string, name: string, status = 0): string {
  writeFileSync(path, `#!/bin/sh\necho "$*" >> '${join(markers, name)}'\nexit ${status}\n`, { mode: 0o755 });
  return path;
}

/** A bare repository whose pre-receive and update hooks leave `markers/hook`. */
function hookedRemote(path: string, markers: string): string {
  git(w.root, ['init', '-q', '--bare', path]);
  for (const hook of ['pre-receive', 'update']) planted(join(path, 'hooks', hook), markers, 'hook');
  return path;
}

const records = (repo: string) => git(repo, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/']);

describe('which remote, as git decides it', () => {
  it('a URL that is also a configured remote is that remote: its git:// URL with core.gitProxy is refused', async () => {
    const { a, markers } = await setup();
    git(a.dir, ['config', 'core.gitProxy', planted(join(w.root, 'gp.sh'), markers, 'proxy', 1)]);
    git(a.dir, ['config', 'remote.mirror:x.url', 'git://example.invalid/x']);
    await failsWith(a.share.fetch({ workspace: a.dir }, 'mirror:x'), 'REMOTE_UNSAFE');
    await failsWith(a.share.push({ workspace: a.dir }, 'mirror:x'), 'REMOTE_UNSAFE');
    // A remote helper by remote.<name>.vcs, with or without a url of its own.
    git(a.dir, ['config', 'remote.nick2:x.vcs', 'evil']);
    await failsWith(a.share.fetch({ workspace: a.dir }, 'nick2:x'), 'REMOTE_UNSAFE');
    git(a.dir, ['config', 'remote.nick3:x.url', w.origin]);
    git(a.dir, ['config', 'remote.nick3:x.vcs', 'evil']);
    await failsWith(a.share.push({ workspace: a.dir }, 'nick3:x'), 'REMOTE_UNSAFE');
    expect(readdirSync(markers)).toEqual([]);
    // Control: plain git takes mirror:x for that remote and runs the proxy.
    spawnSync('git', ['ls-remote', 'mirror:x'], { cwd: a.dir, env: oracleEnv() });
    expect(readdirSync(markers)).toEqual(['proxy']);
  });

  it("a remote whose url is another remote's name goes where git push goes (ssh), never to that remote", async () => {
    const { a, markers } = await setup();
    const hk = hookedRemote(join(w.root, 'hk.git'), markers);
    git(a.dir, ['config', 'remote.nick4:x.url', hk]);
    git(a.dir, ['remote', 'add', 'viahook', 'nick4:x']);
    const bin = join(w.root, 'bin');
    mkdirSync(bin);
    planted(join(bin, 'ssh'), markers, 'ssh', 255);
    const res = machineCli(a, ['push', '--remote', 'viahook', '--json'], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    });
    expect(readdirSync(markers)).toEqual(['ssh']);
    expect(records(hk)).toBe('');
    expect(res.json()).toMatchObject({ error: { code: 'REMOTE_NOT_FOUND' } });
  });

  it("an insteadOf rewrite to a repository on this machine: that repository's hooks do not run", async () => {
    const { a, markers } = await setup();
    const hq = hookedRemote(join(w.root, 'hq.git'), markers);
    git(a.dir, ['remote', 'set-url', 'origin', 'https://example.invalid/repo.git']);
    git(a.dir, ['config', `url.${hq}.insteadOf`, 'https://example.invalid/repo.git']);
    await a.share.push({ workspace: a.dir });
    expect(records(hq)).toContain('refs/agentgate/records/r/iteration-0');
    expect(readdirSync(markers)).toEqual([]);
    // Control: plain git push runs them.
    spawnSync('git', ['push', '-q', 'origin', 'HEAD:refs/heads/control'], { cwd: a.dir, env: oracleEnv() });
    expect(readdirSync(markers)).toEqual(['hook']);
  });

  it("pushInsteadOf rewrites a remote's url but not its pushurl, as git push does", async () => {
    const { a } = await setup();
    const [pu1, pu2, pu3] = ['pu1', 'pu2', 'pu3'].map((n) => join(w.root, `${n}.git`));
    for (const p of [pu1, pu2, pu3]) git(w.root, ['init', '-q', '--bare', p]);
    git(a.dir, ['remote', 'add', 'pu3', pu3]);
    git(a.dir, ['config', 'remote.pu3.pushurl', pu1]);
    git(a.dir, ['config', `url.${pu2}.pushInsteadOf`, pu1]);
    await a.share.push({ workspace: a.dir }, 'pu3');
    expect([records(pu1) !== '', records(pu2), records(pu3)]).toEqual([true, '', '']);
    // Control: git push goes to pu1 too; a remote whose url is pu1 (no pushurl) goes to pu2.
    git(a.dir, ['push', '-q', 'pu3', 'HEAD:refs/heads/control']);
    expect(git(pu1, ['for-each-ref', '--format=%(refname)', 'refs/heads/'])).toBe('refs/heads/control');
    git(a.dir, ['remote', 'add', 'pv', pu1]);
    await a.share.push({ workspace: a.dir }, 'pv');
    expect(records(pu2)).not.toBe('');
  });

  it('remote names git accepts with "/" or "+" are remotes', async () => {
    const { a } = await setup();
    git(a.dir, ['remote', 'add', 'team/up', w.origin]);
    git(a.dir, ['remote', 'add', 'a+b', w.origin]);
    expect((await a.share.push({ workspace: a.dir }, 'team/up')).remote).toBe('team/up');
    const b = w.machine('b');
    git(b.dir, ['remote', 'add', 'team/up', w.origin]);
    git(b.dir, ['remote', 'add', 'a+b', w.origin]);
    expect(await b.share.fetch({ workspace: b.dir }, 'a+b')).toMatchObject({ remote: 'a+b', runs: ['r'] });
    expect(await b.share.fetch({ workspace: b.dir }, 'team/up')).toMatchObject({ remote: 'team/up' });
  });

  it('a remote helper named with a leading digit is refused before git runs, given or by a rewrite', async () => {
    const { a } = await setup();
    await failsWith(a.share.fetch({ workspace: a.dir }, '1x::foo'), 'REMOTE_UNSAFE');
    git(a.dir, ['config', 'url.1x::.insteadOf', 'qq:']);
    await failsWith(a.share.fetch({ workspace: a.dir }, 'qq:repo'), 'REMOTE_UNSAFE');
    await failsWith(a.share.push({ workspace: a.dir }, 'qq:repo'), 'REMOTE_UNSAFE');
  });

  it('a URL git would take for a legacy .git/remotes or .git/branches file is refused', async () => {
    const { a } = await setup();
    for (const dir of ['remotes', 'branches']) {
      mkdirSync(join(a.dir, '.git', dir), { recursive: true });
      writeFileSync(join(a.dir, '.git', dir, `${dir}:x`), `${dir === 'remotes' ? 'URL: ' : ''}${w.origin}\n`);
      await failsWith(a.share.fetch({ workspace: a.dir }, `${dir}:x`), 'REMOTE_UNSAFE');
    }
    // Control: plain git takes them for remotes.
    expect(git(a.dir, ['ls-remote', 'remotes:x', 'refs/heads/main'])).toContain('refs/heads/main');
  });

  it("import reads the bundle given: the user's insteadOf rules do not send git to another", async () => {
    const { a } = await setup();
    const b = w.machine('b');
    await runIterations(b, 'other', 1);
    const decoy = join(w.root, 'decoy.bundle');
    await b.share.export({ workspace: b.dir }, decoy);
    const bundle = join(w.root, 'given.bundle');
    await a.share.export({ workspace: a.dir }, bundle);
    const c = w.machine('c');
    git(c.dir, ['config', `url.${decoy}.insteadOf`, w.root]);
    expect(await c.share.import(c.dir, bundle)).toMatchObject({ runs: ['r'] });
  });

  it('a git:// remote nobody answers at is REMOTE_NOT_FOUND, as on every other transport', async () => {
    const { a } = await setup();
    await failsWith(a.share.push({ workspace: a.dir }, 'git://127.0.0.1:1/x.git'), 'REMOTE_NOT_FOUND');
    await failsWith(a.share.fetch({ workspace: a.dir }, 'git://127.0.0.1:1/x.git'), 'REMOTE_NOT_FOUND');
  });
});
