import { BundleInvalidError, GitFailedError, InvalidArgumentError, RemoteNotFoundError } from '../errors.js';
import { rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '../fs/temp-dir.js';
import { checkRemoteUrl, HTTP_PINS, pathRemote, type RemoteTarget } from './remote.js';
import { batchCheck, objectFormat } from './record-objects.js';
import { runGit, type GitOptions } from './runner.js';
import { hideCredentials } from './url-credentials.js';

/**
 * Only the file, git, ssh and https transports, whatever the repository's config says: a remote
 * helper (`ext::`, `fd::`, ...) runs a program, `http` is plain text. These `-c` pairs go on every
 * call that talks to a remote or a bundle, and outrank `url.<base>.insteadOf` rewrites too. The
 * repository's own config cannot name a program for the transport either: ssh is plain `ssh`,
 * no credential helper, and upload-pack / receive-pack are given on the command line. Nor a file
 * for https to read or write (HTTP_PINS; its `http.<url>.*` keys are pinned by resolveRemote).
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
  ...Object.entries(HTTP_PINS).map(([key, value]) => `http.${key}=${value}`),
];

/**
 * The settings of a local remote's upload-pack or receive-pack (no spaces or quotes: they go into a
 * shell command line). receive-pack runs the remote's alternateRefsCommand when it has alternates,
 * and its `gc --auto` after a push; `uploadpack.packObjectsHook` is read only from protected
 * config (system, global, command line), which our environment empties. A non-bare remote whose
 * `receive.denyCurrentBranch` is `updateInstead` checks the pushed ref out into its work tree when
 * its HEAD names it, through that repository's filters: refused instead (PUSH_REJECTED), so
 * receive-pack never touches a work tree.
 */
const SERVER_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.alternateRefsCommand=',
  'receive.autogc=false',
  'receive.denyCurrentBranch=refuse',
];

/**
 * The program that serves a remote, chosen by where git goes (the URL after its rewrites). For a
 * repository on this machine (a path or file://) it runs here, in the other repository, where git
 * clears our `-c` settings: so it gets its own, and that repository's hooks (pre-receive, update,
 * post-receive, reference-transaction, ...) and fsmonitor run nothing. For ssh, git and https it
 * runs on the server, which is the server's business (and servers accept only the plain name).
 */
function serverProgram(remote: RemoteTarget, name: 'upload-pack' | 'receive-pack'): string {
  const kind = checkRemoteUrl(remote.url);
  return kind === 'local' || kind === 'file'
    ? `git ${SERVER_CONFIG.map((c) => `-c ${c}`).join(' ')} ${name}`
    : `git-${name}`;
}

/** The transport settings, and the remote's own when git is given a name of ours for it. */
function withTransport(repo: GitOptions, remote?: RemoteTarget): GitOptions {
  return { ...repo, config: [...(repo.config ?? []), ...TRANSPORT_CONFIG, ...(remote?.config ?? [])] };
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
 * One `git push` of `refspecs` (never forced: a refspec with `+` is refused here) to `remote`. Each
 * ref is its own compare-and-swap on the remote, so one rejected ref does not stop the others.
 * Returns git's per-ref verdicts; REMOTE_NOT_FOUND when the remote cannot be reached as a repository.
 */
export async function pushRefs(
  repo: GitOptions,
  remote: RemoteTarget,
  refspecs: readonly string[],
): Promise<PushedRef[]> {
  checkRemoteUrl(remote.url);
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
    `--receive-pack=${serverProgram(remote, 'receive-pack')}`,
    '--end-of-options',
    remote.arg,
    ...refspecs,
  ];
  try {
    const res = await runGit(withTransport(repo, remote), args, { okExitCodes: [1] });
    const refs = parsePushPorcelain(res.stdout);
    if (res.exitCode !== 0 && !refs.some((r) => r.flag === '!')) {
      throw new GitFailedError(`git push to ${hideCredentials(remote.url)} failed without naming a ref`, {
        details: { url: hideCredentials(remote.url), stdout: hideCredentials(res.stdout.slice(0, 2000)) },
      });
    }
    return refs;
  } catch (cause) {
    throw await unreachable(repo, cause, remote.url);
  }
}

/**
 * One `git fetch` of `refspecs` from `remote` (a remote or a bundle file): no tags, no FETCH_HEAD, no
 * submodules, upload-pack named on the command line. Missing remote refs are simply not fetched.
 */
export async function fetchRefs(
  repo: GitOptions,
  remote: RemoteTarget,
  refspecs: readonly string[],
): Promise<void> {
  checkRemoteUrl(remote.url);
  for (const spec of refspecs) {
    // A negative refspec (`^refs/agentgate/...`) leaves a ref out of a wildcard's.
    if (
      !/^\+?refs\/agentgate\/[^\s:]+:refs\/agentgate\/incoming\/[^\s:]+$/.test(spec) &&
      !/^\^refs\/agentgate\/[^\s:]+$/.test(spec)
    ) {
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
    `--upload-pack=${serverProgram(remote, 'upload-pack')}`,
    // On stdin: no command line is long enough for every refspec a large fetch may need.
    '--stdin',
    '--end-of-options',
    remote.arg,
  ];
  try {
    await runGit(withTransport(repo, remote), args, { input: refspecs.map((r) => `${r}\n`).join('') });
  } catch (cause) {
    throw await unreachable(repo, cause, remote.url);
  }
}

/**
 * One fetch of `refspecs` from the bundle file at `file` (an absolute path). A name that holds a
 * control character (a line break is a legal file name) is no remote git may be given
 * (checkRemoteUrl), so git reads the file through a link of ours with a plain name.
 */
export async function fetchFromBundle(
  repo: GitOptions,
  file: string,
  refspecs: readonly string[],
): Promise<void> {
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u001f\u007f]/.test(file)) return fetchRefs(repo, pathRemote(file), refspecs);
  const dir = await makeTempDir('agentgate-bundle-');
  try {
    const link = join(dir, 'bundle');
    await symlink(file, link);
    await fetchRefs(repo, pathRemote(link), refspecs);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The remote's refs under `prefix` (e.g. `refs/agentgate/records/`), by one `git ls-remote`. */
export async function listRemoteRefs(
  repo: GitOptions,
  remote: RemoteTarget,
  prefix: string,
): Promise<Array<{ sha: string; ref: string }>> {
  checkRemoteUrl(remote.url);
  if (!/^refs\/agentgate\/[A-Za-z0-9._/-]*$/.test(prefix))
    throw new InvalidArgumentError(`refusing to list ${JSON.stringify(prefix)}`, { details: { prefix } });
  try {
    const { stdout } = await runGit(withTransport(repo, remote), [
      'ls-remote',
      '--refs',
      `--upload-pack=${serverProgram(remote, 'upload-pack')}`,
      '--end-of-options',
      remote.arg,
      `${prefix}*`,
    ]);
    return parseLsRemote(stdout).filter((r) => r.ref.startsWith(prefix));
  } catch (cause) {
    throw await unreachable(repo, cause, remote.url);
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

/** git's words for a remote whose object format is not this repository's (push, then fetch). */
const OTHER_OBJECT_FORMAT =
  /the receiving end does not support this repository's hash algorithm|mismatched algorithms: client \S+; server \S+/;

/**
 * The error for a transport call that failed: REMOTE_NOT_FOUND when git found no repository it
 * could use there (none at all; no access: credentials refused, or asked for and none given, as
 * no prompt or credential helper runs; or one of the other object format: git moves no objects
 * between sha1 and sha256 repositories), else the failure as it was.
 */
async function unreachable(repo: GitOptions, cause: unknown, remoteUrl: string): Promise<unknown> {
  const url = hideCredentials(remoteUrl);
  if (!(cause instanceof GitFailedError)) return cause;
  const stderr = String(cause.details.stderr);
  if (OTHER_OBJECT_FORMAT.test(stderr)) {
    const ours = await objectFormat(repo);
    const theirs = ours === 'sha1' ? 'sha256' : 'sha1';
    return new RemoteNotFoundError(
      `${url} is a ${theirs} repository and this one uses ${ours}: git cannot move objects between them; use a remote of the same object format (git init --bare --object-format=${ours})`,
      {
        cause,
        details: { url, objectFormat: ours, remoteObjectFormat: theirs, stderr: cause.details.stderr },
      },
    );
  }
  if (
    /does not appear to be a git repository|Could not read from remote|repository .* not found|not a git repository|No such file or directory|unable to access|unable to connect to|unable to look up|Authentication failed|could not read (Username|Password) for/i.test(
      stderr,
    )
  ) {
    return new RemoteNotFoundError(
      `cannot reach a git repository at ${url}; check the remote's URL and your access`,
      { cause, details: { url, stderr: cause.details.stderr } },
    );
  }
  return cause;
}

/**
 * Writes `refs` (full names) and everything they reach into one bundle file at `file`, but for the
 * commits `boundary` names and their history: those the bundle reaches are written as its
 * prerequisites, which a receiver must hold. A shallow clone's boundary commits go there: without
 * their parents here, git would write them whole and name no prerequisite, and a receiver lacking
 * those parents would fail in the middle of its fetch instead of being told what to fetch.
 */
export async function createBundle(
  repo: GitOptions,
  file: string,
  refs: readonly string[],
  boundary: readonly string[] = [],
): Promise<void> {
  // A boundary commit the repository does not hold (a stale line in `shallow`) would be "bad object".
  const held = (
    await batchCheck(
      repo,
      boundary.map((c) => `${c}^{commit}`),
    )
  ).filter((answer) => answer.found);
  const input = [...refs, ...held.map((c) => `^${c.id}`)].map((line) => `${line}\n`).join('');
  await runGit(repo, ['bundle', 'create', '--quiet', file, '--stdin'], { input });
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
    const [, format] = await Promise.all([
      runGit(withTransport(repo), ['bundle', 'verify', '--quiet', file]),
      objectFormat(repo),
    ]);
    const heads = (await runGit(withTransport(repo), ['bundle', 'list-heads', file])).stdout;
    return heads
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const m = /^([0-9a-f]{40}(?:[0-9a-f]{24})?) (\S+)$/.exec(line);
        if (!m) throw invalid(`unexpected line ${JSON.stringify(line.slice(0, 100))} in its list of refs`);
        // git 2.39 verifies such a bundle and then fails in the middle of the fetch ("pack is corrupted").
        const theirs = m[1]?.length === 64 ? 'sha256' : 'sha1';
        if (theirs !== format)
          throw new BundleInvalidError(
            `${file} holds ${theirs} objects and this repository uses ${format}; import it into a ${theirs} repository`,
            { details: { file, bundleObjectFormat: theirs, objectFormat: format } },
          );
        return { sha: m[1] as string, ref: m[2] as string };
      });
  } catch (cause) {
    if (cause instanceof BundleInvalidError) throw cause;
    if (cause instanceof GitFailedError) {
      const said = await bundleRefusal(repo, file, cause);
      const lacking = lackedPrerequisites(said);
      if (lacking.length === 0)
        throw invalid(
          said
            .replace(/\s*\n\s*/g, ' ')
            .trim()
            .slice(0, 300),
          cause,
        );
      throw new BundleInvalidError(
        `${file} is built on commits this repository lacks (${lacking.slice(0, 3).join(', ')}${lacking.length > 3 ? ', ...' : ''}); fetch them first (the history of the repository it was exported from; in a shallow clone, "git fetch --unshallow"), then import it again`,
        { cause, details: { file, prerequisites: lacking } },
      );
    }
    throw cause;
  }
}

/** The commits git says a bundle needs and this repository lacks (`error: <id>` lines after its heading). */
function lackedPrerequisites(stderr: string): string[] {
  const at = stderr.indexOf('lacks these prerequisite commits');
  if (at === -1) return [];
  return [...stderr.slice(at).matchAll(/^error: ([0-9a-f]{40}(?:[0-9a-f]{24})?)\b/gm)].map(
    (m) => m[1] as string,
  );
}

/**
 * Why git refused a bundle, in git's words (the last two lines). `verify --quiet` says nothing when
 * the bundle's prerequisite commits are missing here, so git is asked once more without it (its
 * message lists them, each on a line of its own).
 */
async function bundleRefusal(repo: GitOptions, file: string, cause: GitFailedError): Promise<string> {
  const said = (e: GitFailedError) => String(e.details.stderr ?? e.message);
  const last = said(cause).split('\n').slice(-2).join('\n').trim();
  if (last !== '') return last;
  const again = await runGit(withTransport(repo), ['bundle', 'verify', file]).then(
    () => '',
    (e: unknown) => (e instanceof GitFailedError ? said(e).trim() : ''),
  );
  return again || 'git refused it without a reason (are its prerequisite commits in this repository?)';
}
