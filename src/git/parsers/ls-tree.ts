import { OBJECT_ID_PATTERN } from '../../../types/ids.js';
import { splitNul, unparseable } from './nul-records.js';

/** One blob entry of a tree listing (`ls-tree -r`). */
export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  /** Repository-relative path with `/` separators. */
  path: string;
}

/** Parses `ls-tree -r -z --full-tree`: `<mode> SP <type> SP <oid> TAB <path>` per record. */
export function parseLsTree(text: string): Map<string, TreeEntry> {
  const out = new Map<string, TreeEntry>();
  for (const record of splitNul(text)) {
    const tab = record.indexOf('\t');
    const head = tab < 0 ? [] : record.slice(0, tab).split(' ');
    const [mode, type, oid] = head;
    if (
      head.length !== 3 ||
      mode === undefined ||
      type === undefined ||
      oid === undefined ||
      !OBJECT_ID_PATTERN.test(oid)
    ) {
      throw unparseable('ls-tree', 'malformed record', record);
    }
    const path = record.slice(tab + 1);
    out.set(path, { mode, type, oid, path });
  }
  return out;
}
