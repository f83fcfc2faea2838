import { join, resolve } from 'node:path';
import { Anchor } from '../../types/anchor.js';
import { OBJECT_ID_PATTERN } from '../../types/ids.js';
import { InvalidArgumentError } from '../errors.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { readJsonFile } from '../store/json-file.js';

/**
 * Recorded anchors under the home: `<home>/anchors/<commit>.json`, one file per anchored commit
 * (the full commit id is the name, as in `refs/agentgate/anchors/<commit>`). A new anchor of the
 * same commit replaces the file atomically: the newest computation is the recorded one.
 */
export class AnchorStore {
  readonly dir: string;

  constructor(home: string) {
    this.dir = join(resolve(home), 'anchors');
  }

  path(commit: string): string {
    if (!OBJECT_ID_PATTERN.test(commit))
      throw new InvalidArgumentError(`${JSON.stringify(commit.slice(0, 80))} is not a full commit id`, {
        details: { commit: commit.slice(0, 200) },
      });
    return join(this.dir, `${commit}.json`);
  }

  async save(anchor: Anchor): Promise<string> {
    const file = this.path(anchor.commit);
    await writeJsonAtomic(file, Anchor.parse(anchor));
    return file;
  }

  /** The recorded anchor of `commit`, or null; STORE_CORRUPT when the file is not a valid anchor. */
  async load(commit: string): Promise<Anchor | null> {
    return readJsonFile(this.path(commit), Anchor, 'anchor');
  }
}
