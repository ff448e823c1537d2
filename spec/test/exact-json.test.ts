/** Exact JSON: int64 decisions and ids are taken on a literal's real digits, never on a rounded double. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSpecAjv } from '../ajv.js';
import { exactInteger, integerOfLiteral, isInt64, parseExactJson } from '../exact-json.js';

const int64 = createSpecAjv().compile({ type: 'integer', format: 'int64' });
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Integers concentrated around the places where doubles lose digits. */
const interestingIntegers = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.bigInt({ min: INT64_MAX - 5000n, max: INT64_MAX + 5000n }),
  fc.bigInt({ min: INT64_MIN - 5000n, max: INT64_MIN + 5000n }),
  fc.bigInt({ min: 2n ** 53n - 10n, max: 2n ** 53n + 10n }),
);

describe('parseExactJson', () => {
  it('judges int64 on the exact value and reads the id back exactly', () => {
    fc.assert(
      fc.property(interestingIntegers, (n) => {
        const value = parseExactJson(`{"id":${n}}`) as { id: number };
        expect(int64(value.id)).toBe(isInt64(n));
        expect(exactInteger(value, 'id')).toBe(n);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with JSON.parse on everything that is not a number', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const exact = parseExactJson(text);
        const plain = JSON.parse(text);
        expect(JSON.stringify(exact, (_k, v) => (typeof v === 'number' ? 0 : v))).toBe(
          JSON.stringify(plain, (_k, v) => (typeof v === 'number' ? 0 : v)),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the last of duplicate keys on both paths, as JSON.parse does', () => {
    expect(parseExactJson('{"id":1,"id":2}')).toEqual({ id: 2 });
    const slow = parseExactJson('{"id":1.5,"id":9223372036854775807}') as object;
    expect(exactInteger(slow, 'id')).toBe(INT64_MAX);
  });

  it('throws a SyntaxError with a position on malformed text, on both paths', () => {
    expect(() => parseExactJson('{"id":1,')).toThrow(SyntaxError);
    expect(() => parseExactJson('{"id":1.5,')).toThrow(SyntaxError);
  });
});

describe('integerOfLiteral', () => {
  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['1.0', 1n],
    ['1e3', 1000n],
    ['12.50e1', 125n],
    ['1.5', undefined],
    ['1e-1', undefined],
    ['100e-2', 1n],
    ['9223372036854775807.000', INT64_MAX],
  ])('reads %s as %s', (text, expected) => {
    expect(integerOfLiteral(text)).toBe(expected);
  });

  it('does not spend unbounded work on a huge exponent', () => {
    const value = integerOfLiteral('1e100000000') as bigint;
    expect(isInt64(value)).toBe(false);
  });
});
