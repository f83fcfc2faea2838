import type { IndexEntry } from './ls-files-tagged.js';
import { unparseable } from './nul-records.js';

/** An index entry with the stat data git cached for it (whole seconds; the inode's low 32 bits). */
export interface IndexStatEntry extends IndexEntry {
  ctime: number;
  mtime: number;
  ino: bigint;
}

/**
 * One record of `ls-files -z -v -s --debug`: `<tag> <mode> <oid> <stage>\t<path>`, a NUL, then five
 * lines of stat data, the last `  size: N\tflags: X`. Read with one sticky expression from record to
 * record: an index of 100,000 entries is 19 MB of this.
 */
const RECORD =
  /([A-Za-z?]) ([0-7]{6}) ([0-9a-f]{40,64}) [0-3]\t([^\0]+)\0 {2}ctime: (\d+):\d+\n {2}mtime: (\d+):\d+\n {2}dev: \d+\tino: (\d+)\n {2}uid: \d+\tgid: \d+\n {2}size: \d+\tflags: [0-9a-f]+\n/y;

/** Parses `ls-files -z -v -s --debug` (see RECORD). */
export function parseIndexStat(text: string): IndexStatEntry[] {
  const out: IndexStatEntry[] = [];
  const record = new RegExp(RECORD);
  while (record.lastIndex < text.length) {
    const at = record.lastIndex;
    const m = record.exec(text);
    if (m === null) throw unparseable('ls-files --debug', 'unexpected record', text.slice(at, at + 200));
    out.push({
      tag: m[1] as string,
      mode: m[2] as string,
      oid: m[3] as string,
      path: m[4] as string,
      ctime: Number(m[5]),
      mtime: Number(m[6]),
      ino: BigInt(m[7] as string),
    });
  }
  return out;
}
