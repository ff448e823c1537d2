/**
 * Deleting a record takes its nested records with it, at every depth, over real HTTP: gone from the
 * API, from the `/__mock` listing, and not back when the parent's id is created again.
 */
import { describe, expect, it } from 'vitest';
import { call } from './corpus.js';
import { useMockForSpec } from './mock-under-test.js';

const record = (...names: string[]) => ({ type: 'object', required: names, properties: Object.fromEntries(names.map((n) => [n, n === 'id' ? { type: 'integer' } : { type: 'string' }])) });
const id = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer' } });
const ok = (schema: unknown, status = '200') => ({ [status]: { description: 'ok', content: { 'application/json': { schema } } } });
const collection = (prefix: string, noun: string, params: ReturnType<typeof id>[], item: string) => ({
  [prefix]: {
    parameters: params,
    post: { operationId: `create${noun}`, requestBody: { required: true, content: { 'application/json': { schema: record('id', 'name') } } }, responses: ok(record('id', 'name'), '201') },
    get: { operationId: `list${noun}`, responses: ok({ type: 'array', items: record('id', 'name') }) },
  },
  [`${prefix}/{${item}}`]: {
    parameters: [...params, id(item)],
    get: { operationId: `get${noun}`, responses: ok(record('id', 'name')) },
    delete: { operationId: `delete${noun}`, responses: { '204': { description: 'gone' } } },
  },
});
const spec = {
  openapi: '3.1.0',
  info: { title: 'Owners', version: '1' },
  paths: {
    ...collection('/owners', 'Owner', [], 'ownerId'),
    ...collection('/owners/{ownerId}/pets', 'Pet', [id('ownerId')], 'petId'),
    ...collection('/owners/{ownerId}/pets/{petId}/visits', 'Visit', [id('ownerId'), id('petId')], 'visitId'),
  },
};

const mock = useMockForSpec(spec);

const listing = async (path: string) => {
  const response = await fetch(`${mock.current.url}/__mock${path}`);
  expect(response.status).toBe(200);
  return { total: response.headers.get('x-total-count'), records: await response.json() };
};

describe('deleting a parent record', () => {
  it('recognises three levels', () => {
    expect(mock.current.engine.collections.map((c) => [c.path, c.parent?.collection.path])).toEqual([
      ['/owners', undefined],
      ['/owners/{ownerId}/pets', '/owners'],
      ['/owners/{ownerId}/pets/{petId}/visits', '/owners/{ownerId}/pets'],
    ]);
  });

  it('removes its nested records at every depth: API, admin listing, and a parent created again starts empty', async () => {
    expect((await call(mock.current, 'POST', '/owners', { id: 7, name: 'Ada' })).status).toBe(201);
    expect((await call(mock.current, 'POST', '/owners', { id: 8, name: 'Bob' })).status).toBe(201);
    expect((await call(mock.current, 'POST', '/owners/7/pets', { id: 1, name: 'Rex' })).status).toBe(201);
    expect((await call(mock.current, 'POST', '/owners/7/pets', { id: 2, name: 'Tom' })).status).toBe(201);
    expect((await call(mock.current, 'POST', '/owners/7/pets', { id: 1, name: 'Rex again' })).status).toBe(409);
    expect((await call(mock.current, 'POST', '/owners/7/pets/1/visits', { id: 1, name: 'vaccine' })).status).toBe(201);
    expect((await call(mock.current, 'POST', '/owners/8/pets', { id: 1, name: 'Kept' })).status).toBe(201);
    expect((await call(mock.current, 'GET', '/owners/7/pets')).json).toEqual([
      { id: 1, name: 'Rex' },
      { id: 2, name: 'Tom' },
    ]);
    expect((await listing('/owners/7/pets')).total).toBe('2');
    expect((await listing('/owners/7/pets/1/visits')).total).toBe('1');

    expect((await call(mock.current, 'DELETE', '/owners/7')).status).toBe(204);
    expect((await call(mock.current, 'GET', '/owners/7/pets')).status).toBe(404);
    expect(await listing('/owners/7/pets')).toEqual({ total: '0', records: [] });
    expect(await listing('/owners/7/pets/1/visits')).toEqual({ total: '0', records: [] });
    // Another owner's pets stay.
    expect(await listing('/owners/8/pets')).toEqual({ total: '1', records: [{ id: 1, name: 'Kept' }] });

    expect((await call(mock.current, 'POST', '/owners', { id: 7, name: 'Ada again' })).status).toBe(201);
    expect((await call(mock.current, 'GET', '/owners/7/pets')).json).toEqual([]);
    expect((await call(mock.current, 'GET', '/owners/7/pets/1/visits')).status).toBe(404);
  });
});
