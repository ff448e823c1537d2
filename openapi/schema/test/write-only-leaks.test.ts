/**
 * A provider's answer of a large list leaking a writeOnly property in every item is reported, not
 * a RangeError: the pointers were gathered with push(...list), one argument per item (issue 39,
 * found beside item 9).
 */
import { describe, expect, it } from 'vitest';
import { writeOnlyLeaks } from '../../judge/write-only.js';

describe('writeOnly leaks in a large answer', () => {
  it('lists the pointer of every leaked property of 200,000 items', () => {
    const schema = { type: 'object', properties: { users: { type: 'array', items: { type: 'object', properties: { password: { type: 'string', writeOnly: true } } } } } };
    const answer = { users: Array.from({ length: 200_000 }, () => ({ password: 'p' })) };
    const leaks = writeOnlyLeaks(answer, schema);
    expect(leaks).toHaveLength(200_000);
    expect(leaks[199_999]).toBe('/users/199999/password');
  });
});
