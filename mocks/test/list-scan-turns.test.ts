/**
 * A filtered list reads the whole collection (no index), a bounded number of records per
 * event-loop turn: the health check is answered while a list over a big store is still being
 * read. Proved by events, not timings: the scan reports each turn it gives, the health answer
 * arrives while the list has turns left, and the list still answers every matching record after.
 */
import { describe, expect, it } from 'vitest';
import { useMockForSpec } from './mock-under-test.js';

const note = { type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer' }, title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const spec = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes': {
      post: { operationId: 'createNote', requestBody: { required: true, ...json(note) }, responses: { '201': { description: 'made', ...json(note) } } },
      get: {
        operationId: 'listNotes',
        parameters: [{ name: 'tag', in: 'query', schema: { type: 'string' } }],
        responses: { '200': { description: 'notes', ...json({ type: 'array', items: note }) } },
      },
    },
  },
};

const RECORDS = 3000;
const PER_TURN = 2;
let turns = 0;
const mock = useMockForSpec(spec, { scan: { recordsPerTurn: PER_TURN, yielded: () => void turns++ } });

describe('a filtered list over a big store', () => {
  it('gives the loop a turn every few records: health is answered while the list is read', async () => {
    const notes = Array.from({ length: RECORDS }, (_, i) => ({ id: i + 1, title: `n${i}`, tags: i % 1000 === 0 ? ['x'] : ['y'] }));
    const seeded = await fetch(`${mock.current.url}/__mock/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(notes) });
    expect(seeded.status).toBe(200);

    let listed = false;
    const list = fetch(`${mock.current.url}/notes?tag=x`)
      .then((response) => response.json())
      .then((body) => {
        listed = true;
        return body;
      });
    // The first turn the scan gives (or the list's end, had it given none).
    for (let wait = 0; turns === 0 && !listed && wait < 10_000; wait++) await new Promise((resolve) => setImmediate(resolve));
    expect(listed).toBe(false);
    expect(turns).toBeGreaterThan(0);

    const health = await fetch(`${mock.current.url}/__mock/health`);
    expect(health.status).toBe(200);
    const turnsAtHealth = turns;
    // Answered with most of the store still to read.
    expect(listed).toBe(false);
    expect(turnsAtHealth).toBeLessThan(RECORDS / PER_TURN);

    expect(await list).toEqual([1, 1001, 2001].map((id) => ({ id, title: `n${id - 1}`, tags: ['x'] })));
    expect(turns).toBeGreaterThanOrEqual(RECORDS / PER_TURN - 1);
  });
});
