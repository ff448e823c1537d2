/**
 * A list whose page number and page size are declared with examples but no defaults (Lago's
 * `page` and `per_page` on every list): no page sent is the first page, of the same size as the
 * second, so that pages 1, 2, 3… hold each record once. The mock answered every record when no
 * page was sent and 20 from page=2, and the contract suite, walking the pages, met 20 records twice.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Paged without defaults', version: '1' },
  components: {
    parameters: {
      page: { name: 'page', in: 'query', schema: { type: 'integer', example: 1 } },
      per_page: { name: 'per_page', in: 'query', schema: { type: 'integer', example: 20 } },
    },
    schemas: { Note: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, text: { type: 'string' } } } },
  },
  paths: {
    '/notes': {
      get: {
        operationId: 'listNotes',
        parameters: [{ $ref: '#/components/parameters/page' }, { $ref: '#/components/parameters/per_page' }],
        responses: {
          200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { notes: { type: 'array', items: { $ref: '#/components/schemas/Note' } } } } } } },
        },
      },
      post: {
        operationId: 'createNote',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } },
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } } },
      },
    },
    '/notes/{id}': {
      get: {
        operationId: 'getNote',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } } },
      },
    },
  },
};

let mock: MockServer;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paged-'));
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(SPEC));
  mock = await createMockServer({ port: 0, logLevel: 'silent', spec: join(dir, 'openapi.json') });
});
afterAll(() => mock?.close());

const ids = async (query: string): Promise<string[]> => {
  const response = await fetch(`${mock.url}/notes${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { notes: Array<{ id: string }> }).notes.map((note) => note.id);
};

it('answers the first page when no page is sent, the same size as the next, and pages 1, 2, 3 hold every record once', async () => {
  const made = Array.from({ length: 45 }, (_, i) => `n${i}`);
  const seeded = await fetch(`${mock.url}/__mock/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(made.map((id) => ({ id, text: id }))) });
  expect(seeded.status).toBe(200);
  const first = await ids('');
  expect(first).toEqual(made.slice(0, 20));
  expect(await ids('?page=1')).toEqual(first);
  const walked = [...first, ...(await ids('?page=2')), ...(await ids('?page=3'))];
  expect(walked).toEqual(made);
  expect(await ids('?page=4')).toEqual([]);
  // A size sent is kept for the first page too.
  expect(await ids('?per_page=30')).toEqual(made.slice(0, 30));
});
