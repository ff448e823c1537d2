/**
 * `DELETE /__mock/<collection>` forgets that collection's records and those nested under them,
 * nothing else (POST /__mock/reset empties the store), and a seed under a parent record that is not
 * stored is the API's 404, over real HTTP on a spec of several collections (fixtures/specs/bookings)
 * and on one with a nested document, kept on a state file across a restart.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { MemoryStore } from '../stores/memory.js';
import { openRedisStore } from '../stores/redis.js';
import { openStateFile } from '../stores/state-file.js';
import type { ResourceStore } from '../stores/store.js';
import { corpusSpec } from './corpus.js';
import { REDIS_SKIP_REASON, RedisServer } from './redis-server.js';

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A request with the bookings spec's API key (any key is one); its status, text and JSON. */
async function send(mock: MockServer, method: string, path: string, body?: unknown): Promise<{ status: number; text: string; json: unknown }> {
  const headers: Record<string, string> = { 'x-api-key': 'k1' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(mock.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
}

async function listed(mock: MockServer, path: string): Promise<unknown> {
  const reply = await send(mock, 'GET', `/__mock${path}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.json;
}

describe('DELETE /__mock/<collection> on fixtures/specs/bookings', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('bookings') });
    cleanups.push(() => mock.close());
  });

  const room = (id: number) => ({ id, name: `room ${id}` });
  const booking = (id: string) => ({ id, roomId: 101, guest: 'Ada', nights: 2 });
  const payment = (id: number) => ({ id, amount: 100, currency: 'EUR' });

  async function fill(): Promise<void> {
    expect((await send(mock, 'POST', '/__mock/reset')).status).toBe(204);
    for (const id of [101, 102]) expect((await send(mock, 'POST', '/rooms', room(id))).status).toBe(201);
    for (const id of ['b-1', 'b-2']) expect((await send(mock, 'POST', '/bookings', booking(id))).status).toBe(201);
    for (const [at, id] of [
      ['b-1', 1],
      ['b-1', 2],
      ['b-2', 1],
    ] as const) {
      expect((await send(mock, 'POST', `/bookings/${at}/payments`, payment(id))).status).toBe(201);
    }
  }

  it('forgets the bookings and their payments; the rooms are still listed', async () => {
    await fill();
    const reply = await send(mock, 'DELETE', '/__mock/bookings');
    expect(reply).toMatchObject({ status: 204, text: '' });
    expect(await listed(mock, '/rooms')).toEqual([room(101), room(102)]);
    expect((await send(mock, 'GET', '/rooms')).json).toEqual([room(101), room(102)]);
    expect(await listed(mock, '/bookings')).toEqual([]);
    expect(await listed(mock, '/bookings/b-1/payments')).toEqual([]);
    expect(await listed(mock, '/bookings/b-2/payments')).toEqual([]);
    // A booking made again with that id starts with no payments.
    expect((await send(mock, 'POST', '/bookings', booking('b-1'))).status).toBe(201);
    expect((await send(mock, 'GET', '/bookings/b-1/payments')).json).toEqual([]);
  });

  it("DELETE /__mock/bookings/b-1/payments forgets booking b-1's payments only", async () => {
    await fill();
    expect((await send(mock, 'DELETE', '/__mock/bookings/b-1/payments')).status).toBe(204);
    expect(await listed(mock, '/bookings/b-1/payments')).toEqual([]);
    expect(await listed(mock, '/bookings/b-2/payments')).toEqual([payment(1)]);
    expect(await listed(mock, '/bookings')).toEqual([booking('b-1'), booking('b-2')]);
    expect(await listed(mock, '/rooms')).toEqual([room(101), room(102)]);
  });

  it('a seed of payments under a booking that is not stored is the API’s 404, and stores nothing', async () => {
    await fill();
    const api = await send(mock, 'POST', '/bookings/b-9/payments', payment(1));
    expect(api.status).toBe(404);
    const seeded = await send(mock, 'POST', '/__mock/bookings/b-9/payments', [payment(1), payment(2)]);
    expect(seeded.status, seeded.text).toBe(404);
    // The same words, in the mock's own Error shape as every admin answer (the API's in the spec's Problem).
    expect(seeded.json).toEqual({ error: 404, message: (api.json as { detail: string }).detail });
    expect((api.json as { detail: string }).detail).toBe('No booking with id b-9 is stored. Create it first, or see what is stored with GET /__mock/bookings.');
    expect(await listed(mock, '/bookings/b-9/payments')).toEqual([]);
    // Once the booking is there, the same seed is stored.
    expect((await send(mock, 'POST', '/bookings', booking('b-9'))).status).toBe(201);
    expect((await send(mock, 'POST', '/__mock/bookings/b-9/payments', [payment(1), payment(2)])).status).toBe(200);
    expect((await send(mock, 'GET', '/bookings/b-9/payments')).json).toEqual([payment(1), payment(2)]);
  });
});

/** Owners with nested pets and a nested profile document, and vets: identities the mock assigns. */
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', required, properties });
const ID = { type: 'integer', readOnly: true };
const ownerId = { name: 'ownerId', in: 'path', required: true, schema: { type: 'integer' } };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const listAndCreate = (noun: string, parameters: unknown[]) => ({
  parameters,
  get: { operationId: `list${noun}`, responses: { '200': { description: 'ok', ...json({ type: 'array', items: object({ id: ID, name: { type: 'string' } }) }) } } },
  post: {
    operationId: `create${noun}`,
    requestBody: { required: true, ...json(object({ id: ID, name: { type: 'string' } }, ['name'])) },
    responses: { '201': { description: 'created', ...json(object({ id: ID, name: { type: 'string' } })) } },
  },
});
const item = (noun: string, parameters: unknown[]) => ({
  parameters,
  get: { operationId: `get${noun}`, responses: { '200': { description: 'ok', ...json(object({ id: ID, name: { type: 'string' } })) } } },
});
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Owners and vets', version: '1' },
  paths: {
    '/owners': listAndCreate('Owners', []),
    '/owners/{ownerId}': item('Owner', [ownerId]),
    '/owners/{ownerId}/pets': listAndCreate('Pets', [ownerId]),
    '/owners/{ownerId}/pets/{petId}': item('Pet', [ownerId, { ...ownerId, name: 'petId' }]),
    '/owners/{ownerId}/profile': {
      parameters: [ownerId],
      get: { operationId: 'getProfile', responses: { '200': { description: 'ok', ...json(object({ bio: { type: 'string' } })) } } },
      put: {
        operationId: 'putProfile',
        requestBody: { required: true, ...json(object({ bio: { type: 'string' } })) },
        responses: { '200': { description: 'ok', ...json(object({ bio: { type: 'string' } })) } },
      },
    },
    '/ownersx': listAndCreate('OwnersX', []),
    '/ownersx/{ownerxId}': item('OwnerX', [{ ...ownerId, name: 'ownerxId' }]),
  },
};

describe('DELETE /__mock/owners on a state file, with a nested document and a collection named /ownersx', () => {
  it('forgets the owners, their pets and their profiles, keeps /ownersx, and stays so after a restart; assigned ids go on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-clear-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const spec = join(dir, 'openapi.json');
    writeFileSync(spec, JSON.stringify(SPEC));
    const path = join(dir, 'owners.state');
    const start = async (): Promise<MockServer> => createMockServer({ port: 0, logLevel: 'silent', spec, store: await openStateFile(path) });
    let mock = await start();
    try {
      expect(mock.engine.singletons.size).toBeGreaterThan(0);
      for (const name of ['Ada', 'Bob']) expect((await send(mock, 'POST', '/owners', { name })).json).toMatchObject({ name });
      expect((await send(mock, 'POST', '/owners/1/pets', { name: 'Rex' })).status).toBe(201);
      expect((await send(mock, 'PUT', '/owners/2/profile', { bio: 'vet nurse' })).status).toBe(200);
      expect((await send(mock, 'POST', '/ownersx', { name: 'Xena' })).status).toBe(201);
      expect((await send(mock, 'DELETE', '/__mock/owners')).status).toBe(204);
      const check = async (): Promise<void> => {
        expect(await listed(mock, '/owners')).toEqual([]);
        expect(await listed(mock, '/owners/1/pets')).toEqual([]);
        expect((await send(mock, 'GET', '/__mock/owners/2/profile')).status).toBe(404);
        expect(await listed(mock, '/ownersx')).toEqual([{ id: 1, name: 'Xena' }]);
      };
      await check();
      await mock.close();
      mock = await start();
      await check();
      // The ids the mock gave before the clear are not given again.
      expect((await send(mock, 'POST', '/owners', { name: 'Cy' })).json).toEqual({ id: 3, name: 'Cy' });
      expect((await send(mock, 'PUT', '/owners/3/profile', { bio: 'new' })).status).toBe(200);
      expect((await send(mock, 'GET', '/__mock/owners/3/profile')).json).toEqual({ bio: 'new' });
    } finally {
      await mock.close();
    }
  });
});

/**
 * A document whose path is one segment below a collection's (`/owners/me`, `/owners/settings`) is
 * no owner's: only `/owners/{ownerId}/…` is nested under a record. Its store name starts with
 * `/owners/` all the same, so a clear by name prefix alone forgot it with the owners.
 */
const document = (noun: string, parameters: unknown[]) => ({
  parameters,
  get: { operationId: `get${noun}`, responses: { '200': { description: 'ok', ...json(object({ bio: { type: 'string' } })) } } },
  put: {
    operationId: `put${noun}`,
    requestBody: { required: true, ...json(object({ bio: { type: 'string' } })) },
    responses: { '200': { description: 'ok', ...json(object({ bio: { type: 'string' } })) } },
  },
});
const ME_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Owners and me', version: '1' },
  paths: {
    '/owners': listAndCreate('Owners', []),
    '/owners/me': document('Me', []),
    '/owners/{ownerId}': item('Owner', [ownerId]),
    '/owners/{ownerId}/profile': document('Profile', [ownerId]),
  },
};

describe('DELETE /__mock/owners keeps a document one segment below /owners (/owners/me), which belongs to no owner', () => {
  let spec: string;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-clear-me-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    spec = join(dir, 'openapi.json');
    writeFileSync(spec, JSON.stringify(ME_SPEC));
  });

  async function check(store: ResourceStore): Promise<void> {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, store });
    try {
      expect(mock.engine.singletons.size).toBe(4);
      expect((await send(mock, 'POST', '/owners', { name: 'Ada' })).json).toEqual({ id: 1, name: 'Ada' });
      expect((await send(mock, 'PUT', '/owners/1/profile', { bio: 'owner 1' })).status).toBe(200);
      expect((await send(mock, 'PUT', '/owners/me', { bio: 'me' })).status).toBe(200);
      expect((await send(mock, 'DELETE', '/__mock/owners')).status).toBe(204);
      expect(await listed(mock, '/owners')).toEqual([]);
      expect((await send(mock, 'GET', '/__mock/owners/1/profile')).status).toBe(404);
      expect((await send(mock, 'GET', '/__mock/owners/me')).json).toEqual({ bio: 'me' });
      expect((await send(mock, 'GET', '/owners/me')).json).toEqual({ bio: 'me' });
    } finally {
      await mock.close();
    }
  }

  it('memory', async () => {
    await check(new MemoryStore());
  });

  it('state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-clear-me-state-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    await check(await openStateFile(join(dir, 'state.log')));
    // Replayed from the file's clear line: still kept.
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, store: await openStateFile(join(dir, 'state.log')) });
    cleanups.push(() => mock.close());
    expect((await send(mock, 'GET', '/__mock/owners/me')).json).toEqual({ bio: 'me' });
    expect((await send(mock, 'GET', '/__mock/owners/1/profile')).status).toBe(404);
  });

  it.skipIf(REDIS_SKIP_REASON)(`Redis${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, async () => {
    const redis = await RedisServer.start();
    cleanups.push(() => redis.stop());
    await check(await openRedisStore({ url: redis.url, prefix: 'clear-me' }));
  });
});

/**
 * Paths of the spec's own two segments or more below a collection (`/owners/settings/display`, a
 * collection `/owners/archive/entries` and what is nested under its records) belong to no owner
 * either: only `/owners/{ownerId}/…` is. By segment count alone (`/owners/<x>/<y>`) a clear could
 * not tell `/owners/settings/display` from an owner's `/owners/1/profile`, and forgot both.
 */
const DEEP_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Owners and their settings', version: '1' },
  paths: {
    '/owners': listAndCreate('Owners', []),
    '/owners/{ownerId}': item('Owner', [ownerId]),
    '/owners/{ownerId}/profile': document('Profile', [ownerId]),
    '/owners/{ownerId}/pets': listAndCreate('Pets', [ownerId]),
    '/owners/{ownerId}/pets/{petId}': item('Pet', [ownerId, { ...ownerId, name: 'petId' }]),
    '/owners/settings/display': document('Display', []),
    '/owners/archive/entries': listAndCreate('Entries', []),
    '/owners/archive/entries/{entryId}': item('Entry', [{ ...ownerId, name: 'entryId' }]),
    '/owners/archive/entries/{entryId}/tags': listAndCreate('Tags', [{ ...ownerId, name: 'entryId' }]),
    '/owners/archive/entries/{entryId}/note': document('Note', [{ ...ownerId, name: 'entryId' }]),
  },
};

describe("DELETE /__mock/owners keeps the spec's own paths two segments or more below /owners, which belong to no owner", () => {
  let spec: string;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-clear-deep-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    spec = join(dir, 'openapi.json');
    writeFileSync(spec, JSON.stringify(DEEP_SPEC));
  });

  /** What the clear must have left, and what it must have forgotten. */
  async function expectCleared(mock: MockServer): Promise<void> {
    expect(await listed(mock, '/owners')).toEqual([]);
    expect(await listed(mock, '/owners/1/pets')).toEqual([]);
    expect((await send(mock, 'GET', '/__mock/owners/1/profile')).status).toBe(404);
    expect((await send(mock, 'GET', '/__mock/owners/settings/display')).json).toEqual({ bio: 'wide' });
    expect((await send(mock, 'GET', '/owners/settings/display')).json).toEqual({ bio: 'wide' });
    expect(await listed(mock, '/owners/archive/entries')).toEqual([{ id: 1, name: 'old' }]);
    expect(await listed(mock, '/owners/archive/entries/1/tags')).toEqual([{ id: 1, name: 'red' }]);
    expect((await send(mock, 'GET', '/__mock/owners/archive/entries/1/note')).json).toEqual({ bio: 'kept' });
  }

  async function check(store: ResourceStore): Promise<void> {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, store });
    try {
      expect(mock.engine.collections.map((c) => c.path).sort()).toEqual(['/owners', '/owners/archive/entries', '/owners/archive/entries/{entryId}/tags', '/owners/{ownerId}/pets']);
      expect((await send(mock, 'POST', '/owners', { name: 'Ada' })).json).toEqual({ id: 1, name: 'Ada' });
      expect((await send(mock, 'POST', '/owners/1/pets', { name: 'Rex' })).status).toBe(201);
      expect((await send(mock, 'PUT', '/owners/1/profile', { bio: 'owner 1' })).status).toBe(200);
      expect((await send(mock, 'PUT', '/owners/settings/display', { bio: 'wide' })).status).toBe(200);
      expect((await send(mock, 'POST', '/owners/archive/entries', { name: 'old' })).status).toBe(201);
      expect((await send(mock, 'POST', '/owners/archive/entries/1/tags', { name: 'red' })).status).toBe(201);
      expect((await send(mock, 'PUT', '/owners/archive/entries/1/note', { bio: 'kept' })).status).toBe(200);
      expect((await send(mock, 'DELETE', '/__mock/owners')).status).toBe(204);
      await expectCleared(mock);
      // The archive's own clear still takes what is nested under its entries.
      expect((await send(mock, 'POST', '/owners/archive/entries', { name: 'new' })).status).toBe(201);
      expect((await send(mock, 'POST', '/owners/archive/entries/2/tags', { name: 'blue' })).status).toBe(201);
      expect((await send(mock, 'DELETE', '/__mock/owners/archive/entries')).status).toBe(204);
      expect(await listed(mock, '/owners/archive/entries')).toEqual([]);
      expect(await listed(mock, '/owners/archive/entries/2/tags')).toEqual([]);
      expect((await send(mock, 'GET', '/__mock/owners/archive/entries/1/note')).status).toBe(404);
      expect((await send(mock, 'GET', '/__mock/owners/settings/display')).json).toEqual({ bio: 'wide' });
    } finally {
      await mock.close();
    }
  }

  it('memory', async () => {
    await check(new MemoryStore());
  });

  it('state file, and replayed from it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-clear-deep-state-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    await check(await openStateFile(join(dir, 'state.log')));
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, store: await openStateFile(join(dir, 'state.log')) });
    cleanups.push(() => mock.close());
    expect((await send(mock, 'GET', '/__mock/owners/settings/display')).json).toEqual({ bio: 'wide' });
    expect(await listed(mock, '/owners/archive/entries')).toEqual([]);
    expect((await send(mock, 'GET', '/__mock/owners/1/profile')).status).toBe(404);
  });

  it('state file replayed after the first clear only: what it kept is kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-clear-deep-replay-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'state.log');
    let mock = await createMockServer({ port: 0, logLevel: 'silent', spec, store: await openStateFile(path) });
    try {
      expect((await send(mock, 'POST', '/owners', { name: 'Ada' })).status).toBe(201);
      expect((await send(mock, 'POST', '/owners/1/pets', { name: 'Rex' })).status).toBe(201);
      expect((await send(mock, 'PUT', '/owners/1/profile', { bio: 'owner 1' })).status).toBe(200);
      expect((await send(mock, 'PUT', '/owners/settings/display', { bio: 'wide' })).status).toBe(200);
      expect((await send(mock, 'POST', '/owners/archive/entries', { name: 'old' })).status).toBe(201);
      expect((await send(mock, 'POST', '/owners/archive/entries/1/tags', { name: 'red' })).status).toBe(201);
      expect((await send(mock, 'PUT', '/owners/archive/entries/1/note', { bio: 'kept' })).status).toBe(200);
      expect((await send(mock, 'DELETE', '/__mock/owners')).status).toBe(204);
      await mock.close();
      mock = await createMockServer({ port: 0, logLevel: 'silent', spec, store: await openStateFile(path) });
      await expectCleared(mock);
    } finally {
      await mock.close();
    }
  });

  it.skipIf(REDIS_SKIP_REASON)(`Redis${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`, async () => {
    const redis = await RedisServer.start();
    cleanups.push(() => redis.stop());
    await check(await openRedisStore({ url: redis.url, prefix: 'clear-deep' }));
  });
});
