import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePoint } from '../generators/code-points.js';

describe("codePoint(): fast-check's 'binary' unit without its table", () => {
  it('draws the same strings as unit "binary" for the same seeds, shrinks included', () => {
    for (const seed of [1, 42, 20_260_101]) {
      const ours = fc.sample(fc.string({ unit: codePoint(), maxLength: 30 }), { seed, numRuns: 300 });
      const theirs = fc.sample(fc.string({ unit: 'binary', maxLength: 30 }), { seed, numRuns: 300 });
      expect(ours).toEqual(theirs);
    }
    // A failing property shrinks to the same counterexample.
    const counterexample = (unit: fc.Arbitrary<string> | 'binary'): unknown =>
      fc.check(
        fc.property(fc.string({ unit, minLength: 1, maxLength: 8 }), (text) => ![...text].some((c) => c.codePointAt(0)! > 0xffff)),
        { seed: 7, numRuns: 2000 },
      ).counterexample;
    expect(counterexample(codePoint())).toEqual(counterexample('binary'));
  });

  it('recognises the strings fast-check starts from (its dangerous strings) exactly as unit "binary" does', () => {
    // fast-check reads these through the unit's inverse: a string of one code point, never a lone surrogate or two code points.
    const arbitrary = codePoint();
    for (const text of ['a', '\u0000', '\ud7ff', '\ue000', '\u{10ffff}', '🌵']) expect(arbitrary.canShrinkWithoutContext(text)).toBe(true);
    for (const text of ['', 'ab', '\ud800', '\udfff', '🌵a', 1]) expect(arbitrary.canShrinkWithoutContext(text)).toBe(false);
  });
});
