import { InvalidArgumentError } from '../errors.js';

/**
 * A new branch's name is checked before HEAD moves: on an unborn HEAD the first commit makes the
 * branch, and a name git cannot create there would fail that commit with HEAD already switched and
 * the index staged. A branch `x` cannot sit beside `x/y` (nor `x/y` beside `x`; `branches`: the
 * full refs under refs/heads/), nor have a part longer than a file name; a name holding U+FFFD is
 * what Node.js makes of one that is not UTF-8, so another branch would be made (so is one holding
 * half a surrogate pair).
 */
export function assertBranchCanBeMade(name: string, ref: string, branches: readonly string[]): void {
  const beside = branches.find((b) => b.startsWith(`${ref}/`) || ref.startsWith(`${b}/`));
  if (beside !== undefined)
    throw new InvalidArgumentError(
      `branch ${name} cannot be made beside the existing branch ${beside.slice('refs/heads/'.length)}; choose another branch name`,
      { details: { branch: name, existing: beside } },
    );
  // A ref is made as a file: a part longer than a file name (255 bytes, less git's `.lock`) cannot be.
  if (name.split('/').some((part) => Buffer.byteLength(part) > 250))
    throw new InvalidArgumentError(
      `the branch name ${name} has a part longer than 250 bytes, which git cannot make`,
      {
        details: { branch: name },
      },
    );
  // Half a surrogate pair (a library caller's "\ud800") has no UTF-8 form: git would get U+FFFD.
  if (name.includes('\uFFFD') || !name.isWellFormed())
    throw new InvalidArgumentError(
      `the branch name ${JSON.stringify(name)} holds U+FFFD, what a name that is not UTF-8 becomes as Node.js reads it, or half a surrogate pair, which becomes U+FFFD, so another branch would be made: use a UTF-8 name`,
      { details: { branch: name } },
    );
}
