/** The one reading of a list answer's records, as the mock (the spec's shape) and the suite (a provider's answer) take it. */
import { describe, expect, it } from 'vitest';
import { listedItems } from '../operations/list-filters.js';

describe('listedItems', () => {
  const records = [{ id: 1 }, { id: 2 }];

  it('reads the shape the spec declares: a bare array, or the wrapper member, nothing else', () => {
    expect(listedItems(records, undefined)).toBe(records);
    expect(listedItems({ data: records, links: {} }, 'data')).toBe(records);
    expect(listedItems(records, 'data')).toBeUndefined();
    expect(listedItems({ data: records }, undefined)).toBeUndefined();
    expect(listedItems({ data: 'x' }, 'data')).toBeUndefined();
    expect(listedItems('[]', undefined)).toBeUndefined();
  });

  it("reads a provider loosely: a bare array whatever the wrapper, else an object's one array member", () => {
    expect(listedItems(records, 'data', true)).toBe(records);
    expect(listedItems({ items: records, total: 2 }, undefined, true)).toBe(records);
    expect(listedItems({ items: records, total: 2 }, 'data', true)).toBe(records);
    expect(listedItems({ items: records, tags: [] }, undefined, true)).toBeUndefined();
    expect(listedItems({ items: records, tags: [] }, 'items', true)).toBe(records);
    expect(listedItems(null, undefined, true)).toBeUndefined();
  });
});
