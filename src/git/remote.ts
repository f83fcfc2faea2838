import { isAbsolute, join, resolve } from 'node:path';
import { lstat, open, stat } from 'node:fs/promises';
import { InvalidArgumentError, RemoteNotFoundError, UnsafeRemoteError } from '../errors.js';
import { commonDir } from '../fs/git-locks.js';
import { randomHex } from '../fs/random.js';
import { parseConfigEntries, type ConfigPair } from './hardening.js';
import { runGit, type GitOptions } from './runner.js';
import { hideCredentials } from './url-credentials.js';

/**
 * A remote as git is to reach it. git takes whatever names the remote on its command line for the
 * name of a configured remote first (any string: `remote.<it>.*`, and without a `/` the legacy
 * `remotes/<it>` and `branches/<it>` files), and only then for a URL, so `arg` is never a string
 * the repository's config could have given settings to.
 */
export interface RemoteTarget {
  /** The remote as it was given (a remote's name, a URL or a path; a URL's credentials hidden): for results and messages. */
  name: string;
  /** Where git goes: the URL after every rewrite git applies, checked; a local path absolute. */
  url: string;
  /** What git is given: a URL no configured remote is named after, or a name of ours defined by `config` alone. */
  arg: string;
  /** Settings of command scope that define `arg` when it is a name of ours, and pin the repository's `http.<url>.*` keys. */
  config: readonly ConfigPair[];
}

/**
 * A local file or repository given by its absolute path (git takes no remote name starting with
 * `/`). git's longest `insteadOf` prefix wins, and none is longer than the whole path: a rule of
 * ours mapping it to itself keeps the user's rules (`url.X.insteadOf=/`) from sending git
 * elsewhere. A path holding `=` or a line break cannot be such a key, and keeps none.
 */
export function pathRemote(path: string): RemoteTarget {
  if (!isAbsolute(path))
    throw new InvalidArgumentError(`${path} is not an absolute path; give the file's full path`, {
      details: { path },
    });
  const config = /[=\n]/.test(path) ? [] : [`url.${path}.insteadOf=${path}`];
  return { name: path, url: path, arg: path, config };
}

const SCHEMES = new Set(['https', 'ssh', 'git', 'file', 'git+ssh', 'ssh+git']);

export type RemoteKind = 'local' | 'file' | 'ssh' | 'git' | 'https';

/**
 * Classifies a remote URL exactly as git's transport.c does (helper `x::`, `scheme://`, scp-like
 * `host:path`, local path; schemes are case-sensitive) and refuses every transport but file, git,
 * ssh and https before git runs. Throws REMOTE_UNSAFE.
 */
export function checkRemoteUrl(url: string): RemoteKind {
  const refuse = (why: string): never => {
    const shown = hideCredentials(url);
    throw new UnsafeRemoteError(
      `remote ${JSON.stringify(shown.slice(0, 200))} is refused: ${why}; use a file path or a file://, git://, ssh:// or https:// URL`,
      {
        details: { url: shown.slice(0, 500) },
      },
    );
  };
  // eslint-disable-next-line no-control-regex
  if (url === '' || url.startsWith('-') || /[\u0000-\u001f\u007f]/.test(url))
    return refuse('it is empty, starts with "-" or holds control characters');
  // git: an optional run of [A-Za-z0-9][A-Za-z0-9+.-]* followed by "::" names a remote helper.
  if (/^(?:[A-Za-z0-9][A-Za-z0-9+.-]*)?::/.test(url))
    return refuse(`the "${url.slice(0, url.indexOf('::'))}::" remote helper runs a program`);
  const scheme = /^([A-Za-z0-9][A-Za-z0-9+.-]*):\/\//.exec(url);
  if (scheme) {
    const name = scheme[1] as string;
    if (!SCHEMES.has(name)) return refuse(`the ${name}:// transport is not allowed`);
    if (name === 'file') return 'file';
    if (name === 'https' || name === 'git') return name;
    const rest = url.slice(scheme[0].length);
    return sshOptionLike(rest.split('/')[0] as string, '') ? refuse(SSH_OPTION) : 'ssh';
  }
  // git's url_is_local_not_ssh: a colon with no slash before it is scp-like ssh.
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  if (colon >= 0 && (slash < 0 || colon < slash))
    return sshOptionLike(url.slice(0, colon), url.slice(colon + 1)) ? refuse(SSH_OPTION) : 'ssh';
  return 'local';
}

const SSH_OPTION = 'its ssh host or path starts with "-", which ssh would take for an option (git blocks it)';

/** Whether an ssh URL's host (with its user) or path would reach ssh as an option (git's "strange hostname"). */
function sshOptionLike(host: string, path: string): boolean {
  return host.startsWith('-') || path.startsWith('-');
}

type ConfigEntry = { key: string; value: string };

/**
 * The https settings pinned on every transport call (`http.<key>`, lower case), for the workspace's
 * config is untrusted: a cookie file is read and sent to the server, and with `saveCookies`
 * overwritten by a cookie jar (any file); TLS verification stays on (`sslCAInfo`, which names
 * whom to trust, is left: it reads a file and sends nothing); no proxy, extra headers, resolve
 * overrides, or Kerberos credentials offered (`emptyAuth`) or forwarded (`delegation`).
 */
export const HTTP_PINS: Readonly<Record<string, string>> = {
  cookiefile: '',
  savecookies: 'false',
  sslverify: 'true',
  proxy: '',
  extraheader: '',
  curloptresolve: '',
  emptyauth: 'false',
  delegation: 'none',
};

/** Client certificate files git would present to the server: no value switches them off (an empty one fails every call). */
const HTTP_REFUSED = new Set(['sslcert', 'sslkey']);

/**
 * The HTTP_PINS of every `http.<url>.<key>` the repository's config sets, under the same URL: git
 * takes the value of the best-matching URL over the plain key, and of two that match alike the
 * later, which command scope is. A client certificate or key the config names is REMOTE_UNSAFE
 * for an https remote.
 */
function httpPins(
  config: readonly ConfigEntry[],
  url: string,
  kind: RemoteKind,
): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  for (const { key, value } of config) {
    if (!/^http\./i.test(key)) continue;
    const variable = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
    if (HTTP_REFUSED.has(variable) && value !== '' && kind === 'https')
      throw new UnsafeRemoteError(
        `the repository's config sets ${key}, which would make git present that client certificate to ${hideCredentials(url)}; remove it from the workspace's config`,
        { details: { url: hideCredentials(url), key } },
      );
    const pinned = HTTP_PINS[variable];
    if (pinned !== undefined && key.indexOf('.') !== key.lastIndexOf('.')) out.push([key, pinned]);
  }
  return [...out, ...urlHeaders(config)];
}

/**
 * The extra headers the repository's config sends to a URL (`http.<url>.extraHeader`), given again
 * after their pins. That is how CI hands a job its credentials (`actions/checkout` writes
 * `http.https://github.com/.extraheader`), and git sends it to that URL alone. git clears the whole
 * list of headers at an empty value of the best-matching key, so the pin of that key drops every
 * header the config set (the plain `http.extraHeader`, sent to any server, and those of less
 * specific URLs) and only its own values come back.
 */
function urlHeaders(config: readonly ConfigEntry[]): Array<readonly [string, string]> {
  const values = new Map<string, string[]>();
  for (const { key, value } of config)
    if (/^http\..+\.extraheader$/i.test(key)) values.set(key, [...(values.get(key) ?? []), value]);
  return [...values].flatMap(([key, list]) => list.map((value) => [key, value] as const));
}

/**
 * Where a remote name or URL points, as git decides it (remote.c): a remote configured under that
 * exact name (its first `url`, for a push its first `pushurl` when it has one, each rewritten by
 * `insteadOf`; `pushInsteadOf` only for a url of a remote without a pushurl), else the URL or path
 * itself (relative paths taken from `cwd`). The URL git will use is checked with checkRemoteUrl.
 * Throws REMOTE_NOT_FOUND, REMOTE_UNSAFE.
 */
export async function resolveRemote(
  repo: GitOptions & { topLevel: string; gitDir: string },
  nameOrUrl: string,
  cwd: string,
  direction: 'fetch' | 'push',
): Promise<RemoteTarget> {
  // Checked before any git call, name or URL: a refused one costs none.
  checkRemoteUrl(nameOrUrl);
  const config = await remoteConfig(repo);
  const rules = config.filter((e) => /^url\..*\.(push)?insteadof$/i.test(e.key));
  const own = remoteSettings(config, nameOrUrl);
  if (own.vcs || (own.configured && own.url.length === 0)) {
    throw new UnsafeRemoteError(
      own.vcs
        ? `remote ${JSON.stringify(nameOrUrl)} sets remote.<name>.vcs, which makes git run a remote helper; remove it`
        : `the repository's config has settings for a remote named ${JSON.stringify(hideCredentials(nameOrUrl))} but no url for it, which git would apply to this URL; remove them or give the remote a url`,
      { details: { remote: hideCredentials(nameOrUrl) } },
    );
  }
  if (own.url.length > 0)
    return await checked(repo, config, configuredRemote(nameOrUrl, own, rules, direction));
  const arg = await givenUrl(repo, nameOrUrl, cwd);
  return await checked(repo, config, {
    name: hideCredentials(nameOrUrl),
    url: rewrittenUrl(arg, rules, direction),
    arg,
    config: [],
  });
}

/**
 * A configured remote, given to git under a name of our own (unguessable, so no config names it)
 * whose only settings are its first url and, for a push, its first pushurl: git rewrites them as
 * it would the remote's own.
 */
function configuredRemote(
  name: string,
  own: { url: string[]; pushurl: string[] },
  rules: readonly ConfigEntry[],
  direction: 'fetch' | 'push',
): RemoteTarget {
  const url = own.url[0] as string;
  const pushurl = direction === 'push' ? own.pushurl[0] : undefined;
  checkRemoteUrl(url);
  if (pushurl !== undefined) checkRemoteUrl(pushurl);
  const arg = `agentgate-${randomHex(8)}`;
  return {
    name,
    url: pushurl === undefined ? rewrittenUrl(url, rules, direction) : rewrittenUrl(pushurl, rules, 'fetch'),
    arg,
    config: [
      `remote.${arg}.url=${url}`,
      ...(pushurl === undefined ? [] : [`remote.${arg}.pushurl=${pushurl}`]),
    ],
  };
}

/**
 * The remote with its URL checked (a relative one taken from the top level, where git runs, and
 * naming no file: assertNoFile), core.gitProxy refused for git://, and the repository's
 * `http.<url>.*` keys pinned (httpPins).
 */
async function checked(
  repo: { topLevel: string },
  config: readonly ConfigEntry[],
  remote: RemoteTarget,
): Promise<RemoteTarget> {
  const kind = checkRemoteUrl(remote.url);
  // git:// runs `core.gitProxy` when the repository's config names one, and the first value wins
  // over anything we could pass: refuse rather than run it.
  const proxies = config.filter(
    (e) => e.key.toLowerCase() === 'core.gitproxy' && e.value !== '' && !/^none(\s|$)/.test(e.value),
  );
  if (kind === 'git' && proxies.length > 0)
    throw new UnsafeRemoteError(
      `the repository's config sets core.gitProxy, which git would run for ${hideCredentials(remote.url)}; remove it or use an ssh:// or https:// URL`,
      { details: { url: hideCredentials(remote.url) } },
    );
  const url = kind === 'local' && !isAbsolute(remote.url) ? resolve(repo.topLevel, remote.url) : remote.url;
  if (kind === 'local') await assertNoFile(url);
  return { ...remote, url, config: [...remote.config, ...httpPins(config, url, kind)] };
}

/**
 * What git is given for a URL or path no remote is configured under: a path made absolute (git
 * takes no remote name starting with `/`); a URL without a `/`, which git would first look for in
 * the legacy `remotes/` and `branches/` files, refused when such a file exists.
 */
async function givenUrl(
  repo: { gitDir: string; topLevel: string },
  url: string,
  cwd: string,
): Promise<string> {
  if (checkRemoteUrl(url) === 'local') {
    const path = resolve(cwd, url);
    if (!(await isDir(path))) {
      const why = url.includes('/')
        ? `remote ${path} does not exist; give an existing repository`
        : `no remote named ${JSON.stringify(url)} in ${repo.topLevel}; "git remote -v" lists them, or give a URL`;
      throw new RemoteNotFoundError(why, { details: { remote: url.includes('/') ? path : url } });
    }
    return path;
  }
  if (!url.includes('/')) {
    const common = await commonDir(repo.gitDir);
    for (const dir of ['remotes', 'branches']) {
      const file = join(common, dir, url);
      if (
        await lstat(file).then(
          () => true,
          () => false,
        )
      )
        throw new UnsafeRemoteError(
          `git would take ${JSON.stringify(url)} for the remote that ${file} defines; remove that file, or write the URL with a "/" (ssh://host/path)`,
          { details: { remote: url, file } },
        );
    }
  }
  return url;
}

/**
 * What decides where and how git goes for a remote, in one git process: the `insteadOf` and
 * `pushInsteadOf` rules, `core.gitProxy`, every remote's settings and the `http.*` keys.
 */
async function remoteConfig(repo: GitOptions): Promise<ConfigEntry[]> {
  const pattern = '^url\\..*\\.(push)?insteadof$|^core\\.gitproxy$|^remote\\.|^http\\.';
  const res = await runGit(repo, ['config', '-z', '--get-regexp', pattern], { okExitCodes: [1] });
  return parseConfigEntries(res.stdout);
}

/**
 * The settings git reads for the remote named exactly `name` (remote.c's handle_config): its `url`
 * and `pushurl` lists (an empty value empties the list), whether it sets `vcs`, and whether it has
 * any setting at all. git ignores sections whose name starts with `/`.
 */
function remoteSettings(
  config: readonly ConfigEntry[],
  name: string,
): { url: string[]; pushurl: string[]; vcs: boolean; configured: boolean } {
  const out = { url: [] as string[], pushurl: [] as string[], vcs: false, configured: false };
  if (name.startsWith('/')) return out;
  for (const { key, value } of config) {
    const last = key.lastIndexOf('.');
    if (!/^remote\./i.test(key) || last <= 'remote.'.length || key.slice('remote.'.length, last) !== name)
      continue;
    out.configured = true;
    const variable = key.slice(last + 1).toLowerCase();
    if (variable === 'vcs') out.vcs = true;
    const list = variable === 'url' ? out.url : variable === 'pushurl' ? out.pushurl : null;
    if (list !== null && value === '') list.length = 0;
    else list?.push(value);
  }
  return out;
}

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

/**
 * A local remote (a configured remote's url, or a rewrite's result) must not name a file: git
 * fetches from a bundle file as from a remote of its own kind, reading none of what `import` checks
 * first (a header line of a GiB kept git busy until its timeout), and takes anything else but a
 * gitfile (`gitdir: ...`, a linked worktree's `.git`) for no repository. REMOTE_NOT_FOUND.
 */
async function assertNoFile(path: string): Promise<void> {
  const found = await stat(path).catch(() => null);
  if (found === null || found.isDirectory()) return;
  const start = found.isFile() ? await fileStart(path, 16) : '';
  if (start.startsWith('gitdir: ')) return;
  const bundle = /^# v[23] git bundle\n/.test(start);
  throw new RemoteNotFoundError(
    bundle
      ? `remote ${path} is a bundle file, not a repository; "import ${path}" takes a bundle in`
      : `remote ${path} is a file, not a repository; give a repository`,
    { details: { remote: path } },
  );
}

/** The first `bytes` bytes of a regular file, as latin1 text. */
async function fileStart(path: string, bytes: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(bytes), 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString('latin1');
  } finally {
    await handle.close();
  }
}

async function isDir(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
