/**
 * The README and the docs pages hold together: the README is a newcomer's page that opens with the
 * contract's two set-up lines, and every relative link in it and in docs/ names a file that exists
 * and, with `#anchor`, a heading of that page (anchors as GitHub makes them).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import * as z from 'zod';
import { documentationFiles, README, ROOT } from '../helpers/readme.js';

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchor: lower case, punctuation dropped (but - and _), spaces to hyphens. */
export function githubAnchor(heading: string): string {
  const plain = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return plain.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** Every anchor a page defines, duplicates numbered as GitHub numbers them (-1, -2, ...). */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const text = readFileSync(file, 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  for (const m of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = githubAnchor(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function linksOf(file: string): string[] {
  return [...prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
}

describe('the README', () => {
  const text = readFileSync(README, 'utf8');

  it('opens with exactly the two set-up lines of the contract', () => {
    expect(text.split('\n').slice(0, 5)).toEqual([
      '# agentgate-snapshotter',
      '',
      '    npm ci && npm run demo     # the main job, end to end, on a throwaway workspace',
      '    npm ci && npm test         # the whole test suite',
      '',
    ]);
  });

  it('is a newcomer page of at most 300 lines, linking every docs page', () => {
    expect(text.split('\n').length).toBeLessThanOrEqual(300);
    const linked = new Set(linksOf(README).map((l) => l.split('#')[0]));
    for (const page of documentationFiles().slice(1))
      expect(linked, relative(ROOT, page)).toContain(relative(ROOT, page));
  });
});

describe('links in the README and docs/', () => {
  it('each relative link names a file of the repository, and each #anchor a heading of its page', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of documentationFiles()) {
      for (const link of linksOf(file)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
        checked++;
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? file : resolve(dirname(file), decodeURI(path));
        const where = `${relative(ROOT, file)}: ${link}`;
        if (relative(ROOT, target).startsWith('..') || !existsSync(target))
          broken.push(`${where} (no such file)`);
        else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor))
          broken.push(`${where} (no such heading)`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });

  it('anchors are made as GitHub makes them', () => {
    expect(githubAnchor('Attestations: `attest` and `verify --attestation`')).toBe(
      'attestations-attest-and-verify---attestation',
    );
    expect(githubAnchor('What `before` does, exactly')).toBe('what-before-does-exactly');
    expect(githubAnchor('Layout (readable with plain git)')).toBe('layout-readable-with-plain-git');
  });
});

describe('reference tables that must follow the code', () => {
  it('docs/errors.md names every error code the library can throw and every code the CLI prints itself', () => {
    const codes = [
      ...readFileSync(join(ROOT, 'src', 'errors.ts'), 'utf8').matchAll(/code = '([A-Z_]+)'/g),
    ].map((m) => m[1] ?? '');
    expect(codes.length).toBeGreaterThan(40);
    // The CLI's own: the catch-all of an unexpected failure (`report('INTERNAL', ...)`, serve's
    // `{ code: 'INTERNAL' }`) and warnings (`{ code: 'UPKEEP_FAILED', ... }`).
    const cli = readdirSync(join(ROOT, 'src', 'cli'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [
        ...readFileSync(join(ROOT, 'src', 'cli', f), 'utf8').matchAll(
          /(?:code: |report\(\s*)'([A-Z][A-Z_]+)'/g,
        ),
      ])
      .map((m) => m[1] ?? '');
    expect(cli).toEqual(expect.arrayContaining(['INTERNAL', 'UPKEEP_FAILED']));
    const page = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');
    expect([...new Set([...codes, ...cli])].filter((code) => !page.includes(`\`${code}\``))).toEqual([]);
  });

  it('docs/ci.md describes every input and output of the Action (action.yml)', () => {
    const action = z
      .object({ inputs: z.record(z.string(), z.unknown()), outputs: z.record(z.string(), z.unknown()) })
      .parse(parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')));
    const page = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
    const names = [...Object.keys(action.inputs), ...Object.keys(action.outputs)];
    expect(names.filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });

  it("action.yml and docs/ci.md name the same modes for each of the Action's inputs", () => {
    // "finish: ...", "finish and anchor: ...", "finish: ... anchor: ...": the modes an input is for.
    const modesOf = (text: string): string[] =>
      [
        ...text
          .replace(/`/g, '')
          .matchAll(/(?:^|[.;] )((?:setup|finish|anchor)(?: and (?:setup|finish|anchor))*):/g),
      ]
        .flatMap((m) => (m[1] ?? '').split(' and '))
        .sort();
    const inputs = z
      .object({ inputs: z.record(z.string(), z.object({ description: z.string() })) })
      .parse(parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8'))).inputs;
    const rows = new Map<string, string[]>();
    for (const [, names = '', meaning = ''] of readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8').matchAll(
      /^\| (`[a-z-]+`(?: \/ `[a-z-]+`)*) \| [^|]* \| (.*) \|$/gm,
    ))
      for (const name of names.replace(/`/g, '').split(' / ')) rows.set(name, modesOf(meaning));
    const differ = Object.entries(inputs)
      .filter(([name]) => name !== 'mode')
      .map(([name, { description }]) => [name, modesOf(description), rows.get(name)])
      .filter(([, yml, doc]) => JSON.stringify(yml) !== JSON.stringify(doc));
    expect(differ).toEqual([]);
  });
});
