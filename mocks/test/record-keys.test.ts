import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Identity } from '../../openapi/operations/collections.js';
import { integerOfLiteral } from '../../openapi/schema/exact-json.js';
import { isCanonicalInteger, keyOfBody, keyOfPathSegment } from '../engine/records.js';

// A record created with a body must be found again at the item path that names it.
describe('a path segment names the key its body gave', () => {
  const cases: Array<[Identity['type'], unknown, string]> = [
    ['integer', 42, '42'],
    ['string', 'fern-1', 'fern-1'],
    ['string', '42', '42'],
    ['other', 42, '42'],
    ['other', 'fern-1', 'fern-1'],
    ['other', -7, '-7'],
  ];
  it.each(cases)('%s identity: body value %s, segment %s', (type, value, segment) => {
    const identity: Identity = { property: 'id', type };
    expect(keyOfPathSegment(segment, identity)).toBe(keyOfBody({ id: value }, identity));
  });

  it('an integer identity refuses a segment that is no integer', () => {
    expect(keyOfPathSegment('fern', { property: 'id', type: 'integer' })).toBeUndefined();
  });
});

// The fast path for canonical digits must name the key the general reading names.
describe('isCanonicalInteger: digits that are the key as written', () => {
  it.each([
    ['0', true],
    ['7', true],
    ['-7', true],
    ['9223372036854775807', true],
    ['-9223372036854775808', true],
    ['9'.repeat(40), true],
    ['9'.repeat(41), false],
    ['-0', false],
    ['007', false],
    ['-', false],
    ['', false],
    ['1.0', false],
    ['1e3', false],
    ['+1', false],
    [' 1', false],
    ['1-', false],
  ])('%j: %s', (text, canonical) => {
    expect(isCanonicalInteger(text)).toBe(canonical);
  });

  it('an integer identity keys a segment as integerOfLiteral reads it, whatever the segment', () => {
    const identity: Identity = { property: 'id', type: 'integer' };
    const general = (segment: string): string | undefined => (/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(segment) ? integerOfLiteral(segment)?.toString() : undefined);
    const segments = fc.oneof(fc.bigInt({ min: -(10n ** 45n), max: 10n ** 45n }).map(String), fc.stringMatching(/^-?[0-9]{0,44}(\.[0-9]{1,3})?(e[0-9])?$/), fc.string());
    fc.assert(fc.property(segments, (segment) => keyOfPathSegment(segment, identity) === general(segment)));
    for (const segment of ['9'.repeat(40), '9'.repeat(41), '1' + '0'.repeat(40), '-0', '007']) expect(keyOfPathSegment(segment, identity)).toBe(general(segment));
  });
});
