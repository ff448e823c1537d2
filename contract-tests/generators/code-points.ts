/**
 * One code point of any plane, lone surrogates excepted: what fast-check's `unit: 'binary'` draws,
 * index for index (the same `nat` over the same order, so the same seed gives the same strings and
 * the same shrinks), without its cost. fast-check builds that unit's reverse map of all 1 112 064
 * code points the first time a string of it is made (about 2 s of CPU), and does so again in every
 * test file, each of which evaluates fast-check afresh; here the reverse is arithmetic.
 */
import fc from 'fast-check';

const SURROGATES_FROM = 0xd800;
const SURROGATES = 0xe000 - SURROGATES_FROM;
const LAST_INDEX = 0x10ffff - SURROGATES;

function toCodePoint(index: number): string {
  return String.fromCodePoint(index < SURROGATES_FROM ? index : index + SURROGATES);
}

/** The index `toCodePoint` took, for fast-check to shrink a value it did not draw; throws on anything but one code point. */
function toIndex(value: unknown): number {
  const point = typeof value === 'string' ? value.codePointAt(0) : undefined;
  if (point === undefined || String.fromCodePoint(point) !== value || (point >= SURROGATES_FROM && point < SURROGATES_FROM + SURROGATES)) {
    throw new Error('not one code point outside the surrogates');
  }
  return point < SURROGATES_FROM ? point : point - SURROGATES;
}

/** The unit for `fc.string({ unit: codePoint() })`. */
export function codePoint(): fc.Arbitrary<string> {
  return fc.nat({ max: LAST_INDEX }).map(toCodePoint, toIndex);
}
