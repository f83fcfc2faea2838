/**
 * The diff renderer's browser bundle and stylesheet, inlined into every HTML report. The action's
 * bundler replaces this module with one holding the two texts, so the action needs no node_modules.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

export interface ReportAssets {
  diff2htmlJs: string;
  diff2htmlCss: string;
}

let cached: Promise<ReportAssets> | null = null;

export function loadAssets(): Promise<ReportAssets> {
  cached ??= (async () => {
    const require = createRequire(import.meta.url);
    const [diff2htmlJs, diff2htmlCss] = await Promise.all([
      readFile(require.resolve('diff2html/bundles/js/diff2html.min.js'), 'utf8'),
      readFile(require.resolve('diff2html/bundles/css/diff2html.min.css'), 'utf8'),
    ]);
    return { diff2htmlJs, diff2htmlCss };
  })();
  return cached;
}
