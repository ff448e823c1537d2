/**
 * The admin routes of singleton documents over real HTTP (admin/documents.ts): `/__mock` + a
 * document's concrete path reads it exactly as stored (404 while never written), seeds it with a
 * PUT judged as the API's PUT judges it, forgets it with a DELETE; under a record, by the record's
 * real id. The admin token, the origin rule and proxy mode apply as for collections.
 */
import { describe, expect, it } from 'vitest';
import type { SpecView } from '../admin/spec-view.js';
import type { MockServer } from '../server.js';
import { call } from './corpus.js';
import { jsonOrUndefined, useMockForSpec } from './mock-under-test.js';

const json = (schema: unknown, example?: unknown) => ({ content: { 'application/json': example === undefined ? { schema } : { schema, example } } });
const user = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
const profile = {
  type: 'object',
  required: ['bio'],
  properties: {
    bio: { type: 'string', minLength: 1 },
    theme: { type: 'string', enum: ['dark', 'light'] },
    score: { type: 'integer', format: 'int64' },
    secret: { type: 'string', writeOnly: true },
    updatedAt: { type: 'string', readOnly: true },
  },
};
const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
const settings = { type: 'object', properties: { volume: { type: 'integer' } } };
const spec = {
  openapi: '3.1.0',
  info: { title: 'Profiles', version: '1' },
  paths: {
    '/users': { post: { operationId: 'createUser', requestBody: { required: true, ...json(user) }, responses: { '201': { description: 'ok', ...json(user) } } } },
    '/users/{id}': {
      parameters: [id],
      get: { operationId: 'getUser', responses: { '200': { description: 'ok', ...json(user) } } },
      delete: { operationId: 'deleteUser', responses: { '204': { description: 'gone' } } },
    },
    '/users/{id}/profile': {
      parameters: [id],
      get: { operationId: 'getProfile', responses: { '200': { description: 'ok', ...json(profile, { bio: 'from the spec', theme: 'light' }) } } },
      put: {
        operationId: 'putProfile',
        // A header the API's PUT requires: the admin route judges the body, not the API's other parameters.
        parameters: [{ name: 'X-Request-Id', in: 'header', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, ...json(profile) },
        responses: { '200': { description: 'ok', ...json(profile) } },
      },
      delete: { operationId: 'deleteProfile', responses: { '204': { description: 'gone' } } },
    },
    '/settings': {
      get: { operationId: 'getSettings', responses: { '200': { description: 'ok', ...json(settings, { volume: 3 }) } } },
      put: { operationId: 'putSettings', requestBody: { required: true, ...json(settings) }, responses: { '204': { description: 'saved' } } },
    },
  },
};

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

async function admin(mock: MockServer, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Reply> {
  const sent = body === undefined ? headers : { 'content-type': 'application/json', ...headers };
  const response = await fetch(`${mock.url}/__mock${path}`, { method, headers: sent, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: jsonOrUndefined(text) };
}

/** Our admin Error: `{error, message}`, the status in `error`. */
function adminError(reply: Reply, status: number): string {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(Object.keys(reply.json).sort()).toEqual(['error', 'message']);
  expect(reply.json.error).toBe(status);
  return reply.json.message as string;
}

const putProfile = (mock: MockServer, path: string, body: unknown) =>
  fetch(mock.url + path, {
    method: 'PUT',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'x-request-id': 'r1' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, text: await response.text() }));

describe('admin routes of singleton documents', () => {
  const mock = useMockForSpec(spec);

  it('a top-level document: 404 saying so until written, then exactly what the API stored; DELETE forgets it', async () => {
    const unwritten = adminError(await admin(mock.current, 'GET', '/settings'), 404);
    expect(unwritten).toContain('/settings');
    expect(unwritten).toMatch(/spec's example/);
    expect((await call(mock.current, 'PUT', '/settings', '{"volume":   11}')).status).toBe(204);
    const read = await admin(mock.current, 'GET', '/settings');
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('application/json');
    expect(read.text).toBe('{"volume":   11}');
    expect((await admin(mock.current, 'DELETE', '/settings')).status).toBe(204);
    expect((await call(mock.current, 'GET', '/settings')).json).toEqual({ volume: 3 });
    adminError(await admin(mock.current, 'GET', '/settings'), 404);
    // Forgetting what is not there is no error.
    expect((await admin(mock.current, 'DELETE', '/settings')).status).toBe(204);
    // The inspector's look at a document not written is a read that found nothing: not journaled, as its other reads.
    const journaled = (await mock.current.journal.entries()).entries.filter((entry) => entry.path === '/__mock/settings').map((entry) => `${entry.method} ${entry.status}`);
    expect(journaled).toEqual(['DELETE 204', 'DELETE 204']);
  });

  it("a nested document by its record's real id: the record's 404 without it, exact int64 digits, gone with the record", async () => {
    expect(adminError(await admin(mock.current, 'GET', '/users/41/profile'), 404)).toMatch(/No user with id '?41'? is stored/);
    expect((await call(mock.current, 'POST', '/users', { id: 41, name: 'Ada' })).status).toBe(201);
    adminError(await admin(mock.current, 'GET', '/users/41/profile'), 404);
    expect((await putProfile(mock.current, '/users/41/profile', '{"bio":"Analyst","score":9007199254740993,"secret":"s3"}')).status).toBe(200);
    const read = await admin(mock.current, 'GET', '/users/41/profile');
    expect(read.status).toBe(200);
    // What was stored, the writeOnly secret included (the API never answers it), the digits exact.
    expect(read.text).toBe('{"bio":"Analyst","score":9007199254740993,"secret":"s3"}');
    // Each record's document is its own.
    expect((await call(mock.current, 'POST', '/users', { id: 42, name: 'Bob' })).status).toBe(201);
    adminError(await admin(mock.current, 'GET', '/users/42/profile'), 404);
    expect((await call(mock.current, 'DELETE', '/users/41')).status).toBe(204);
    adminError(await admin(mock.current, 'GET', '/users/41/profile'), 404);
  });

  it('PUT seeds a document the API then answers, judged exactly as the API judges its PUT', async () => {
    expect((await call(mock.current, 'POST', '/users', { id: 7, name: 'Cy' })).status).toBe(201);
    const seeded = await admin(mock.current, 'PUT', '/users/7/profile', '{"bio":"Seeded","theme":"dark","secret":"x","updatedAt":"never","score":12345678901234567}');
    expect(seeded.status, seeded.text).toBe(200);
    // readOnly properties are the server's: left out, as the API's PUT leaves them out.
    expect(seeded.text).toBe('{"bio":"Seeded","theme":"dark","secret":"x","score":12345678901234567}');
    const api = await call(mock.current, 'GET', '/users/7/profile');
    expect(api.status).toBe(200);
    expect(api.text).toBe('{"bio":"Seeded","theme":"dark","score":12345678901234567}');
    expect((await admin(mock.current, 'GET', '/users/7/profile')).text).toBe(seeded.text);

    // An invalid document: the API's PUT and the admin route refuse it in the same words, and nothing changes.
    for (const bad of ['{"bio":"","theme":"pink"}', '{"theme":"dark"}', '[1]', '{"bio":"x","score":1.5}']) {
      const fromApi = await putProfile(mock.current, '/users/7/profile', bad);
      expect(fromApi.status, bad).toBe(400);
      const fromAdmin = adminError(await admin(mock.current, 'PUT', '/users/7/profile', bad), 400);
      expect(fromAdmin, bad).toBe(JSON.parse(fromApi.text).message);
    }
    for (const bad of ['{"bio":', '{"bio":"a","bio":"b"}']) {
      const fromApi = await putProfile(mock.current, '/users/7/profile', bad);
      expect(adminError(await admin(mock.current, 'PUT', '/users/7/profile', bad), 400), bad).toBe(JSON.parse(fromApi.text).message);
    }
    adminError(await admin(mock.current, 'PUT', '/users/7/profile', ''), 400);
    adminError(await admin(mock.current, 'PUT', '/users/7/profile', 'bio=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415);
    expect((await admin(mock.current, 'GET', '/users/7/profile')).text).toBe(seeded.text);

    // No document without its record.
    expect(adminError(await admin(mock.current, 'PUT', '/users/8/profile', '{"bio":"orphan"}'), 404)).toMatch(/No user with id '?8'? is stored/);
    expect((await call(mock.current, 'POST', '/users', { id: 8, name: 'Di' })).status).toBe(201);
    expect((await call(mock.current, 'GET', '/users/8/profile')).json).toEqual({ bio: 'from the spec', theme: 'light' });

    // A top-level one, and its answer when the PUT declares none.
    expect((await admin(mock.current, 'PUT', '/settings', '{"volume":7}')).text).toBe('{"volume":7}');
    expect((await call(mock.current, 'GET', '/settings')).json).toEqual({ volume: 7 });
  });

  it('answers 405 with Allow for another method, and ROUTE_NOT_FOUND for a path no document is at', async () => {
    const post = await admin(mock.current, 'POST', '/settings', '{}');
    adminError(post, 405);
    expect(post.headers.get('allow')).toBe('GET, DELETE, PUT, OPTIONS');
    const preflight = await admin(mock.current, 'OPTIONS', '/users/7/profile');
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('allow')).toBe('GET, DELETE, PUT, OPTIONS');
    adminError(await admin(mock.current, 'GET', '/users/7/nothing'), 404);
    expect((await admin(mock.current, 'GET', '/users/7/nothing')).json.message).toMatch(/^No route matches/);
  });

  it('are listed by GET /__mock/spec beside the collections: path, admin route, parent record, operations by role', async () => {
    const view = (await (await fetch(`${mock.current.url}/__mock/spec`)).json()) as SpecView;
    expect(view.singletons).toEqual([
      {
        path: '/users/{id}/profile',
        admin: '/__mock/users/{id}/profile',
        parent: '/users',
        parentParameter: 'id',
        operations: [
          { operationId: 'getProfile', role: 'read' },
          { operationId: 'putProfile', role: 'replace' },
          { operationId: 'deleteProfile', role: 'delete' },
        ],
      },
      {
        path: '/settings',
        admin: '/__mock/settings',
        operations: [
          { operationId: 'getSettings', role: 'read' },
          { operationId: 'putSettings', role: 'replace' },
        ],
      },
    ]);
    expect(view.collections.map((collection) => collection.path)).toEqual(['/users']);
    expect(view.operations.find((operation) => operation.operationId === 'putProfile')).toMatchObject({ stateful: true, role: 'replace', singleton: '/users/{id}/profile' });
    expect(view.operations.find((operation) => operation.operationId === 'getUser')).not.toHaveProperty('singleton');
  });

  it('refuses a page of another origin, as every admin route holding data does', async () => {
    const refused = await admin(mock.current, 'GET', '/settings', undefined, { origin: 'http://evil.test' });
    expect(refused.status).toBe(403);
    const wipe = await admin(mock.current, 'PUT', '/settings', '{"volume":0}', { origin: 'http://evil.test' });
    expect(wipe.status).toBe(403);
    expect((await admin(mock.current, 'POST', '/reset', undefined, { origin: 'http://evil.test' })).status).toBe(403);
    expect((await call(mock.current, 'GET', '/settings')).json).toEqual({ volume: 7 });
  });

  it('POST /__mock/reset forgets every document and record at once, on a spec whose documents have no collection of their own', async () => {
    expect((await call(mock.current, 'PUT', '/settings', '{"volume":5}')).status).toBe(204);
    expect((await call(mock.current, 'POST', '/users', { id: 77, name: 'Grace' })).status).toBe(201);
    expect((await admin(mock.current, 'POST', '/reset')).status).toBe(204);
    adminError(await admin(mock.current, 'GET', '/settings'), 404);
    expect((await call(mock.current, 'GET', '/settings')).json).toEqual({ volume: 3 });
    expect((await call(mock.current, 'GET', '/users/77')).status).toBe(404);
    const other = await admin(mock.current, 'GET', '/reset');
    expect(other.status).toBe(405);
    expect(other.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe('admin routes of singleton documents with --admin-token', () => {
  const mock = useMockForSpec(spec, { adminToken: 'sesame' });

  it('refuses POST /__mock/reset without the admin token', async () => {
    adminError(await admin(mock.current, 'POST', '/reset'), 401);
    expect((await admin(mock.current, 'POST', '/reset', undefined, { authorization: 'Bearer sesame' })).status).toBe(204);
  });

  it.each(['GET', 'PUT', 'DELETE'])('refuses %s without the admin token and serves it with', async (method) => {
    const body = method === 'PUT' ? '{"volume":1}' : undefined;
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Bearer t' }] as Record<string, string>[]) {
      const refused = await admin(mock.current, method, '/settings', body, headers);
      adminError(refused, 401);
      expect(refused.headers.get('www-authenticate')).toContain('realm="plant-store-admin"');
    }
    expect((await admin(mock.current, method, '/settings', body, { authorization: 'Bearer sesame' })).status).toBeLessThan(405);
  });
});

describe('admin routes of singleton documents in proxy mode', () => {
  const mock = useMockForSpec(spec, { proxy: { upstream: 'http://127.0.0.1:9/v1' } });

  it('lists no documents in GET /__mock/spec: nothing is stored', async () => {
    const view = (await (await fetch(`${mock.current.url}/__mock/spec`)).json()) as SpecView;
    expect(view.singletons).toEqual([]);
    expect(view.operations.some((operation) => 'singleton' in operation)).toBe(false);
  });

  it('POST /__mock/reset says the mock keeps no records', async () => {
    expect(adminError(await admin(mock.current, 'POST', '/reset'), 404)).toContain('The mock keeps no records in proxy mode, so /__mock/reset is not served');
  });

  it.each(['GET', 'PUT', 'DELETE'])('%s says the mock keeps no documents there', async (method) => {
    const message = adminError(await admin(mock.current, method, '/users/7/profile', method === 'PUT' ? '{"bio":"x"}' : undefined), 404);
    expect(message).toContain('The mock keeps no records in proxy mode, so /__mock/users/7/profile is not served');
  });
});
