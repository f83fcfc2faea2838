import { OBJECT_ID_PATTERN } from '../../../types/ids.js';
import { unparseable } from './nul-records.js';

/** One ref of REF_RECORD_FORMAT: name, commit, its tree, commit date and message body. */
export interface RefRecord {
  ref: string;
  oid: string;
  tree: string;
  date: string;
  body: string;
}

/** The `for-each-ref` format that parseRefRecords reads: NUL-separated fields, NUL after the body. */
export const REF_RECORD_FORMAT =
  '%(refname)%00%(objectname)%00%(tree)%00%(creatordate:iso-strict)%00%(contents:body)%00';

/** Parses for-each-ref output in REF_RECORD_FORMAT (git adds a newline after each record). */
export function parseRefRecords(text: string): RefRecord[] {
  const out: RefRecord[] = [];
  const parts = text.split('\0');
  let i = 0;
  while (i + 5 <= parts.length - 1) {
    const ref = (parts[i] ?? '').replace(/^\n/, '');
    const [oid = '', tree = '', date = '', body = ''] = parts.slice(i + 1, i + 5);
    if (!ref.startsWith('refs/') || !OBJECT_ID_PATTERN.test(oid))
      throw unparseable('for-each-ref', 'malformed ref record', ref);
    out.push({ ref, oid, tree, date, body });
    i += 5;
  }
  const rest = parts.slice(i).join('\0').trim();
  if (rest !== '') throw unparseable('for-each-ref', 'trailing output', rest);
  return out;
}
