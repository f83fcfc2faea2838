/**
 * Credentials in remote URLs (`https://user:token@host/...`, what CI scripts build from a secret)
 * are never printed nor stored: every URL shown (results, messages, error details, git's words and
 * command lines kept in details) goes through `hideCredentials`. As git's own messages do, the user
 * part of an https URL is hidden whole (a token may stand there alone); of an ssh URL only the
 * password (a user name is no secret there). Pure.
 */
const USERINFO = /([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/\s?#]*)@/g;

/** `text` with the credentials of every `scheme://user:password@` URL in it replaced by `***`. */
export function hideCredentials(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(USERINFO, (_all, scheme: string, info: string) => {
    const colon = info.indexOf(':');
    if (/ssh/i.test(scheme)) return `${scheme}://${colon < 0 ? info : `${info.slice(0, colon)}:***`}@`;
    return `${scheme}://***@`;
  });
}
