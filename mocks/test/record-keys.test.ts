import { describe, expect, it } from 'vitest';
import type { Identity } from '../../spec/collections.js';
import { keyOfBody, keyOfPathSegment } from '../engine/records.js';

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
