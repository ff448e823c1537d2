/**
 * Singleton documents over real HTTP (openapi/operations/collections.ts `recogniseSingletons`, engine/singletons.ts):
 * a path with GET and PUT and no collection answers the spec's example until written, then what was
 * written (PUT, merge PATCH), the example again after DELETE; under a record it is that record's:
 * 404 while the record does not exist, gone with it.
 */
import { describe, expect, it } from 'vitest';
import { startSummary } from '../start-summary.js';
import { call, expectDeclared } from './corpus.js';
import { useMockForSpec } from './mock-under-test.js';

const json = (schema: unknown, example?: unknown) => ({ content: { 'application/json': example === undefined ? { schema } : { schema, example } } });
const user = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
const profile = {
  type: 'object',
  required: ['bio'],
  properties: { bio: { type: 'string', minLength: 1 }, theme: { type: 'string', enum: ['dark', 'light'] }, secret: { type: 'string', writeOnly: true } },
};
const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
// A document with a property only the server sets, required in its answers.
const prefs = {
  type: 'object',
  required: ['lang', 'updatedAt'],
  properties: { lang: { type: 'string' }, size: { type: 'integer' }, updatedAt: { type: 'string', format: 'date-time', readOnly: true } },
};
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
      put: { operationId: 'putProfile', requestBody: { required: true, ...json(profile) }, responses: { '200': { description: 'ok', ...json(profile) } } },
      patch: {
        operationId: 'patchProfile',
        requestBody: { required: true, content: { 'application/merge-patch+json': { schema: { type: 'object' } } } },
        responses: { '200': { description: 'ok', ...json(profile) } },
      },
      delete: { operationId: 'deleteProfile', responses: { '204': { description: 'gone' } } },
    },
    '/prefs': {
      get: { operationId: 'getPrefs', responses: { '200': { description: 'ok', ...json(prefs) } } },
      put: { operationId: 'putPrefs', requestBody: { required: true, ...json(prefs) }, responses: { '200': { description: 'ok', ...json(prefs) } } },
      patch: {
        operationId: 'patchPrefs',
        requestBody: { required: true, content: { 'application/json-patch+json': { schema: { type: 'array', items: { type: 'object' } } } } },
        responses: { '200': { description: 'ok', ...json(prefs) } },
      },
    },
    '/settings': {
      get: { operationId: 'getSettings', responses: { '200': { description: 'ok', ...json({ type: 'object', properties: { volume: { type: 'integer' } } }, { volume: 3 }) } } },
      put: { operationId: 'putSettings', requestBody: { required: true, ...json({ type: 'object', properties: { volume: { type: 'integer' } } }) }, responses: { '204': { description: 'saved' } } },
    },
  },
};

const mock = useMockForSpec(spec);

describe('singleton sub-resources', () => {
  it('are listed among the stateful operations the mock announces at start', () => {
    const { stateful } = startSummary(mock.current.url, mock.current.engine, 0, 'memory');
    expect(stateful).toEqual(expect.arrayContaining(['createUser', 'getUser', 'deleteUser', 'getProfile', 'putProfile', 'patchProfile', 'deleteProfile', 'getSettings', 'putSettings']));
  });

  it("answers the spec's example until written, then what was written, merged by PATCH, the example again after DELETE", async () => {
    expect((await call(mock.current, 'POST', '/users', { id: 1, name: 'Ada' })).status).toBe(201);
    expect((await call(mock.current, 'POST', '/users', { id: 2, name: 'Bob' })).status).toBe(201);
    expect(expectDeclared(mock.current, 'getProfile', await call(mock.current, 'GET', '/users/1/profile'), 200)).toEqual({ bio: 'from the spec', theme: 'light' });
    const put = await call(mock.current, 'PUT', '/users/1/profile', { bio: 'Analyst', theme: 'dark', secret: 's3' });
    expect(expectDeclared(mock.current, 'putProfile', put, 200)).toEqual({ bio: 'Analyst', theme: 'dark' });
    expect(expectDeclared(mock.current, 'getProfile', await call(mock.current, 'GET', '/users/1/profile'), 200)).toEqual({ bio: 'Analyst', theme: 'dark' });
    // Another user's profile is its own.
    expect((await call(mock.current, 'GET', '/users/2/profile')).json).toEqual({ bio: 'from the spec', theme: 'light' });
    expect(expectDeclared(mock.current, 'patchProfile', await call(mock.current, 'PATCH', '/users/1/profile', { theme: 'light' }, 'application/merge-patch+json'), 200)).toEqual({
      bio: 'Analyst',
      theme: 'light',
    });
    // A patch that would leave an invalid document is refused, the document unchanged.
    expect((await call(mock.current, 'PATCH', '/users/1/profile', { theme: 'pink' }, 'application/merge-patch+json')).status).toBe(400);
    expect((await call(mock.current, 'GET', '/users/1/profile')).json).toEqual({ bio: 'Analyst', theme: 'light' });
    expect((await call(mock.current, 'DELETE', '/users/1/profile')).status).toBe(204);
    expect((await call(mock.current, 'GET', '/users/1/profile')).json).toEqual({ bio: 'from the spec', theme: 'light' });
  });

  it('belongs to its record: 404 while the user does not exist, gone with the user', async () => {
    expect((await call(mock.current, 'GET', '/users/9/profile')).status).toBe(404);
    expect((await call(mock.current, 'PUT', '/users/9/profile', { bio: 'x' })).status).toBe(404);
    expect((await call(mock.current, 'POST', '/users', { id: 3, name: 'Cy' })).status).toBe(201);
    expect((await call(mock.current, 'PUT', '/users/3/profile', { bio: 'Mine' })).status).toBe(200);
    expect((await call(mock.current, 'DELETE', '/users/3')).status).toBe(204);
    expect((await call(mock.current, 'POST', '/users', { id: 3, name: 'Cy again' })).status).toBe(201);
    expect((await call(mock.current, 'GET', '/users/3/profile')).json).toEqual({ bio: 'from the spec', theme: 'light' });
  });

  it('takes a JSON Patch where the spec declares one, and answers the properties only the server sets', async () => {
    expect(expectDeclared(mock.current, 'putPrefs', await call(mock.current, 'PUT', '/prefs', { lang: 'en', size: 1 }), 200)).toMatchObject({ lang: 'en', size: 1 });
    const operations = [
      { op: 'replace', path: '/lang', value: 'fr' },
      { op: 'remove', path: '/size' },
    ];
    const patched = await call(mock.current, 'PATCH', '/prefs', operations, 'application/json-patch+json');
    expect(expectDeclared(mock.current, 'patchPrefs', patched, 200)).toEqual({ lang: 'fr', updatedAt: expect.any(String) });
    expect(expectDeclared(mock.current, 'getPrefs', await call(mock.current, 'GET', '/prefs'), 200)).toEqual(patched.json);
    const failed = await call(mock.current, 'PATCH', '/prefs', [{ op: 'test', path: '/lang', value: 'en' }], 'application/json-patch+json');
    expect(failed.status).toBe(400);
    expect(failed.text).toContain('operation 0 (test /lang) failed');
  });

  it('a top-level document: /settings', async () => {
    expect((await call(mock.current, 'GET', '/settings')).json).toEqual({ volume: 3 });
    expect((await call(mock.current, 'PUT', '/settings', { volume: 11 })).status).toBe(204);
    expect((await call(mock.current, 'GET', '/settings')).json).toEqual({ volume: 11 });
  });
});
