/**
 * A body larger than one socket read (64 KiB) that has arrived whole before the mock decides is
 * taken from the request's buffer (request-body.ts `readBuffered`). Node 26's `read()` gives one
 * chunk of that buffer at a time where Node 24's gave all of it: a 70 000-byte body was cut after
 * its first 65 302 bytes and refused as JSON with an unterminated string, and the journal said a
 * refused one had that many bytes. These run on every Node the suite runs on.
 */
import { describe, expect, it } from 'vitest';
import { send, sendGet, useMockForSpec } from './mock-under-test.js';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: { Note: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'integer' }, text: { type: 'string' } } } },
  },
  security: [{ bearer: [] }],
  paths: {
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['id', 'text'], properties: { id: { type: 'integer' }, text: { type: 'string' } } },
            },
          },
        },
        responses: {
          '201': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } },
        },
      },
    },
    '/notes/{id}': {
      get: {
        operationId: 'getNote',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'the note', content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } } } },
      },
    },
  },
};

// Sizes around and well past one socket read, all under the default --max-body of 1 MiB.
const SIZES = [65_000, 66_000, 70_000, 131_000, 300_000, 1_000_000];

describe('a body that arrived whole is taken whole, whatever its size', () => {
  const mock = useMockForSpec(SPEC);

  it.each(SIZES.map((size, i) => [size, i + 1]))('stores and answers a note of %i characters', async (size, id) => {
    const text = 'n'.repeat(size);
    const created = await send(mock.current, '/notes', { id, text });
    expect(created.status, created.text.slice(0, 300)).toBe(201);
    expect((created.json as { text: string }).text.length).toBe(size);
    const read = await sendGet(mock.current, `/notes/${id}`);
    expect(read.status).toBe(200);
    expect((read.json as { text: string }).text.length).toBe(size);
  });

  it.each(SIZES.slice(0, 5))('journals the size of a refused body of %i characters as it was sent', async (size) => {
    const body = JSON.stringify({ id: 1, text: 'r'.repeat(size) });
    const refused = await send(mock.current, '/notes', body, { noAuth: true });
    expect(refused.status).toBe(401);
    const listing = (await (await fetch(`${mock.current.url}/__mock/requests?limit=1`)).json()) as { entries: { seq: number }[] };
    const seq = listing.entries[0]?.seq;
    const entry = (await (await fetch(`${mock.current.url}/__mock/requests/${seq}`)).json()) as { status: number; request: { body?: { bytes: number } } };
    expect(entry.status).toBe(401);
    expect(entry.request.body?.bytes).toBe(Buffer.byteLength(body));
  });
});
