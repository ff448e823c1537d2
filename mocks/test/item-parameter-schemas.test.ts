/**
 * An item path parameter its operations declare differently (openEHR's compositions: `{uid_based_id}`
 * a plain string to GET and DELETE, `format: uuid` to PUT): the identity the mock assigns is one
 * every operation on the record takes, so the record it created can be read, replaced and deleted.
 */
import { describe, expect, it } from 'vitest';
import { send, useMockForSpec } from './mock-under-test.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const note = { type: 'object', required: ['text'], properties: { text: { type: 'string' } } };
const answer = { description: 'the note', content: { 'application/json': { schema: note } } };
const parameter = (schema: object) => ({ name: 'noteId', in: 'path', required: true, schema });

const mock = useMockForSpec({
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: { required: true, content: { 'application/json': { schema: note } } },
        responses: { '201': { ...answer, headers: { Location: { schema: { type: 'string', format: 'uri-reference' } } } } },
      },
    },
    '/notes/{noteId}': {
      get: { operationId: 'getNote', parameters: [parameter({ type: 'string' })], responses: { '200': answer, '404': { description: 'none' } } },
      put: {
        operationId: 'replaceNote',
        parameters: [parameter({ type: 'string', format: 'uuid' })],
        requestBody: { required: true, content: { 'application/json': { schema: note } } },
        responses: { '200': answer, '404': { description: 'none' } },
      },
      delete: { operationId: 'deleteNote', parameters: [parameter({ type: 'string' })], responses: { '204': { description: 'gone' }, '404': { description: 'none' } } },
    },
  },
});

describe('an item parameter declared a plain string by some operations and a uuid by another', () => {
  it('is assigned a UUID, which the read, the replace and the delete all take', async () => {
    const created = await send(mock.current, '/notes', { text: 'first' });
    expect(created.status, created.text).toBe(201);
    const location = created.headers.get('location') ?? '';
    const id = location.split('/').pop() ?? '';
    expect(id).toMatch(UUID);
    expect((await send(mock.current, `/notes/${id}`, undefined, { method: 'GET' })).status).toBe(200);
    const replaced = await send(mock.current, `/notes/${id}`, { text: 'second' }, { method: 'PUT' });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.json).toEqual({ text: 'second' });
    expect((await send(mock.current, `/notes/${id}`, undefined, { method: 'DELETE' })).status).toBe(204);
    expect((await send(mock.current, `/notes/${id}`, undefined, { method: 'GET' })).status).toBe(404);
  });
});
