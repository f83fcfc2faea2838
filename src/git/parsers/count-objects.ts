import { unparseable } from './nul-records.js';

/** What `git count-objects -v` reports; sizes in bytes (git prints KiB). */
export interface ObjectCounts {
  /** Loose objects, and the bytes they take. */
  loose: number;
  looseBytes: number;
  packs: number;
  packBytes: number;
  /** Files in the object directory that are neither objects nor packs (a killed repack's leftovers). */
  garbageBytes: number;
}

/** Parses `git count-objects -v` (`key: value` lines); a missing key is unparseable. Pure. */
export function parseCountObjects(text: string): ObjectCounts {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-z-]+): (\d+)$/.exec(line.trim());
    if (match) values.set(match[1] as string, Number(match[2]));
  }
  const get = (key: string): number => {
    const value = values.get(key);
    if (value === undefined) throw unparseable('count-objects', `no "${key}" line`, text);
    return value;
  };
  return {
    loose: get('count'),
    looseBytes: get('size') * 1024,
    packs: get('packs'),
    packBytes: get('size-pack') * 1024,
    garbageBytes: get('size-garbage') * 1024,
  };
}
