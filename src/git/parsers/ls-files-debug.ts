import { parseIndexEntries, type IndexEntry } from './ls-files-tagged.js';
import { unparseable } from './nul-records.js';

/** An index entry with the stat data git cached for it (whole seconds; the inode's low 32 bits). */
export interface IndexStatEntry extends IndexEntry {
  ctime: number;
  mtime: number;
  ino: bigint;
}

/** The five lines `--debug` prints after each path, the last `  size: N\tflags: X`. */
const DEBUG_BLOCK =
  /^ {2}ctime: (\d+):\d+\n {2}mtime: (\d+):\d+\n {2}dev: \d+\tino: (\d+)\n {2}uid: \d+\tgid: \d+\n {2}size: \d+\tflags: [0-9a-f]+\n/;

/**
 * Parses `ls-files -z -v -s --debug`: each `<tag> <mode> <oid> <stage>\t<path>` record ends with a
 * NUL and is followed by its stat lines, after which the next record begins.
 */
export function parseIndexStat(text: string): IndexStatEntry[] {
  if (text === '') return [];
  const parts = text.split('\0');
  const out: IndexStatEntry[] = [];
  let head = parts[0] as string;
  for (const part of parts.slice(1)) {
    const block = DEBUG_BLOCK.exec(part);
    if (block === null) throw unparseable('ls-files --debug', 'unexpected stat lines', part);
    const [entry] = parseIndexEntries(`${head}\0`) as [IndexEntry];
    out.push({ ...entry, ctime: Number(block[1]), mtime: Number(block[2]), ino: BigInt(block[3] as string) });
    head = part.slice(block[0].length);
  }
  if (head !== '') throw unparseable('ls-files --debug', 'record without stat lines', head);
  return out;
}
