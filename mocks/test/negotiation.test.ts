/**
 * `Accept` chooses the media type of the mock's answer among those the spec declares for it
 * (engine/negotiate.ts), over real HTTP: examples in the type asked for, the default kept for no
 * `Accept` or a wildcard, a 406 in the spec's error shape for one that admits none, and a create
 * refused for its `Accept` stores nothing.
 */
import { request } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createPlant, freshId, listedPlantsText, send, sendGet, useMock, useMockForSpec, TOKEN } from './mock-under-test.js';

const PROBLEM = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail'],
  properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' } },
};
const NOTE = { type: 'object', required: ['id', 'text'], properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string' } } };
const problems = { default: { description: 'a problem', content: { 'application/problem+json': { schema: PROBLEM } } } };

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Reports', version: '1' },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  security: [{ bearer: [] }],
  paths: {
    '/reports/{id}': {
      get: {
        operationId: 'getReport',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'a report',
            content: {
              'application/xml': { example: '<report id="1">green</report>' },
              'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } }, example: { id: 1, colour: 'green' } },
              'text/csv': { example: 'id,colour\n1,green\n' },
            },
          },
          '404': { description: 'none', content: { 'application/xml': { example: '<missing/>' }, 'application/json': { example: { missing: true } } } },
          ...problems,
        },
      },
    },
    '/hal': {
      get: { operationId: 'getHal', responses: { '200': { description: 'hal', content: { 'application/hal+json': { example: { _links: {} } } } }, ...problems } },
    },
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: { required: true, content: { 'application/json': { schema: NOTE } } },
        responses: {
          '201': { description: 'created', content: { 'application/json': { schema: NOTE }, 'application/xml': { schema: NOTE } } },
          ...problems,
        },
      },
      get: {
        operationId: 'listNotes',
        responses: { '200': { description: 'notes', content: { 'application/json': { schema: { type: 'array', items: NOTE } } } }, ...problems },
      },
    },
    '/things': {
      post: {
        operationId: 'createThing',
        requestBody: { required: true, content: { 'application/json': { schema: NOTE } } },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: NOTE }, 'application/vnd.api+json': { schema: NOTE } } }, ...problems },
      },
    },
    '/things/{id}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'a thing', content: { 'application/json': { schema: NOTE }, 'application/vnd.api+json': { schema: NOTE } } }, ...problems },
      },
    },
    '/notes/{id}': {
      get: {
        operationId: 'getNote',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'a note', content: { 'application/json': { schema: NOTE } } }, ...problems },
      },
    },
  },
};

const isProblem = new Ajv2020({ strict: false }).compile(PROBLEM);

/** GET with exactly the headers given (fetch would add `Accept: *\/*`); an array is sent as that many lines. */
function rawGet(url: string, headers: Record<string, string | string[]>): Promise<{ status: number; type: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${TOKEN}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('Accept chooses among the declared media types', () => {
  const mock = useMockForSpec(SPEC);

  it.each([
    ['no Accept at all', undefined, 'application/json', '{"id":1,"colour":"green"}'],
    ['*/*', '*/*', 'application/json', '{"id":1,"colour":"green"}'],
    ["a browser's navigation (text/html first, */* below it)", 'text/html,application/xhtml+xml,*/*;q=0.8', 'application/json', '{"id":1,"colour":"green"}'],
    ['application/xml', 'application/xml', 'application/xml', '<report id="1">green</report>'],
    ['weights (csv 0.5, xml 0.9)', 'text/csv;q=0.5, application/xml;q=0.9', 'application/xml', '<report id="1">green</report>'],
    ['text/* (the one text type)', 'text/*', 'text/csv', 'id,colour\n1,green\n'],
    ['two Accept headers (csv only, then json at 0.1)', ['text/csv', 'application/json;q=0.1'], 'text/csv', 'id,colour\n1,green\n'],
  ])('%s → %s', async (_name, accept, type, body) => {
    // Sent as given: several Accept lines stay several; none is none.
    const answer = await rawGet(`${mock.current.url}/reports/1`, accept === undefined ? {} : { accept });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.type).toBe(type);
    expect(answer.text).toBe(body);
  });

  it("answers 406 in the spec's problem shape, naming the types, for an Accept that admits none", async () => {
    for (const accept of ['image/png', 'application/json;q=0, application/xml;q=0, text/csv;q=0', 'nonsense']) {
      const answer = await rawGet(`${mock.current.url}/reports/1`, { accept });
      expect(answer.status, accept).toBe(406);
      expect(answer.type).toBe('application/problem+json');
      const body = JSON.parse(answer.text) as { status: number; detail: string };
      expect(isProblem(body), answer.text).toBe(true);
      expect(body.status).toBe(406);
      expect(body.detail).toContain('GET /reports/{id}');
      expect(body.detail).toContain('answers in: application/xml, application/json, text/csv.');
    }
  });

  it('a forced status is negotiated among its own declared types (Prefer: code=404)', async () => {
    const xml = await rawGet(`${mock.current.url}/reports/1`, { prefer: 'code=404', accept: 'application/xml' });
    expect([xml.status, xml.type, xml.text]).toEqual([404, 'application/xml', '<missing/>']);
    const json = await rawGet(`${mock.current.url}/reports/1`, { prefer: 'code=404' });
    expect([json.status, json.type, json.text]).toEqual([404, 'application/json', '{"missing":true}']);
    expect((await rawGet(`${mock.current.url}/reports/1`, { prefer: 'code=404', accept: 'text/csv' })).status).toBe(406);
  });

  it('application/json is answered by the one +json type declared', async () => {
    const answer = await rawGet(`${mock.current.url}/hal`, { accept: 'application/json' });
    expect([answer.status, answer.type, answer.text]).toEqual([200, 'application/hal+json', '{"_links":{}}']);
    expect((await rawGet(`${mock.current.url}/hal`, { accept: 'application/json;q=0' })).status).toBe(406);
  });

  it('a create whose Accept admits no JSON type is refused before anything is stored; the store answers JSON only', async () => {
    const refused = await send(mock.current, '/notes', { text: 'kept?' }, { headers: { accept: 'application/xml' } });
    expect(refused.status, refused.text).toBe(406);
    expect(refused.json.detail).toContain('application/xml');
    expect(refused.json.detail).toContain('JSON only');
    expect((await sendGet(mock.current, '/notes')).json).toEqual([]);

    const created = await send(mock.current, '/notes', { text: 'kept' }, { headers: { accept: 'application/xml, application/json;q=0.5' } });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    const id = (created.json as { id: number }).id;
    expect((await sendGet(mock.current, `/notes/${id}`, { headers: { accept: 'application/json' } })).json).toEqual({ id, text: 'kept' });
    expect((await sendGet(mock.current, `/notes/${id}`, { headers: { accept: 'text/html' } })).status).toBe(406);
  });
});

describe('a stored record in the JSON type Accept chose', () => {
  const mock = useMockForSpec(SPEC);

  it('answers a create and a read in application/vnd.api+json when asked for it, application/json otherwise', async () => {
    const vnd = { headers: { accept: 'application/vnd.api+json' } };
    const created = await send(mock.current, '/things', { text: 'a thing' }, vnd);
    expect([created.status, created.headers.get('content-type')], created.text).toEqual([201, 'application/vnd.api+json']);
    const id = (created.json as { id: number }).id;
    const read = await sendGet(mock.current, `/things/${id}`, vnd);
    expect([read.status, read.headers.get('content-type'), read.json]).toEqual([200, 'application/vnd.api+json', { id, text: 'a thing' }]);
    const plain = await rawGet(`${mock.current.url}/things/${id}`, {});
    expect([plain.status, plain.type]).toEqual([200, 'application/json']);
    expect((await sendGet(mock.current, `/things/${id}`, { headers: { accept: 'application/json' } })).headers.get('content-type')).toBe('application/json');
  });
});

describe("Accept on the Plant Store's spec", () => {
  const mock = useMock();

  it('creates a plant for JSON or a wildcard, and refuses text/html with 406 in its Error shape, storing nothing', async () => {
    for (const accept of ['application/json', 'application/*', '*/*', 'text/html, application/json;q=0.9']) {
      const id = freshId();
      expect((await createPlant(mock.current, { id, name: 'Fern' }, { headers: { accept } })).status, accept).toBe(200);
    }
    const id = freshId();
    const refused = await createPlant(mock.current, { id, name: 'Fern' }, { headers: { accept: 'text/html' } });
    expect(refused.status).toBe(406);
    expect(refused.json).toMatchObject({ error: 406 });
    expect(refused.json.message).toContain("Accept 'text/html'");
    expect(await listedPlantsText(mock.current)).not.toContain(String(id));
  });
});
