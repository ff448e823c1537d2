/** The hand-written scan that picks JSON.parse or the lossless parser decides exactly as the regex it replaced. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { needsExactParse } from '../exact-json.js';

const REGEX = /\d{16}|\d[eE.]/;
// Mostly digits and the characters that matter, so long digit runs and exponents are common.
const jsonish = fc.string({ unit: fc.constantFrom(...'0123456789eE.-+ ,:{}[]"a'.split('')), maxLength: 60 });

describe('needsExactParse', () => {
  it('agrees with /\\d{16}|\\d[eE.]/ on any text', () => {
    fc.assert(fc.property(fc.oneof(jsonish, fc.string()), (text) => needsExactParse(text) === REGEX.test(text)), { numRuns: 2000 });
  });

  it.each([
    ['{"id":123456789012345,"name":"x"}', false], // 15 digits: JSON.parse is exact
    ['{"id":1234567890123456,"name":"x"}', true], // 16 digits
    ['{"id":1e3}', true],
    ['{"id":1.0}', true],
    ['{"id":-5,"name":"e.g."}', false],
  ])('%s → %s', (text, expected) => expect(needsExactParse(text)).toBe(expected));
});
