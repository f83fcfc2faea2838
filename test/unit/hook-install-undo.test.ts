/** The splices install keeps so that uninstall gives a file back byte for byte (src/hooks/install/undo.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applySplices, undoSplices } from '../../src/hooks/install/undo.js';

describe('undoSplices', () => {
  it('turns any later text back into the earlier one', () => {
    const line = fc.constantFrom('{\n', '}\n', '  "a": 1,\n', '\r\n', '    ]\n', '', '"x"');
    const text = fc.array(line, { maxLength: 30 }).map((l) => l.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(applySplices(after, undoSplices(before, after))).toBe(before);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps only the bytes that changed, not the file', () => {
    const before = '{\n  "secret": "s3cr3t",\n  "hooks": {\n    "Stop": [\n    ]\n  }\n}';
    const after = before.replace('[\n    ]', '[\n      {"command": "ours"}\n    ]').concat('\n');
    const splices = undoSplices(before, after);
    expect(splices.map((s) => s.text).join('')).toBe('');
    expect(applySplices(after, splices)).toBe(before);
    expect(applySplices('short', [{ at: 3, length: 9, text: '' }])).toBeNull();
  });
});
