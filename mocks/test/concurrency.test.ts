/** Simultaneous creates: one winner per id, every distinct id kept. */
import { describe, expect, it } from 'vitest';
import { createPlant, freshId, listedPlantsText, useMock } from './mock-under-test.js';

const mock = useMock();

describe('concurrent creates', () => {
  it('gives exactly one 200 and 49 409s for 50 simultaneous creates of one new id', async () => {
    const id = freshId();
    const statuses = await Promise.all(Array.from({ length: 50 }, (_, i) => createPlant(mock.current, { id, name: `racer ${i}` }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
  });

  it('keeps all of 200 simultaneous creates of distinct ids', async () => {
    const ids = Array.from({ length: 200 }, freshId);
    const statuses = await Promise.all(ids.map((id) => createPlant(mock.current, { id, name: `p${id}` }).then((r) => r.status)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    const listed = await listedPlantsText(mock.current);
    for (const id of ids) expect(listed).toContain(`{"id":${id},"name":"p${id}"}`);
  });
});
