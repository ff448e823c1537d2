/**
 * A string identity sent as `""` would name its record at the item path `/codes/`, which is not
 * `/codes/{code}`: the record could never be read, replaced or deleted. A strict provider refuses
 * it: a 400 in the spec's declared error shape saying the identity cannot be empty, nothing
 * stored. The same for a seed, a PUT that creates the record it names (an upsert), and a nested
 * collection's create. Where the mock assigns the identity, a client's value is ignored as ever.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { send } from './mock-under-test.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const error = { '400': { description: 'invalid', content: json({ $ref: '#/components/schemas/Problem' }) } };
const code = { $ref: '#/components/schemas/Code' };
const tag = { $ref: '#/components/schemas/Tag' };
const codeParameter = { name: 'code', in: 'path', required: true, schema: { type: 'string' } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Codes', version: '1' },
  paths: {
    '/codes': {
      get: { operationId: 'listCodes', responses: { '200': { description: 'ok', content: json({ type: 'array', items: code }) } } },
      post: { operationId: 'createCode', requestBody: { required: true, content: json(code) }, responses: { '201': { description: 'created', content: json(code) }, ...error } },
      put: {
        operationId: 'upsertCode',
        requestBody: { required: true, content: json(code) },
        responses: { '200': { description: 'ok', content: json(code) }, '201': { description: 'created', content: json(code) }, ...error },
      },
    },
    '/codes/{code}': {
      parameters: [codeParameter],
      get: { operationId: 'getCode', responses: { '200': { description: 'ok', content: json(code) }, '404': { description: 'none' } } },
    },
    '/codes/{code}/tags': {
      parameters: [codeParameter],
      get: { operationId: 'listTags', responses: { '200': { description: 'ok', content: json({ type: 'array', items: tag }) } } },
      post: { operationId: 'createTag', requestBody: { required: true, content: json(tag) }, responses: { '201': { description: 'created', content: json(tag) }, ...error } },
    },
    '/codes/{code}/tags/{name}': {
      parameters: [codeParameter, { name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getTag', responses: { '200': { description: 'ok', content: json(tag) }, '404': { description: 'none' } } },
    },
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: { required: true, content: json({ type: 'object', required: ['text'], properties: { id: { type: 'string', readOnly: true }, text: { type: 'string' } } }) },
        responses: { '201': { description: 'created', content: json({ type: 'object', properties: { id: { type: 'string' }, text: { type: 'string' } } }) } },
      },
    },
    '/notes/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getNote', responses: { '200': { description: 'ok', content: json({ type: 'object', properties: { id: { type: 'string' }, text: { type: 'string' } } }) } } },
    },
  },
  components: {
    schemas: {
      Code: { type: 'object', required: ['code', 'label'], properties: { code: { type: 'string' }, label: { type: 'string' } } },
      Tag: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      Problem: { type: 'object', required: ['title', 'status'], additionalProperties: false, properties: { title: { type: 'string' }, status: { type: 'integer' } } },
    },
  },
};

describe('a string identity sent empty', () => {
  let dir: string;
  let mock: MockServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'empty-identity-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(SPEC));
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: join(dir, 'openapi.json') });
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string) => send(mock, path, undefined, { method: 'GET', contentType: null });
  /** A 400 in the spec's Problem shape whose title says the identity cannot be empty. */
  const expectRefused = (answer: Awaited<ReturnType<typeof send>>, property: string): void => {
    expect(answer.status, answer.text).toBe(400);
    expect(Object.keys(answer.json).sort()).toEqual(['status', 'title']);
    expect(answer.json.status).toBe(400);
    expect(answer.json.title).toContain(`${property} cannot be empty`);
  };

  it('is refused by a create, and nothing is stored', async () => {
    expectRefused(await send(mock, '/codes', { code: '', label: 'blank' }), 'code');
    expect((await get('/codes')).json).toEqual([]);
    expect((await get('/__mock/codes')).json).toEqual([]);
  });

  it('is refused by a PUT that would create the record it names', async () => {
    expectRefused(await send(mock, '/codes', { code: '', label: 'blank' }, { method: 'PUT' }), 'code');
    expect((await get('/__mock/codes')).json).toEqual([]);
  });

  it('is refused by a seed, all of it', async () => {
    const seeded = await send(mock, '/__mock/codes', [
      { code: 'a', label: 'kept?' },
      { code: '', label: 'blank' },
    ]);
    expect(seeded.status, seeded.text).toBe(400);
    expect(seeded.json.message).toContain('[1] code cannot be empty');
    expect((await get('/__mock/codes')).json).toEqual([]);
  });

  it("is refused by a nested collection's create", async () => {
    expect((await send(mock, '/codes', { code: 'x', label: 'ex' })).status).toBe(201);
    expectRefused(await send(mock, '/codes/x/tags', { name: '' }), 'name');
    expect((await get('/codes/x/tags')).json).toEqual([]);
  });

  it('is only a value the mock ignores where it assigns the identity', async () => {
    const created = await send(mock, '/notes', { id: '', text: 'hi' });
    expect(created.status).toBe(201);
    expect(created.json.id).not.toBe('');
    expect((await get(`/notes/${encodeURIComponent(created.json.id)}`)).json).toEqual(created.json);
  });

  it('a non-empty string is still stored (a single space too)', async () => {
    expect((await send(mock, '/codes', { code: ' ', label: 'space' })).status).toBe(201);
    expect((await get('/codes/%20')).json).toEqual({ code: ' ', label: 'space' });
  });
});
