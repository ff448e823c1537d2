/**
 * The one-pass scan that lets JSON.parse read a body when no number of it can be read inexactly,
 * and that checks the nesting on the way.
 */
import fc from 'fast-check';
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { JsonTooDeep, MAX_JSON_DEPTH, needsExactParse } from '../exact-json.js';

const REGEX = /\d{16}|\d[eE.]/;
// Mostly digits and the characters that matter, so long digit runs and exponents are common.
const jsonish = fc.string({ unit: fc.constantFrom(...'0123456789eE.-+ ,:{}[]a'.split('')), maxLength: 60 });
/** JSON documents whose numbers are often long, fractional or with exponents. */
const numberHeavyJson = fc
  .json({
    depthSize: 'small',
  })
  .chain((text) =>
    fc.constantFrom(
      text,
      text.replace(/[1-9]\d*/g, (digits) => `${digits}${digits}${digits}`),
    ),
  );

describe('needsExactParse', () => {
  it('agrees with /\\d{16}|\\d[eE.]/ on text without strings', () => {
    fc.assert(
      fc.property(jsonish, (text) => needsExactParse(text) === REGEX.test(text)),
      { numRuns: 2000 },
    );
  });

  it('when it says no, JSON.parse reads every number exactly', () => {
    fc.assert(
      fc.property(numberHeavyJson, (text) => {
        if (needsExactParse(text)) return;
        const exact = JSON.stringify(parseLossless(text, null, { onDuplicateKey: ({ newValue }) => newValue }), (_key, value) => (isLosslessNumber(value) ? Number(value.value) : value));
        expect(JSON.stringify(JSON.parse(text))).toBe(exact);
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['{"id":123456789012345,"name":"x"}', false], // 15 digits: JSON.parse is exact
    ['{"id":1234567890123456,"name":"x"}', true], // 16 digits
    ['{"id":1e3}', true],
    ['{"id":1.0}', true],
    ['{"id":-5,"name":"e.g."}', false],
    ['{"id":5,"name":"1.5 cm, 1234567890123456"}', false], // inside a string: not a number
    ['{"id":5,"name":"quote \\" then 1.5"}', false],
  ])('%s → %s', (text, expected) => expect(needsExactParse(text)).toBe(expected));

  it(`throws JsonTooDeep past ${MAX_JSON_DEPTH} levels, counting only brackets outside strings`, () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(needsExactParse(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(() => needsExactParse(nested(MAX_JSON_DEPTH + 1))).toThrow(JsonTooDeep);
    expect(() => needsExactParse(`{"a":${nested(MAX_JSON_DEPTH)}}`)).toThrow(JsonTooDeep);
    expect(needsExactParse(`["${'['.repeat(5000)}"]`)).toBe(false);
  });
});
