/**
 * Errors in the shapes a spec of its own declares, over HTTP: forced ones keep saying they were
 * forced (Preference-Applied), any error status a `4XX` or `default` response covers can be
 * forced, and nested error schemas (`{errors: [{msg, field}]}`, `{error: {code, message}}`,
 * `{errors: ["…"]}`) carry the explanation, the status and the failing field where they ask.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPrismMock } from '../prism/server.js';
import { useMockForSpec } from './mock-under-test.js';

const apiError = { $ref: '#/components/schemas/ApiError' };
const json = (schema: unknown, example?: unknown) => ({ 'application/json': { schema, ...(example === undefined ? {} : { example }) } });
const note = { $ref: '#/components/schemas/Note' };
const slug = { name: 'slug', in: 'path', required: true, schema: { type: 'string' } };

/** Notes whose errors nest, in several ways, and a problem+json `default`. */
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes API', version: '1' },
  paths: {
    '/notes': {
      get: {
        operationId: 'listNotes',
        parameters: [{ name: 'tags', in: 'query', schema: { type: 'array', items: { enum: ['a', 'b'] } } }],
        responses: { '200': { description: 'ok', content: json({ type: 'array', items: note }) }, '4XX': { description: 'client error', content: json(apiError) } },
      },
      post: {
        operationId: 'createNote',
        requestBody: { required: true, content: json(note) },
        responses: { '201': { description: 'created', content: json(note) }, '4XX': { description: 'client error', content: json(apiError) } },
      },
    },
    '/notes/{slug}': {
      parameters: [slug],
      get: { operationId: 'getNote', responses: { '200': { description: 'ok', content: json(note) }, '404': { description: 'none', content: json(apiError) } } },
      put: {
        operationId: 'putNote',
        requestBody: { required: true, content: json(note) },
        responses: { '200': { description: 'ok', content: json(note) }, '4XX': { description: 'client error', content: json(apiError, { errors: [{ msg: 'from the example' }] }) } },
      },
      delete: {
        operationId: 'deleteNote',
        responses: {
          '204': { description: 'gone' },
          default: { description: 'problem', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
        },
      },
    },
    '/legacy': {
      get: {
        operationId: 'legacy',
        responses: {
          '200': { description: 'ok' },
          default: {
            description: 'Google-style',
            content: json({
              type: 'object',
              required: ['error'],
              properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, status: { type: 'string' } } } },
            }),
          },
        },
      },
    },
    '/labels': {
      get: {
        operationId: 'labels',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 5 } }],
        responses: {
          '200': { description: 'ok' },
          '400': { description: 'bad', content: json({ type: 'object', required: ['errors'], properties: { errors: { type: 'array', minItems: 1, items: { type: 'string' } } } }) },
        },
      },
    },
  },
  components: {
    schemas: {
      ApiError: {
        type: 'object',
        required: ['errors'],
        properties: {
          errors: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['msg'],
              additionalProperties: false,
              properties: { msg: { type: 'string' }, field: { type: 'string' }, status: { type: 'integer' } },
            },
          },
        },
      },
      Problem: { type: 'object', required: ['type', 'title', 'status'], properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' } } },
      Note: { type: 'object', required: ['slug', 'title'], properties: { slug: { type: 'string' }, title: { type: 'string', minLength: 1 }, note: { type: ['string', 'null'] } } },
    },
  },
};

describe("errors in a spec's own nested shapes, over HTTP", () => {
  const mock = useMockForSpec(SPEC);

  async function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
    const response = await fetch(mock.current.url + path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
  }
  const isApiError = () => mock.current.engine.contract.componentValidator('ApiError');
  const isProblem = () => mock.current.engine.contract.componentValidator('Problem');

  describe('Preference-Applied on forced errors (QA item 9)', () => {
    it.each([
      ['GET /notes/x (getNote)', 404, 'application/json'],
      ['DELETE /notes/x (deleteNote)', 400, 'application/problem+json'],
      ['GET /notes (listNotes)', 401, 'application/json'],
    ] as const)('%s forced to %i says so', async (request, status, mediaType) => {
      const [method, path] = request.split(' ') as [string, string];
      const response = await call(method, path, { prefer: `code=${status}` });
      expect(response.status, response.text).toBe(status);
      expect(response.headers.get('preference-applied')).toBe(`code=${status}`);
      expect(response.headers.get('content-type')).toBe(mediaType);
      expect(response.text).toContain(`Prefer: code=${status}`);
    });
  });

  describe('Prefer: code= any error status a 4XX or default covers (QA item 16)', () => {
    it.each([418, 422, 429])("forces %i on listNotes (4XX), in ApiError's shape", async (status) => {
      const response = await call('GET', '/notes', { prefer: `code=${status}` });
      expect(response.status, response.text).toBe(status);
      expect(response.headers.get('preference-applied')).toBe(`code=${status}`);
      expect(isApiError()(response.json), JSON.stringify(isApiError().errors)).toBe(true);
      expect(response.json.errors[0].msg).toContain(`Prefer: code=${status}`);
      expect(response.json.errors[0].msg).toMatch(new RegExp(`: the answer ${status} .+ the spec declares[.]$`));
      expect(response.json.errors[0].status).toBe(status);
    });

    it('forces 422 and 599 on deleteNote (default), as RFC 9457 problems', async () => {
      for (const status of [422, 599]) {
        const response = await call('DELETE', '/notes/x', { prefer: `code=${status}` });
        expect(response.status, response.text).toBe(status);
        expect(response.headers.get('content-type')).toBe('application/problem+json');
        expect(isProblem()(response.json)).toBe(true);
        expect(response.json.status).toBe(status);
      }
    });

    it("answers a covered status with the covering response's example when it has one", async () => {
      const response = await call('PUT', '/notes/x', { prefer: 'code=429' }, { slug: 'x', title: 'y' });
      expect(response.status).toBe(429);
      expect(response.json).toEqual({ errors: [{ msg: 'from the example' }] });
      expect(response.headers.get('preference-applied')).toBe('code=429');
    });

    it('still refuses a status nothing covers, naming what is', async () => {
      const notCovered = await call('GET', '/notes/x', { prefer: 'code=418' });
      expect(notCovered.status).toBe(400);
      expect(notCovered.text).toContain('code=418 is not a status the mock can force here (choose one of 200, 400, 401, 404');
      expect(notCovered.text).not.toContain('covers');
      const success = await call('GET', '/notes', { prefer: 'code=201' });
      expect(success.status).toBe(400);
      expect(success.json.errors[0].msg).toContain('or any error status its 4XX response covers');
    });
  });

  describe('nested error schemas carry the explanation (QA item 10)', () => {
    it('{errors: [{msg}]}: a 404 explains itself in errors[0].msg, with its status', async () => {
      const response = await call('GET', '/notes/nope');
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ errors: [{ msg: expect.stringContaining('No note with slug'), status: 404 }] });
      expect(isApiError()(response.json)).toBe(true);
    });

    it('{errors: [{msg, field}]}: a body problem names its field', async () => {
      const response = await call('POST', '/notes', {}, { slug: 'a', title: '' });
      expect(response.status).toBe(400);
      expect(response.json.errors[0]).toEqual({ msg: expect.stringContaining('title must have at least 1 character'), field: 'title', status: 400 });
      expect(isApiError()(response.json)).toBe(true);
    });

    it('words a list of types and a bound of one as a sentence (QA P3)', async () => {
      const response = await call('POST', '/notes', {}, { slug: 'a', title: '', note: 5 });
      const message = response.json.errors[0].msg as string;
      expect(message).toContain('title must have at least 1 character;');
      expect(message).toContain('note must be a string or null, got the number 5');
    });

    it('{errors: [{msg, field}]}: a parameter problem names the parameter and the item', async () => {
      const response = await call('GET', '/notes?tags=a&tags=zzz');
      expect(response.status).toBe(400);
      expect(response.json.errors[0]).toEqual({ msg: expect.stringContaining('tags[1]'), field: 'tags[1]', status: 400 });
    });

    it('{error: {code, message, status}}: the Google-style object', async () => {
      const response = await call('POST', '/legacy');
      expect(response.status).toBe(405);
      expect(response.json).toEqual({ error: { code: 405, message: expect.stringContaining('POST is not allowed'), status: 'Method Not Allowed' } });
    });

    it('{errors: ["…"]}: the message as the first string', async () => {
      const response = await call('GET', '/labels?limit=9');
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ errors: [expect.stringContaining('limit must be <= 5')] });
    });
  });
});

/** One error schema on every operation but one, items with nested parts, an API key: the P3 corners. */
const SHOP = {
  openapi: '3.1.0',
  info: { title: 'Shop API', version: '1' },
  security: [{ key: [] }],
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        responses: { '200': { description: 'ok', content: json({ type: 'array', items: { $ref: '#/components/schemas/Item' } }) }, default: { $ref: '#/components/responses/Error' } },
      },
      post: {
        operationId: 'createItem',
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/Item' }) },
        responses: { '201': { description: 'created', content: json({ $ref: '#/components/schemas/Item' }) }, default: { $ref: '#/components/responses/Error' } },
      },
    },
    '/items/{itemId}': {
      parameters: [{ name: 'itemId', in: 'path', required: true, schema: { type: 'integer' } }],
      // Declares no error: it speaks the Error every other operation declares.
      get: { operationId: 'getItem', responses: { '200': { description: 'ok', content: json({ $ref: '#/components/schemas/Item' }) } } },
    },
    '/items/{itemId}/parts': {
      parameters: [{ name: 'itemId', in: 'path', required: true, schema: { type: 'integer' } }],
      post: {
        operationId: 'addPart',
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/Item' }) },
        responses: { '201': { description: 'added', content: json({ $ref: '#/components/schemas/Item' }) }, default: { $ref: '#/components/responses/Error' } },
      },
    },
    '/items/{itemId}/parts/{partId}': {
      parameters: [
        { name: 'itemId', in: 'path', required: true, schema: { type: 'integer' } },
        { name: 'partId', in: 'path', required: true, schema: { type: 'integer' } },
      ],
      get: { operationId: 'getPart', responses: { '200': { description: 'ok', content: json({ $ref: '#/components/schemas/Item' }) }, default: { $ref: '#/components/responses/Error' } } },
    },
  },
  components: {
    securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    responses: { Error: { description: 'error', content: json({ $ref: '#/components/schemas/Error' }) } },
    schemas: {
      Error: { type: 'object', required: ['code', 'message'], additionalProperties: false, properties: { code: { type: 'integer' }, message: { type: 'string' } } },
      Item: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } },
    },
  },
};

describe('the P3 corners over HTTP: the fallback shape, concrete hints, the title, API key challenges', () => {
  const mock = useMockForSpec(SHOP);
  const key = { 'x-api-key': 'k' };
  const call = async (method: string, path: string, headers: Record<string, string> = key, body?: unknown) => {
    const response = await fetch(mock.current.url + path, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
  };

  it('answers an operation that declares no error in the Error every other operation declares', async () => {
    for (const [path, status] of [
      ['/items/7', 404],
      ['/items/abc', 400],
    ] as const) {
      const response = await call('GET', path);
      expect(response.status, response.text).toBe(status);
      expect(response.json).toEqual({ code: status, message: expect.any(String) });
    }
  });

  it('names the concrete path of a nested collection in a 404 hint', async () => {
    expect((await call('POST', '/items', key, { id: 3, name: 'desk' })).status).toBe(201);
    const response = await call('GET', '/items/3/parts/9');
    expect(response.status).toBe(404);
    expect(response.json.message).toContain('GET /__mock/items/3/parts.');
    expect(response.json.message).not.toContain('{itemId}');
  });

  it('does not say "API API" of a title that ends in API', async () => {
    const response = await call('GET', '/nowhere');
    expect(response.status).toBe(404);
    expect(response.json.message).toContain('The Shop API has GET /items');
  });

  it.each(['/items', '/items/3', '/items/999', '/items/3/parts/1'])('answers HEAD %s as GET without the body, its length and type kept', async (path) => {
    const [get, head] = await Promise.all([fetch(mock.current.url + path, { headers: key }), fetch(mock.current.url + path, { method: 'HEAD', headers: key })]);
    const body = await get.text();
    expect(head.status).toBe(get.status);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
  });

  it('answers HEAD in the Prism mock as it does: the GET without its body, and Allow listing HEAD', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'spec-error-shapes-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(SHOP));
    const prism = await startPrismMock({ port: 0, spec: file });
    try {
      const [get, head] = await Promise.all([fetch(`${prism.url}/items/3`, { headers: key }), fetch(`${prism.url}/items/3`, { method: 'HEAD', headers: key })]);
      const body = await get.text();
      expect([get.status, head.status]).toEqual([200, 200]);
      expect(await head.text()).toBe('');
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
      expect((await fetch(`${prism.url}/items`, { method: 'OPTIONS' })).headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    } finally {
      await prism.close();
    }
  });

  it('lists HEAD after GET in Allow, in a preflight and in a 405', async () => {
    const options = await fetch(`${mock.current.url}/items`, { method: 'OPTIONS' });
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const notAllowed = await call('DELETE', '/items');
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect((await call('HEAD', '/items/3/parts')).status).toBe(405);
  });

  it('challenges a missing API key with no invented WWW-Authenticate scheme', async () => {
    const response = await call('GET', '/items', {});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(response.json.message).toContain('x-api-key');
  });
});
