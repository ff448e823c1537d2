/**
 * PATCH sent as `application/json-patch+json` (RFC 6902) on a stored record, beside the merge
 * patch (RFC 7396, nested objects merged) the same operation takes: the operations applied in
 * order, numbers exact, all or nothing.
 */
import { describe, expect, it } from 'vitest';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

const SPEC = `
openapi: 3.1.0
info: {title: Gadgets, version: "1"}
paths:
  /gadgets:
    post:
      operationId: createGadget
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Gadget'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Gadget'}
  /gadgets/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer}}
    get:
      operationId: getGadget
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Gadget'}
    patch:
      operationId: patchGadget
      requestBody:
        required: true
        content:
          application/merge-patch+json:
            schema: {type: object}
          application/json-patch+json:
            schema:
              type: array
              items: {type: object, required: [op, path]}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Gadget'}
components:
  schemas:
    Gadget:
      type: object
      required: [name]
      properties:
        id: {type: integer, format: int64, readOnly: true}
        name: {type: string}
        serial: {type: integer, format: int64}
        tags: {type: array, items: {type: string}}
        dims:
          type: object
          required: [w]
          properties:
            w: {type: integer, format: int64}
            h: {type: integer}
            unit: {type: [string, 'null']}
`;

const JSON_PATCH = 'application/json-patch+json';

describe('PATCH with a JSON Patch', () => {
  const mock = useMockForSpec(SPEC);

  it('applies the operations in order, int64 numbers exact, and serves the result back', async () => {
    const created = await send(mock.current, '/gadgets', '{"name":"lamp","serial":9007199254740993,"tags":["a","c"]}');
    expect(created.status).toBe(201);
    const operations = [
      { op: 'test', path: '/name', value: 'lamp' },
      { op: 'replace', path: '/name', value: 'desk lamp' },
      { op: 'add', path: '/tags/1', value: 'b' },
      { op: 'add', path: '/tags/-', value: 'd' },
      { op: 'remove', path: '/tags/0' },
    ];
    const patched = await send(mock.current, '/gadgets/1', operations, { method: 'PATCH', contentType: JSON_PATCH });
    const expected = '{"id":1,"name":"desk lamp","serial":9007199254740993,"tags":["b","c","d"]}';
    expect([patched.status, patched.text]).toEqual([200, expected]);
    const read = await sendGet(mock.current, '/gadgets/1');
    expect(read.text).toBe(expected);
    // A number sent in an operation keeps its digits too.
    const serial = await send(mock.current, '/gadgets/1', '[{"op":"replace","path":"/serial","value":9223372036854775807}]', { method: 'PATCH', contentType: JSON_PATCH });
    expect(serial.text).toContain('"serial":9223372036854775807');
  });

  it('refuses a patch whose test fails or whose path is not there, and changes nothing', async () => {
    await send(mock.current, '/gadgets', { name: 'fan' });
    const before = (await sendGet(mock.current, '/gadgets/2')).text;
    const failedTest = await send(
      mock.current,
      '/gadgets/2',
      [
        { op: 'replace', path: '/name', value: 'x' },
        { op: 'test', path: '/name', value: 'fan' },
      ],
      { method: 'PATCH', contentType: JSON_PATCH },
    );
    expect(failedTest.status).toBe(400);
    expect(failedTest.json.message).toContain('operation 1 (test /name) failed');
    const missing = await send(mock.current, '/gadgets/2', [{ op: 'replace', path: '/colour', value: 'x' }], { method: 'PATCH', contentType: JSON_PATCH });
    expect(missing.status).toBe(400);
    expect(missing.json.message).toContain('/colour');
    const unnamed = await send(mock.current, '/gadgets/2', [{ op: 'remove', path: '/name' }], { method: 'PATCH', contentType: JSON_PATCH });
    expect(unnamed.status).toBe(400);
    expect(unnamed.json.message).toContain('name is required');
    expect((await sendGet(mock.current, '/gadgets/2')).text).toBe(before);
  });

  it('still takes a merge patch on the same operation', async () => {
    await send(mock.current, '/gadgets', { name: 'bulb', tags: ['x'] });
    const merged = await send(mock.current, '/gadgets/3', { tags: null, name: 'led' }, { method: 'PATCH', contentType: 'application/merge-patch+json' });
    expect([merged.status, merged.json]).toEqual([200, { id: 3, name: 'led' }]);
  });

  it('merges a merge patch into nested objects (RFC 7396), null removing a nested member', async () => {
    await send(mock.current, '/gadgets', '{"name":"box","dims":{"w":9007199254740993,"h":2,"unit":"cm"}}');
    const merged = await send(mock.current, '/gadgets/4', { dims: { h: 3, unit: null } }, { method: 'PATCH', contentType: 'application/merge-patch+json' });
    const expected = '{"id":4,"name":"box","dims":{"w":9007199254740993,"h":3}}';
    expect([merged.status, merged.text]).toEqual([200, expected]);
    expect((await sendGet(mock.current, '/gadgets/4')).text).toBe(expected);
  });

  it('refuses a patch whose copies would grow the record past the bound, at once and changing nothing', async () => {
    await send(mock.current, '/gadgets', { name: 'seed', tags: ['a'] });
    const before = (await sendGet(mock.current, '/gadgets/5')).text;
    // Each copy of the array into itself doubles it: 40 of them would be a trillion values.
    const doubling = Array.from({ length: 40 }, () => ({ op: 'copy', from: '/tags', path: '/tags/-' }));
    const refused = await send(mock.current, '/gadgets/5', doubling, { method: 'PATCH', contentType: JSON_PATCH });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/operation \d+ \(copy \/tags\/-\) would add more than 100000 values to the record/);
    // A failed test quotes a bounded start of what it found.
    const tested = await send(mock.current, '/gadgets/5', [...doubling.slice(0, 12), { op: 'test', path: '', value: {} }], { method: 'PATCH', contentType: JSON_PATCH });
    expect(tested.status).toBe(400);
    expect(tested.text.length).toBeLessThan(400);
    expect((await sendGet(mock.current, '/gadgets/5')).text).toBe(before);
  });

  it('refuses a patch that would shift more array items than the bound, changing nothing', async () => {
    const created = await send(mock.current, '/gadgets', { name: 'long', tags: Array.from({ length: 100_000 }, () => 't') });
    expect(created.status).toBe(201);
    const id = String(created.json.id);
    // Each insert at the front shifts every item: 200 of them, 20 million shifts.
    const inserts = Array.from({ length: 200 }, () => ({ op: 'add', path: '/tags/0', value: 'x' }));
    const refused = await send(mock.current, `/gadgets/${id}`, inserts, { method: 'PATCH', contentType: JSON_PATCH });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/operation \d+ \(add \/tags\/0\) shifts more than 10000000 array items/);
    const appended = await send(
      mock.current,
      `/gadgets/${id}`,
      inserts.map((op) => ({ ...op, path: '/tags/-' })),
      { method: 'PATCH', contentType: JSON_PATCH },
    );
    expect([appended.status, appended.json.tags.length]).toEqual([200, 100_200]);
  });
});

describe('JSON Patch on a record holding a large array (issue 39, item 9)', () => {
  const mock = useMockForSpec(SPEC, { maxBody: 4 * 1024 * 1024 });

  // 300,000 tags were stored (201), and every patch then answered 500 RangeError: the patch counted
  // the record's values with push(...array), one argument per item.
  it('patches it, a member beside the array and the array itself', async () => {
    const created = await send(mock.current, '/gadgets', { name: 'crowded', tags: Array.from({ length: 300_000 }, () => '') });
    expect(created.status, created.text.slice(0, 200)).toBe(201);
    const id = (created.json as { id: number }).id;
    const renamed = await send(mock.current, `/gadgets/${id}`, [{ op: 'add', path: '/name', value: 'renamed' }], { method: 'PATCH', contentType: JSON_PATCH });
    expect(renamed.status, renamed.text.slice(0, 200)).toBe(200);
    const tagged = await send(mock.current, `/gadgets/${id}`, [{ op: 'add', path: '/tags/-', value: 'last' }], { method: 'PATCH', contentType: JSON_PATCH });
    expect(tagged.status, tagged.text.slice(0, 200)).toBe(200);
    const stored = (await sendGet(mock.current, `/gadgets/${id}`)).json as { name: string; tags: string[] };
    expect(stored.name).toBe('renamed');
    expect(stored.tags).toHaveLength(300_001);
    expect(stored.tags.at(-1)).toBe('last');
  });
});
