/**
 * The one module that imports zod at run time: its tree-shakable functional API (`zod/mini`), which
 * every CLI process loads and builds our schemas with much faster than the classic bundle. Import it
 * as `import * as z from './zod.js'` (a namespace import, so that a bundler keeps only what is used).
 *
 * Classic zod loads the English messages when it builds its first schema; zod/mini loads no locale,
 * and its messages would all be "Invalid input". Configured here, before any schema is built (every
 * schema module imports this one), so that messages read exactly as they did.
 *
 * Classic zod also installs its memoizer, which only schemas that can re-enter themselves (z.lazy,
 * getters) use and which takes itself out of every other schema on its first parse. None of ours can
 * re-enter itself, so it is left out; a recursive schema added here would need
 * `config({ memoizer: memoizer() })` to parse cyclic input as classic zod does.
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// As classic zod does it: only when no locale was configured (an explicit choice wins).
if (!config().localeError) config(en());

export * from 'zod/mini';

/**
 * A schema built when it is first used, not when its module is loaded. Building a zod schema runs
 * a constructor per node, and every CLI process loads the schemas of each module it imports, most
 * of which it never parses with (`runs` on an empty home parses nothing). The proxy forwards
 * everything to the schema, so it composes, parses and infers exactly as the schema does.
 */
export function deferred<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    // Reported configurable: a proxy may not report a non-configurable property its own target lacks.
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(schema(), key);
      return found === undefined ? undefined : { ...found, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
