import { isAbsolute, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import {
  BundleInvalidError,
  GitFailedError,
  InvalidArgumentError,
  RemoteNotFoundError,
  UnsafeRemoteError,
} from '../errors.js';
import { parseConfigEntries } from './hardening.js';
import { runGit, type GitOptions } from './runner.js';

/**
 * Only the file, git, ssh and https transports, whatever the repository's config says: a remote
 * helper (`ext::`, `fd::`, ...) runs a program, `http` is plain text. These `-c` pairs go on every
 * call that talks to a remote or a bundle, and outrank `url.<base>.insteadOf` rewrites too. The
 * repository's own config cannot name a program for the transport either: ssh is plain `ssh`,
 * no credential helper, and upload-pack / receive-pack are given on the command line.
 */
export const TRANSPORT_CONFIG: readonly string[] = [
  'protocol.allow=never',
  'protocol.file.allow=always',
  'protocol.git.allow=always',
  'protocol.ssh.allow=always',
  'protocol.https.allow=always',
  'core.sshCommand=ssh',
  'ssh.variant=ssh',
  'credential.helper=',
  'core.askPass=',
  'fetch.writeCommitGraph=false',
  'fetch.recurseSubmodules=false',
  'submodule.recurse=false',
  'push.recurseSubmodules=no',
  'push.gpgSign=false',
];

const SCHEMES = new Set(['https', 'ssh', 'git', 'file', 'git+ssh', 'ssh+git']);

export type RemoteKind = 'local' | 'file' | 'ssh' | 'git' | 'https';

/**
 * Classifies a remote URL the way git does (helper `x::`, `scheme://`, scp-like `host:path`, local
 * path) and refuses every transport but file, git, ssh and https before git runs. Throws REMOTE_UNSAFE.
 */
export function checkRemoteUrl(url: string): RemoteKind {
  const refuse = (why: string): never => {
    throw new UnsafeRemoteError(
      `remote ${JSON.stringify(url.slice(0, 200))} is refused: ${why}; use a file path or a file://, git://, ssh:// or https:// URL`,
      {
        details: { url: url.slice(0, 500) },
      },
    );
  };
  // eslint-disable-next-line no-control-regex
  if (url === '' || url.startsWith('-') || /[\u0000-\u001f\u007f]/.test(url))
    return refuse('it is empty, starts with "-" or holds control characters');
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(url))
    return refuse(`the "${url.slice(0, url.indexOf('::'))}::" remote helper runs a program`);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url);
  if (scheme) {
    const name = (scheme[1] as string).toLowerCase();
    if (!SCHEMES.has(name)) return refuse(`the ${name}:// transport is not allowed`);
    if (name === 'file') return 'file';
    if (name === 'https' || name === 'git') return name;
    return 'ssh';
  }
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  if (colon > 0 && (slash < 0 || colon < slash)) return 'ssh';
  return 'local';
}

/**
 * Where a remote name or URL points: a configured remote's URL (relative paths taken from the
 * repository's top level), else the URL or path itself (relative paths taken from `cwd`). The
 * URL git will use (after the repository's `insteadOf` rewrites, and `pushInsteadOf` for a push)
 * is checked with checkRemoteUrl. Throws REMOTE_NOT_FOUND, REMOTE_UNSAFE.
 */
export async function resolveRemote(
  repo: GitOptions & { topLevel: string },
  nameOrUrl: string,
  cwd: string,
  direction: 'fetch' | 'push',
): Promise<{ name: string; url: string }> {
  const named = REMOTE_NAME.test(nameOrUrl);
  // A URL given as such is checked before any git call: a refused one costs none.
  if (!named) checkRemoteUrl(nameOrUrl);
  const config = await remoteConfig(repo, named ? nameOrUrl : null);
  const resolved = await resolveRemoteUrl(repo, nameOrUrl, cwd, direction, config);
  const used = rewrittenUrl(resolved.url, config, direction);
  // git:// runs `core.gitProxy` when the repository's config names one, and the first value wins
  // over anything we could pass: refuse rather than run it.
  const proxies = config.filter(
    (e) => e.key.toLowerCase() === 'core.gitproxy' && e.value !== '' && !/^none(\s|$)/.test(e.value),
  );
  if (checkRemoteUrl(used) === 'git' && proxies.length > 0)
    throw new UnsafeRemoteError(
      `the repository's config sets core.gitProxy, which git would run for ${used}; remove it or use an ssh:// or https:// URL`,
      { details: { url: used } },
    );
  return resolved;
}

/** A name `git remote` may have given (anything else is a URL or a path). */
const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * What decides where git goes for a remote, in one git process: the `insteadOf` and
 * `pushInsteadOf` rules, `core.gitProxy`, and the named remote's `url` and `pushurl`.
 */
async function remoteConfig(repo: GitOptions, name: string | null): Promise<ConfigEntry[]> {
  const own = name === null ? '' : `|^remote\\.${name.replaceAll('.', '\\.')}\\.(url|pushurl)$`;
  const pattern = `^url\\..*\\.(push)?insteadof$|^core\\.gitproxy$${own}`;
  const res = await runGit(repo, ['config', '-z', '--get-regexp', pattern], { okExitCodes: [1] });
  return parseConfigEntries(res.stdout);
}

type ConfigEntry = { key: string; value: string };

/**
 * The URL git uses for `url` under the `url.<base>.insteadOf` rules (`git config -z --get-regexp`
 * entries): the longest matching prefix is replaced by its base (an empty prefix matches every
 * URL; between prefixes of one length, the base whose section came first wins); for a push, a
 * matching `pushInsteadOf` comes first (git's remote.c). Pure.
 */
export function rewrittenUrl(
  url: string,
  rules: readonly ConfigEntry[],
  direction: 'fetch' | 'push',
): string {
  const longest = (suffix: string): string | null => {
    // Bases in the order their sections first appear, each with its prefixes, as git keeps them.
    const bases = new Map<string, string[]>();
    for (const { key, value } of rules) {
      if (!key.toLowerCase().endsWith(suffix)) continue;
      const base = key.slice('url.'.length, -suffix.length);
      bases.set(base, [...(bases.get(base) ?? []), value]);
    }
    let best: { base: string; prefix: string } | null = null;
    for (const [base, prefixes] of bases)
      for (const prefix of prefixes)
        if (url.startsWith(prefix) && prefix.length > (best?.prefix.length ?? -1)) best = { base, prefix };
    return best === null ? null : best.base + url.slice(best.prefix.length);
  };
  return (direction === 'push' ? longest('.pushinsteadof') : null) ?? longest('.insteadof') ?? url;
}

async function resolveRemoteUrl(
  repo: GitOptions & { topLevel: string },
  nameOrUrl: string,
  cwd: string,
  direction: 'fetch' | 'push',
  config: readonly ConfigEntry[],
): Promise<{ name: string; url: string }> {
  if (REMOTE_NAME.test(nameOrUrl)) {
    const url = configuredUrl(config, direction);
    if (url !== null) {
      const kind = checkRemoteUrl(url);
      return {
        name: nameOrUrl,
        url: kind === 'local' && !isAbsolute(url) ? resolve(repo.topLevel, url) : url,
      };
    }
    if (!(await isDir(resolve(cwd, nameOrUrl)))) {
      throw new RemoteNotFoundError(
        `no remote named ${JSON.stringify(nameOrUrl)} in ${repo.topLevel}; "git remote -v" lists them, or give a URL`,
        {
          details: { remote: nameOrUrl },
        },
      );
    }
  }
  const kind = checkRemoteUrl(nameOrUrl);
  if (kind === 'local') {
    const path = resolve(cwd, nameOrUrl);
    if (!(await isDir(path)))
      throw new RemoteNotFoundError(`remote ${path} does not exist; give an existing repository`, {
        details: { remote: path },
      });
    return { name: nameOrUrl, url: path };
  }
  return { name: nameOrUrl, url: nameOrUrl };
}

/**
 * The URL git uses for the configured remote (remoteConfig's entries): its first `url`, or for a
 * push its first `pushurl` when it has one (git pushes there). Null when the remote has no URL.
 */
function configuredUrl(config: readonly ConfigEntry[], direction: 'fetch' | 'push'): string | null {
  const first = (k: string) =>
    config.find((e) => /^remote\./i.test(e.key) && e.key.toLowerCase().endsWith(`.${k}`) && e.value !== '')
      ?.value;
  return (direction === 'push' ? first('pushurl') : undefined) ?? first('url') ?? null;
}

async function isDir(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/**
 * The settings of a local remote's upload-pack or receive-pack (no spaces or quotes: they go into a
 * shell command line). receive-pack runs the remote's alternateRefsCommand when it has alternates,
 * and its `gc --auto` after a push; `uploadpack.packObjectsHook` is read only from protected
 * config (system, global, command line), which our environment empties.
 */
const SERVER_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.alternateRefsCommand=',
  'receive.autogc=false',
];

/**
 * The program that serves a remote. For a repository on this machine (a path or file://) it runs
 * here, in the other repository, where git clears our `-c` settings: so it gets its own, and that
 * repository's hooks (pre-receive, update, post-receive, reference-transaction, ...) and fsmonitor
 * run nothing. For ssh, git and https it runs on the server, which is the server's business (and
 * servers accept only the plain name).
 */
function serverProgram(url: string, name: 'upload-pack' | 'receive-pack'): string {
  const kind = checkRemoteUrl(url);
  return kind === 'local' || kind === 'file'
    ? `git ${SERVER_CONFIG.map((c) => `-c ${c}`).join(' ')} ${name}`
    : `git-${name}`;
}

function withTransport(repo: GitOptions): GitOptions {
  return { ...repo, config: [...(repo.config ?? []), ...TRANSPORT_CONFIG] };
}

/** One line of `git push --porcelain`: the flag (`*` new, ` ` forward, `=` up to date, `!` rejected), the remote ref and git's summary. */
export interface PushedRef {
  flag: string;
  ref: string;
  summary: string;
}

/** Parses `git push --porcelain` output (pure). */
export function parsePushPorcelain(stdout: string): PushedRef[] {
  const out: PushedRef[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^([ +\-*!=])\t([^\t]*):([^\t]*)\t(.*)$/.exec(line);
    if (m) out.push({ flag: m[1] as string, ref: m[3] as string, summary: m[4] as string });
  }
  return out;
}

/**
 * One `git push` of `refspecs` (never forced: a refspec with `+` is refused here) to `url`. Each
 * ref is its own compare-and-swap on the remote, so one rejected ref does not stop the others.
 * Returns git's per-ref verdicts; REMOTE_NOT_FOUND when the remote cannot be reached as a repository.
 */
export async function pushRefs(
  repo: GitOptions,
  url: string,
  refspecs: readonly string[],
): Promise<PushedRef[]> {
  checkRemoteUrl(url);
  for (const spec of refspecs) {
    if (
      spec.startsWith('+') ||
      spec.startsWith('-') ||
      !/^refs\/agentgate\/[^\s:]+:refs\/agentgate\/[^\s:]+$/.test(spec)
    ) {
      throw new InvalidArgumentError(
        `refusing to push ${JSON.stringify(spec)}: only non-forced refs/agentgate/ refspecs`,
        { details: { refspec: spec } },
      );
    }
  }
  const args = [
    'push',
    '--porcelain',
    '--no-follow-tags',
    '--no-signed',
    `--receive-pack=${serverProgram(url, 'receive-pack')}`,
    '--end-of-options',
    url,
    ...refspecs,
  ];
  try {
    const res = await runGit(withTransport(repo), args, { okExitCodes: [1] });
    const refs = parsePushPorcelain(res.stdout);
    if (res.exitCode !== 0 && !refs.some((r) => r.flag === '!')) {
      throw new GitFailedError(`git push to ${url} failed without naming a ref`, {
        details: { url, stdout: res.stdout.slice(0, 2000) },
      });
    }
    return refs;
  } catch (cause) {
    throw unreachable(cause, url);
  }
}

/**
 * One `git fetch` of `refspecs` from `url` (a remote or a bundle file): no tags, no FETCH_HEAD, no
 * submodules, upload-pack named on the command line. Missing remote refs are simply not fetched.
 */
export async function fetchRefs(repo: GitOptions, url: string, refspecs: readonly string[]): Promise<void> {
  checkRemoteUrl(url);
  for (const spec of refspecs) {
    if (!/^\+?refs\/agentgate\/[^\s:]+:refs\/agentgate\/incoming\/[^\s:]+$/.test(spec)) {
      throw new InvalidArgumentError(
        `refusing to fetch ${JSON.stringify(spec)}: only into refs/agentgate/incoming/`,
        { details: { refspec: spec } },
      );
    }
  }
  const args = [
    'fetch',
    '--quiet',
    '--no-tags',
    '--no-write-fetch-head',
    '--no-recurse-submodules',
    '--no-auto-gc',
    `--upload-pack=${serverProgram(url, 'upload-pack')}`,
    '--end-of-options',
    url,
    ...refspecs,
  ];
  try {
    await runGit(withTransport(repo), args);
  } catch (cause) {
    throw unreachable(cause, url);
  }
}

/** The remote's refs under `prefix` (e.g. `refs/agentgate/records/`), by one `git ls-remote`. */
export async function listRemoteRefs(
  repo: GitOptions,
  url: string,
  prefix: string,
): Promise<Array<{ sha: string; ref: string }>> {
  checkRemoteUrl(url);
  if (!/^refs\/agentgate\/[A-Za-z0-9._/-]*$/.test(prefix))
    throw new InvalidArgumentError(`refusing to list ${JSON.stringify(prefix)}`, { details: { prefix } });
  try {
    const { stdout } = await runGit(withTransport(repo), [
      'ls-remote',
      '--refs',
      `--upload-pack=${serverProgram(url, 'upload-pack')}`,
      '--end-of-options',
      url,
      `${prefix}*`,
    ]);
    return parseLsRemote(stdout).filter((r) => r.ref.startsWith(prefix));
  } catch (cause) {
    throw unreachable(cause, url);
  }
}

/** Parses `git ls-remote` output: `<id> TAB <ref>` lines (pure; malformed lines are dropped, as untrusted). */
export function parseLsRemote(stdout: string): Array<{ sha: string; ref: string }> {
  const out: Array<{ sha: string; ref: string }> = [];
  for (const line of stdout.split('\n')) {
    const m = /^([0-9a-f]{40}(?:[0-9a-f]{24})?)\t(refs\/[^\s]+)$/.exec(line);
    if (m) out.push({ sha: m[1] as string, ref: m[2] as string });
  }
  return out;
}

function unreachable(cause: unknown, url: string): unknown {
  if (
    cause instanceof GitFailedError &&
    /does not appear to be a git repository|Could not read from remote|repository .* not found|not a git repository|No such file or directory|unable to access/i.test(
      String(cause.details.stderr),
    )
  ) {
    return new RemoteNotFoundError(
      `cannot reach a git repository at ${url}; check the remote's URL and your access`,
      { cause, details: { url, stderr: cause.details.stderr } },
    );
  }
  return cause;
}

/** Writes `refs` (full names) and everything they reach into one bundle file at `file`. */
export async function createBundle(repo: GitOptions, file: string, refs: readonly string[]): Promise<void> {
  await runGit(repo, ['bundle', 'create', '--quiet', file, '--stdin'], { input: `${refs.join('\n')}\n` });
}

/**
 * Checks a bundle file with git's own verification (header, and prerequisites present here) and
 * lists its refs. Throws BUNDLE_INVALID for anything git does not accept as a bundle.
 */
export async function verifyBundle(
  repo: GitOptions,
  file: string,
): Promise<Array<{ sha: string; ref: string }>> {
  const invalid = (why: string, cause?: unknown) =>
    new BundleInvalidError(
      `${file} is not a usable agentgate bundle: ${why}; use a file written by "export"`,
      { cause, details: { file } },
    );
  try {
    await runGit(withTransport(repo), ['bundle', 'verify', '--quiet', file]);
    const heads = (await runGit(withTransport(repo), ['bundle', 'list-heads', file])).stdout;
    return heads
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const m = /^([0-9a-f]{40}(?:[0-9a-f]{24})?) (\S+)$/.exec(line);
        if (!m) throw invalid(`unexpected line ${JSON.stringify(line.slice(0, 100))} in its list of refs`);
        return { sha: m[1] as string, ref: m[2] as string };
      });
  } catch (cause) {
    if (cause instanceof BundleInvalidError) throw cause;
    if (cause instanceof GitFailedError) throw invalid(await bundleRefusal(repo, file, cause), cause);
    throw cause;
  }
}

/**
 * Why git refused a bundle. `verify --quiet` says nothing when the bundle's prerequisite commits are
 * missing here, so git is asked once more without it (its message lists them).
 */
async function bundleRefusal(repo: GitOptions, file: string, cause: GitFailedError): Promise<string> {
  const said = (e: GitFailedError) => String(e.details.stderr ?? e.message).split('\n');
  const last = said(cause).slice(-2).join(' ').trim();
  if (last !== '') return last;
  const again = await runGit(withTransport(repo), ['bundle', 'verify', file]).then(
    () => '',
    (e: unknown) => (e instanceof GitFailedError ? said(e).join(' ').trim().slice(0, 300) : ''),
  );
  return again || 'git refused it without a reason (are its prerequisite commits in this repository?)';
}
