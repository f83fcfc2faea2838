import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Anchor } from '../../types/anchor.js';
import { OBJECT_ID_PATTERN, OBJECT_ID_SOURCE } from '../../types/ids.js';
import { InvalidArgumentError, StoreCorruptError } from '../errors.js';
import { checkArgument, checkDirArgument } from '../arguments.js';
import { TextArg } from '../../types/library.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { corruptFile, readJsonFile } from '../store/json-file.js';
import { layout } from '../store/paths.js';

const ANCHOR_FILE = new RegExp(`^(${OBJECT_ID_SOURCE})\\.json$`);

/**
 * Recorded anchors under the home: `<home>/anchors/<commit>.json`, one file per anchored commit
 * (the full commit id is the name, as in `refs/agentgate/anchors/<commit>`). A new anchor of the
 * same commit replaces the file atomically: the newest computation is the recorded one.
 */
export class AnchorStore {
  readonly dir: string;

  constructor(home: string) {
    this.dir = layout(resolve(checkDirArgument(home, 'home'))).anchors;
  }

  path(commit: string): string {
    if (typeof commit !== 'string') checkArgument(TextArg, commit, 'commit');
    if (!OBJECT_ID_PATTERN.test(commit))
      throw new InvalidArgumentError(`${JSON.stringify(commit.slice(0, 80))} is not a full commit id`, {
        details: { commit: commit.slice(0, 200) },
      });
    return join(this.dir, `${commit}.json`);
  }

  async save(anchor: Anchor): Promise<string> {
    const file = this.path(checkArgument(Anchor, anchor, 'anchor').commit);
    await writeJsonAtomic(file, Anchor.parse(anchor));
    return file;
  }

  /**
   * The recorded anchor of `commit`, or null; STORE_CORRUPT when the file is not a valid anchor
   * or is the anchor of another commit (it would travel under the wrong ref).
   */
  async load(commit: string): Promise<Anchor | null> {
    const path = this.path(commit);
    const anchor = await readJsonFile(path, Anchor, 'anchor');
    if (anchor !== null && anchor.commit !== commit)
      throw corruptFile(path, 'anchor', `it is the anchor of commit ${anchor.commit}, not of ${commit}`);
    return anchor;
  }

  /**
   * The commits that have a recorded anchor file, sorted. STORE_CORRUPT when the directory is there
   * but cannot be read (a file in its place): `verify --all` and `export` must not take it for none.
   */
  async commits(): Promise<string[]> {
    const names = await readdir(this.dir).catch((cause: unknown) => {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return [] as string[];
      throw corruptFile(this.dir, 'store directory', `unreadable (${code ?? String(cause)})`, cause);
    });
    return names.flatMap((n) => ANCHOR_FILE.exec(n)?.[1] ?? []).sort();
  }

  /** Every recorded anchor file that does not load (`verify --all`), as the error `load` gives. */
  async problems(): Promise<StoreCorruptError[]> {
    const out: StoreCorruptError[] = [];
    for (const commit of await this.commits())
      await this.load(commit).catch((error: unknown) => {
        if (!(error instanceof StoreCorruptError)) throw error;
        out.push(error);
      });
    return out;
  }
}
