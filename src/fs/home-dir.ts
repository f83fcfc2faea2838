import { homedir, userInfo } from 'node:os';
import { isAbsolute } from 'node:path';
import { ConfigInvalidError } from '../errors.js';

/**
 * The account's home directory, absolute. os.homedir() returns $HOME as it is, even empty or
 * relative (`HOME= cmd`), which would put `~/.agentgate` or an agent's `~/.claude` under the
 * current directory: then the account's own home (the password database), else a refusal.
 */
export function accountHome(): string {
  const fromEnv = homedir();
  if (isAbsolute(fromEnv)) return fromEnv;
  let account = '';
  try {
    account = userInfo().homedir;
  } catch {
    // No entry for this user (a container's arbitrary uid): refused below.
  }
  if (isAbsolute(account)) return account;
  throw new ConfigInvalidError(
    `the home directory is unknown (HOME is ${fromEnv === '' ? 'empty' : `not absolute: ${JSON.stringify(fromEnv)}`} and the account names none); set HOME, or AGENTGATE_HOME and --home`,
    { details: { HOME: fromEnv } },
  );
}
