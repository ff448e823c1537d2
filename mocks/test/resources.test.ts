/**
 * The operations a spec declares over the records the mock stores: created by POST /plants, then
 * read, replaced, merged and deleted at /plants/{id} — served from the same store, ids exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSpecVariant } from '../../openapi/test/variants.js';
import { createMockServer, type MockServer } from '../server.js';
import { expectError, freshId, listedPlantsText, send } from './mock-under-test.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ port: 0, logLevel: 'silent', spec: writeSpecVariant('item-operations') });
});
afterAll(() => mock?.close());

const call = (method: string, path: string, body?: unknown, contentType: string | null = 'application/json') =>
  send(mock, path, body, { method, contentType: body === undefined ? null : contentType });

describe('records served from the store by the operations the spec declares', () => {
  it('recognises every operation over the collection', () => {
    expect(Object.fromEntries([...mock.engine.stateful].map(([id, { role }]) => [id, role]))).toEqual({
      createPlant: 'create',
      listPlants: 'list',
      getPlant: 'read',
      replacePlant: 'replace',
      updatePlant: 'patch',
      deletePlant: 'delete',
    });
  });

  it('replaces a record in place, keeps its id and its place in the listing', async () => {
    const [first, second] = [freshId(), freshId()];
    await call('POST', '/plants', { id: first, name: 'first', tag: 'a' });
    await call('POST', '/plants', { id: second, name: 'second' });
    const replaced = await call('PUT', `/plants/${first}`, { name: 'renamed' });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toStrictEqual({ name: 'renamed' });
    const listed = await listedPlantsText(mock);
    expect(listed.indexOf(`"id":${first}`)).toBeLessThan(listed.indexOf(`"id":${second}`));
    expect((await call('GET', `/plants/${first}`)).text).toBe(`{"id":${first},"name":"renamed"}`);
  });

  it('lists the whole collection over many store pages, each record once and in creation order, exact ids', async () => {
    await call('DELETE', '/__mock/plants');
    expect((await call('GET', '/plants')).text).toBe('[]');
    const seeded = Array.from({ length: 2345 }, (_, i) => `{"id":${9223372036854775807n - BigInt(i)},"name":"p${i}"}`);
    expect((await call('POST', '/__mock/plants', `[${seeded.join(',')}]`)).status).toBe(200);
    const listed = await call('GET', '/plants');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('content-type')).toBe('application/json');
    expect(listed.text).toBe(`[${seeded.join(',')}]`);
  });

  it('refuses a replacement whose body names another id', async () => {
    const id = freshId();
    await call('POST', '/plants', { id, name: 'x' });
    expect(expectError(await call('PUT', `/plants/${id}`, { id: id + 1, name: 'y' }), 400)).toContain(`The path names id ${id} but the body says ${id + 1}`);
  });

  it('merges a patch (RFC 7396: null removes) in the media type the spec declares', async () => {
    const id = freshId();
    await call('POST', '/plants', { id, name: 'Ficus', tag: 'indoor' });
    expectError(await call('PATCH', `/plants/${id}`, { name: 'x' }), 415);
    const patched = await call('PATCH', `/plants/${id}`, { tag: null, name: 'Ficus lyrata' }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.json).toStrictEqual({ name: 'Ficus lyrata' });
    expect(expectError(await call('PATCH', `/plants/${id}`, { name: 5 }, 'application/merge-patch+json'), 400)).toContain('name must be a string');
  });

  it('deletes a record (204), after which it is gone and its id free again', async () => {
    const id = 9223372036854775807n - BigInt(freshId() % 100_000);
    await call('POST', '/plants', `{"id":${id},"name":"short-lived"}`);
    const deleted = await call('DELETE', `/plants/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await call('GET', `/plants/${id}`), 404);
    expectError(await call('DELETE', `/plants/${id}`), 404);
    expect((await call('POST', '/plants', `{"id":${id},"name":"again"}`)).status).toBe(200);
  });

  it('answers 404 in the Error shape for an id never stored, for every item operation', async () => {
    for (const [method, body, type] of [['GET'], ['PUT', { name: 'x' }], ['PATCH', { name: 'x' }, 'application/merge-patch+json'], ['DELETE']] as const) {
      expect(expectError(await call(method, '/plants/424242', body, type), 404)).toContain('No plant with id 424242 is stored');
    }
  });
});
