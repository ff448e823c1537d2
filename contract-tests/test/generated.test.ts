/**
 * The generated cases, checked without a network: across many seeds every positive is a
 * NewPlant and every negative is not (by the spec's own validator), ids are distinct, and a
 * seed reproduces the same shapes while the ids stay fresh.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createIdSource } from '../../fixtures/index.js';
import { generateBodies } from '../generated.js';
import { createPlantContract } from '../spec-contract.js';

const { validateNewPlant } = createPlantContract();
const generate = (seed: number, count = 25) => generateBodies({ seed, positive: count, negative: count, ids: createIdSource(), validateNewPlant });

describe('generated cases', () => {
  it('agree with the spec for any seed (generateBodies throws on a disagreement)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const { positive, negative } = generate(seed, 40);
        expect(positive).toHaveLength(40);
        expect(negative).toHaveLength(40);
      }),
      { numRuns: 40 },
    );
  });

  it('never repeat an id within a run, and draw fresh ids on every run with the same seed', () => {
    const idOf = (text: string) => /"id":(-?\d+)/.exec(text)?.[1];
    const first = generate(7).positive.map((b) => idOf(b.text));
    const second = generate(7).positive.map((b) => idOf(b.text));
    expect(new Set(first).size).toBe(first.length);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
  });

  it('reproduce the same names, tags and mutations from the same seed', () => {
    const shape = (seed: number) => {
      const { positive, negative } = generate(seed);
      return [...positive.map((b) => b.plant), ...negative.map((b) => b.label)];
    };
    expect(shape(123)).toEqual(shape(123));
    expect(shape(123)).not.toEqual(shape(124));
  });

  it('cover empty names, non-ASCII names, missing tags, ids beyond 2^53 and every kind of mutation', () => {
    const { positive, negative } = generate(99, 200);
    expect(positive.some((b) => b.plant?.name === '')).toBe(true);
    expect(positive.some((b) => /[^\x00-\x7f]/.test(b.plant?.name ?? ''))).toBe(true);
    expect(positive.some((b) => b.plant?.tag === undefined)).toBe(true);
    expect(positive.some((b) => BigInt(/"id":(-?\d+)/.exec(b.text)?.[1] ?? 0) > 2n ** 53n)).toBe(true);
    expect(new Set(negative.map((b) => b.label))).toEqual(
      new Set([
        'missing-id', 'missing-name', 'id-as-string', 'id-fraction', 'id-int64-overflow', 'id-int64-underflow',
        'id-exponent-beyond-int64', 'id-wrong-type', 'name-wrong-type', 'tag-wrong-type',
        'body-null', 'body-array', 'body-string', 'body-number', 'truncated',
      ]),
    );
  });
});
