/**
 * Nested collections and documents are the store's under their parent record's identity, as the
 * store keys that record, over real HTTP on each store (memory, state file, a real redis-server):
 * - a fixed path below a collection (`/plants/archive/entries`) is no record's, so deleting the
 *   plant named `archive` leaves it whole;
 * - `/orders/7/lines`, `/orders/7.0/lines` and `/orders/7e0/lines` are one collection, order 7's,
 *   and deleting order 7 takes its lines and its note, whichever path text wrote them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { openRedisStore } from '../stores/redis.js';
import { openStateFile } from '../stores/state-file.js';
import type { ResourceStore } from '../stores/store.js';
import { nameOf, storeNamer } from '../engine/store-names.js';
import { call } from './corpus.js';
import { REDIS_SKIP_REASON, RedisServer } from './redis-server.js';

const object = (properties: Record<string, unknown>) => ({ type: 'object', required: Object.keys(properties), properties });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = (schema: unknown, status = '200') => ({ [status]: { description: 'ok', ...json(schema) } });
const path = (name: string, type: string) => ({ name, in: 'path', required: true, schema: { type } });

const plant = object({ name: { type: 'string' } });
const entry = object({ id: { type: 'integer' }, text: { type: 'string' } });
const order = object({ id: { type: 'integer' } });
const note = object({ text: { type: 'string' } });
const collection = (at: string, noun: string, schema: unknown, parameters: unknown[], item: string, type: string) => ({
  [at]: {
    parameters,
    post: { operationId: `create${noun}`, requestBody: { required: true, ...json(schema) }, responses: ok(schema, '201') },
    get: { operationId: `list${noun}`, responses: ok({ type: 'array', items: schema }) },
  },
  [`${at}/{${item}}`]: {
    parameters: [...parameters, path(item, type)],
    get: { operationId: `get${noun}`, responses: ok(schema) },
    delete: { operationId: `delete${noun}`, responses: { '204': { description: 'gone' } } },
  },
});

const spec = {
  openapi: '3.1.0',
  info: { title: 'Names', version: '1' },
  paths: {
    ...collection('/plants', 'Plant', plant, [], 'name', 'string'),
    ...collection('/plants/{name}/entries', 'Entry', entry, [path('name', 'string')], 'id', 'integer'),
    // The spec's own path, no plant's: the router answers it before /plants/{name}/entries.
    ...collection('/plants/archive/entries', 'ArchivedEntry', entry, [], 'id', 'integer'),
    ...collection('/orders', 'Order', order, [], 'id', 'integer'),
    ...collection('/orders/{id}/lines', 'Line', entry, [path('id', 'integer')], 'lineId', 'integer'),
    '/orders/{id}/note': {
      parameters: [path('id', 'integer')],
      get: { operationId: 'getNote', responses: ok(note) },
      put: { operationId: 'putNote', requestBody: { required: true, ...json(note) }, responses: ok(note) },
    },
  },
};

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-names-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function serve(store?: ResourceStore): Promise<MockServer> {
  const file = join(folder(), 'openapi.json');
  writeFileSync(file, JSON.stringify(spec));
  const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: file, ...(store ? { store } : {}) });
  cleanups.push(() => mock.close());
  return mock;
}

async function status(mock: MockServer, method: string, at: string, body?: unknown): Promise<number> {
  return (await call(mock, method, at, body)).status;
}

async function fixedPathSurvives(mock: MockServer): Promise<void> {
  expect(await status(mock, 'POST', '/plants', { name: 'archive' })).toBe(201);
  expect(await status(mock, 'POST', '/plants', { name: 'fern' })).toBe(201);
  expect(await status(mock, 'POST', '/plants/archive/entries', { id: 1, text: 'kept' })).toBe(201);
  expect(await status(mock, 'POST', '/plants/fern/entries', { id: 1, text: 'goes' })).toBe(201);
  expect(await status(mock, 'DELETE', '/plants/archive')).toBe(204);
  expect(await status(mock, 'DELETE', '/plants/fern')).toBe(204);
  expect((await call(mock, 'GET', '/plants/archive/entries')).json).toEqual([{ id: 1, text: 'kept' }]);
  expect((await call(mock, 'GET', '/__mock/plants/archive/entries')).json).toEqual([{ id: 1, text: 'kept' }]);
  expect(await status(mock, 'POST', '/plants', { name: 'fern' })).toBe(201);
  expect((await call(mock, 'GET', '/plants/fern/entries')).json).toEqual([]);
}

async function oneOrderSevenWhateverItsText(mock: MockServer): Promise<void> {
  expect(await status(mock, 'POST', '/orders', { id: 7 })).toBe(201);
  expect(await status(mock, 'POST', '/orders/7/lines', { id: 1, text: 'a' })).toBe(201);
  // The same order, so the same line 1.
  expect(await status(mock, 'POST', '/orders/7.0/lines', { id: 1, text: 'again' })).toBe(409);
  expect(await status(mock, 'POST', '/orders/7e0/lines', { id: 2, text: 'b' })).toBe(201);
  expect((await call(mock, 'GET', '/orders/7.0/lines')).json).toEqual([
    { id: 1, text: 'a' },
    { id: 2, text: 'b' },
  ]);
  expect((await call(mock, 'GET', '/__mock/orders/7e0/lines')).json).toHaveLength(2);
  expect(await status(mock, 'PUT', '/orders/7.0/note', { text: 'fragile' })).toBe(200);
  expect((await call(mock, 'GET', '/orders/7/note')).json).toEqual({ text: 'fragile' });

  expect(await status(mock, 'DELETE', '/orders/7')).toBe(204);
  expect(await status(mock, 'POST', '/orders', { id: 7 })).toBe(201);
  expect((await call(mock, 'GET', '/orders/7/lines')).json).toEqual([]);
  expect((await call(mock, 'GET', '/__mock/orders/7.0/lines')).json).toEqual([]);
  const written = await call(mock, 'GET', '/__mock/orders/7/note');
  expect([written.status, written.json.message]).toEqual([404, expect.stringContaining('Nothing is stored at /orders/7/note')]);
}

describe('store names from canonical identities', () => {
  it('memory: deleting the plant named archive keeps /plants/archive/entries; order 7 is one order whatever its text', async () => {
    const mock = await serve();
    await fixedPathSurvives(mock);
    await oneOrderSevenWhateverItsText(mock);
  });

  it('state file: the same, and after a restart on the file', async () => {
    const file = join(folder(), 'state.log');
    const first = await serve(await openStateFile(file));
    await fixedPathSurvives(first);
    await oneOrderSevenWhateverItsText(first);
    expect(await status(first, 'POST', '/orders/7.0/lines', { id: 3, text: 'after' })).toBe(201);
    await first.close();
    const again = await serve(await openStateFile(file));
    expect((await call(again, 'GET', '/plants/archive/entries')).json).toEqual([{ id: 1, text: 'kept' }]);
    expect((await call(again, 'GET', '/orders/7/lines')).json).toEqual([{ id: 3, text: 'after' }]);
  });

  it.skipIf(REDIS_SKIP_REASON)(`redis: the same${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, async () => {
    const redis = await RedisServer.start();
    cleanups.push(() => redis.stop());
    const mock = await serve(await openRedisStore({ url: redis.url, prefix: 'names' }));
    await fixedPathSurvives(mock);
    await oneOrderSevenWhateverItsText(mock);
  });
});

describe('a store name from its path template', () => {
  it('writes each parent key, percent-encoded in braces, wherever the template puts it (two in one segment, one at the end)', () => {
    const keys = new Map([
      ['orderId', '7'],
      ['name', '"a b/c"'],
      ['ext', '"txt"'],
    ]);
    expect(nameOf('/orders/{orderId}/lines', keys)).toBe('/orders/{7}/lines');
    expect(nameOf('/orders/{orderId}/files/{name}.{ext}', keys)).toBe('/orders/{7}/files/{%22a%20b%2Fc%22}.{%22txt%22}');
    expect(nameOf('/orders/{orderId}', keys)).toBe('/orders/{7}');
    expect(nameOf('/plants', keys)).toBe('/plants');
    // A parameter without a key: empty braces, which no record names.
    expect(nameOf('/orders/{missing}/lines', keys)).toBe('/orders/{}/lines');
    // One namer, many names: what a delete of many records below one path does.
    const named = storeNamer('/orders/{orderId}/lines');
    expect([named(keys), named(new Map([['orderId', '8']]))]).toEqual(['/orders/{7}/lines', '/orders/{8}/lines']);
  });
});
