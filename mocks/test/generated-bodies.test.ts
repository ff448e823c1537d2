/**
 * Answers generated from a response schema (fixtures/specs/generated-bodies-3.0 and -3.1): for an
 * operation answered from the spec, and for a forced `Prefer: code=`, each answer has the declared
 * status and media type and a body valid against the declared schema — judged by a validator
 * compiled here from the spec with the project's Ajv, not by the mock's own. A 3.0 `allOf`+`nullable`
 * property loads and its operation answers; a recursive schema stops at its shallowest valid value;
 * a type list with null, a ref to one, a `const` and exclusive bounds are met. Where nothing valid
 * can be generated the mock says so (and logs it once) rather than answer a body that breaks the
 * spec; a schema Ajv cannot compile stops the start (exit 1) naming the document and the place.
 * A schema asking for more than 1 MiB of JSON (`minItems: 100000000`) is answered without the part
 * where it may be left out, else with that 500, never by holding the process.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaEssence } from '../../openapi/media-types.js';
import { readContract } from '../../openapi/operations/compile.js';
import { type CompiledContract } from '../../openapi/operations/model.js';
import { createLogger } from '../http/logger.js';
import { createMockServer, type MockServer } from '../server.js';
import { corpusSpec } from './corpus.js';
import { MOCK_CLI, run } from './processes.js';

interface Row {
  what: string;
  operationId: string;
  method: string;
  path: string;
  body?: unknown;
  prefer?: string;
  status: number;
  /** What this row is about, beyond being valid. */
  expected: unknown;
}

const rows: Record<'3.0' | '3.1', Row[]> = {
  '3.0': [
    {
      what: 'a create whose body has an allOf+nullable parent (null)',
      operationId: 'createWidget',
      method: 'POST',
      path: '/widgets',
      body: { name: 'w', parent: null },
      status: 201,
      expected: expect.objectContaining({ name: expect.any(String) }),
    },
    {
      what: 'the same create forced: the parent generated, weight over its exclusive minimum, no writeOnly secret',
      operationId: 'createWidget',
      method: 'POST',
      path: '/widgets',
      body: { name: 'w', parent: { id: 'p' } },
      prefer: 'code=201',
      status: 201,
      expected: { id: 1, name: 'string', parent: { id: 'string' }, weight: 1 },
    },
    { what: 'a recursive tree: children empty', operationId: 'getTree', method: 'GET', path: '/tree', status: 200, expected: { value: 0, children: [] } },
    { what: 'the recursive tree forced', operationId: 'getTree', method: 'GET', path: '/tree', prefer: 'code=200', status: 200, expected: { value: 0, children: [] } },
    { what: 'a forest of at least one tree: one, its children empty', operationId: 'getForest', method: 'GET', path: '/forest', status: 200, expected: { trees: [{ value: 0, children: [] }] } },
    { what: 'nullable strings and arrays: their non-null value', operationId: 'listNotes', method: 'GET', path: '/notes', status: 200, expected: [{ text: 'string', tags: ['string'] }] },
  ],
  '3.1': [
    {
      what: 'const, a type list with null, a ref to a string-or-null schema, exclusive bounds',
      operationId: 'createEvent',
      method: 'POST',
      path: '/events',
      body: { id: 7, kind: 'click', body: null, label: null },
      prefer: 'code=201',
      status: 201,
      expected: { id: 1, kind: 'click', body: 'string', label: 'strin', score: 0.5 },
    },
    {
      what: 'the same create unforced',
      operationId: 'createEvent',
      method: 'POST',
      path: '/events',
      body: { id: 7, kind: 'click', body: 'b', label: 'l' },
      status: 201,
      expected: expect.objectContaining({ kind: 'click' }),
    },
    { what: 'a chain referring to itself through anyOf with null: null', operationId: 'getChain', method: 'GET', path: '/chains', status: 200, expected: { name: 'string', next: null } },
    {
      what: "a pattern: a string matching it; a property's example: that",
      operationId: 'getCode',
      method: 'GET',
      path: '/codes',
      status: 200,
      expected: { code: expect.stringMatching(/^[A-Z]{3}-[0-9]{4}$/), name: 'Monstera' },
    },
    { what: 'an example that breaks its schema: generated without it', operationId: 'getHint', method: 'GET', path: '/hints', status: 200, expected: { hint: 'str' } },
  ],
};

async function send(mock: MockServer, row: Pick<Row, 'method' | 'path' | 'body' | 'prefer'>): Promise<{ status: number; mediaType: string; text: string }> {
  const headers: Record<string, string> = {};
  if (row.body !== undefined) headers['content-type'] = 'application/json';
  if (row.prefer) headers.prefer = row.prefer;
  const response = await fetch(mock.url + row.path, { method: row.method, headers, body: row.body === undefined ? undefined : JSON.stringify(row.body) });
  return { status: response.status, mediaType: mediaEssence(response.headers.get('content-type') ?? ''), text: await response.text() };
}

describe.each(['3.0', '3.1'] as const)('answers generated from the schemas of fixtures/specs/generated-bodies-%s', (version) => {
  const spec = corpusSpec(`generated-bodies-${version}`);
  let mock: MockServer;
  let contract: CompiledContract;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
    contract = await readContract(spec);
  });
  afterAll(() => mock?.close());

  it.each(rows[version])('$what: $method $path', async (row) => {
    const reply = await send(mock, row);
    expect(reply.status, reply.text).toBe(row.status);
    expect(reply.mediaType).toBe('application/json');
    const validate = contract.operations.get(row.operationId)?.responses.get(row.status)?.content.get('application/json')?.validate;
    expect(validate).toBeDefined();
    const body = JSON.parse(reply.text) as unknown;
    expect(validate?.(body) ? [] : validate?.errors, reply.text).toEqual([]);
    expect(body).toEqual(row.expected);
  });
});

describe('where nothing valid can be generated', () => {
  const dir = mkdtempSync(join(tmpdir(), 'generated-bodies-'));
  const write = (name: string, document: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(document));
    return path;
  };
  const answering = (schema: unknown, schemas: Record<string, unknown> = {}) => ({
    openapi: '3.1.0',
    info: { title: 'Unanswerable', version: '1' },
    paths: { '/things': { get: { operationId: 'getThing', responses: { '200': { description: 'a thing', content: { 'application/json': { schema } } } } } } },
    components: { schemas },
  });

  it.each([
    [
      'a `not` the generated value meets, without an example',
      { type: 'object', required: ['code'], properties: { code: { type: 'string', not: { const: 'string' } } } },
      {},
      /\/code must NOT be valid/,
    ],
    [
      'a schema whose every value recurses (a required self)',
      { $ref: '#/components/schemas/Loop' },
      { Loop: { type: 'object', required: ['self'], properties: { self: { $ref: '#/components/schemas/Loop' } } } },
      /every branch recurses, it nests past the bound, or/,
    ],
    [
      'a required array of 10^8 items of 10^6 characters each (generating it held gigabytes, then the process died)',
      { type: 'object', required: ['rows'], properties: { rows: { type: 'array', minItems: 100_000_000, items: { type: 'string', minLength: 1_000_000 } } } },
      {},
      /its value would pass 1 MiB of JSON/,
    ],
  ])('%s: a 500 saying so, and one warning in the log however often it is asked', async (_what, schema, schemas, reason) => {
    const out = new PassThrough();
    const lines: string[] = [];
    out.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const mock = await createMockServer({ port: 0, spec: write('unanswerable.json', answering(schema, schemas)), logger: createLogger('warn', out) });
    try {
      // Two at once (before the first is generated), then one more.
      const replies = await Promise.all([send(mock, { method: 'GET', path: '/things' }), send(mock, { method: 'GET', path: '/things' })]);
      replies.push(await send(mock, { method: 'GET', path: '/things' }));
      for (const reply of replies) {
        expect(reply.status).toBe(500);
        expect(JSON.parse(reply.text)).toEqual({
          error: 500,
          message: expect.stringMatching(
            /^The spec gives no example for this operation's 200 answer \(application\/json\), and the mock could not generate a body its schema accepts .*Add an example/,
          ),
        });
      }
    } finally {
      await mock.close();
    }
    const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((entry) => entry.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/^GET \/things 200 \(application\/json\): the spec gives no example, and no body generated from the schema is valid against it/);
    expect(warnings[0]?.msg).toMatch(reason);
  });

  it('a list whose items no sample satisfies is answered empty where its schema allows it (PowerDNS SearchResults)', async () => {
    const schemas = {
      Result: {
        type: 'object',
        additionalProperties: false,
        oneOf: [{ $ref: '#/components/schemas/Zone' }, { $ref: '#/components/schemas/Record' }],
      },
      Zone: { type: 'object', properties: { name: { type: 'string' }, object_type: { const: 'zone' } } },
      Record: { type: 'object', properties: { content: { type: 'string' }, object_type: { const: 'record' } } },
    };
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: write('empty-list.json', answering({ type: 'array', items: { $ref: '#/components/schemas/Result' } }, schemas)) });
    try {
      const reply = await send(mock, { method: 'GET', path: '/things' });
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.text)).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('a part whose value would pass 1 MiB is left out where the schema allows it, and the rest answered', async () => {
    const huge = { type: 'array', minItems: 100_000_000, items: { type: 'string' } };
    const schema = {
      type: 'object',
      required: ['name', 'grid'],
      properties: {
        name: { type: 'string' },
        tags: huge,
        blob: { type: 'string', minLength: 2_000_000 },
        grid: { type: 'array', items: { type: 'array', minItems: 5000, items: { type: 'string', minLength: 5000 } } },
      },
    };
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: write('huge-parts.json', answering(schema)) });
    try {
      const reply = await send(mock, { method: 'GET', path: '/things' });
      expect([reply.status, JSON.parse(reply.text)]).toEqual([200, { name: 'string', grid: [] }]);
    } finally {
      await mock.close();
    }
  });

  it('an optional list whose items require a string no pattern-made string matches (a pattern written with its slashes) is answered empty', async () => {
    const schemas = {
      Text: { type: 'object', required: ['value'], properties: { value: { type: 'string' }, mappings: { type: 'array', items: { $ref: '#/components/schemas/Mapping' } } } },
      Mapping: { type: 'object', required: ['match'], properties: { match: { type: 'string', pattern: '/^[><=?]$/' } } },
    };
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: write('unmatchable-pattern.json', answering({ $ref: '#/components/schemas/Text' }, schemas)) });
    try {
      const reply = await send(mock, { method: 'GET', path: '/things' });
      expect([reply.status, JSON.parse(reply.text)]).toEqual([200, { value: 'string', mappings: [] }]);
    } finally {
      await mock.close();
    }
  });

  it('a chain of 40 schemas each extending the next by allOf: one flat object with every part', async () => {
    const schemas = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `Level${i}`,
        { allOf: [...(i < 39 ? [{ $ref: `#/components/schemas/Level${i + 1}` }] : []), { type: 'object', required: [`p${i}`], properties: { [`p${i}`]: { type: 'integer', minimum: i } } }] },
      ]),
    );
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: write('allof-chain.json', answering({ $ref: '#/components/schemas/Level0' }, schemas)) });
    try {
      const reply = await send(mock, { method: 'GET', path: '/things' });
      expect([reply.status, JSON.parse(reply.text)]).toEqual([200, Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, i]).reverse())]);
    } finally {
      await mock.close();
    }
  });

  it('a schema Ajv cannot compile stops the start (exit 1), naming the document, the place and the reason', async () => {
    const spec = write('uncompilable.json', {
      openapi: '3.1.0',
      info: { title: 'Uncompilable', version: '1' },
      paths: {
        '/things': {
          post: {
            operationId: 'addThing',
            requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { kind: { enum: [] } } } } } },
            responses: { '201': { description: 'made' } },
          },
        },
      },
    });
    const { code, output } = await run(process.execPath, [MOCK_CLI, '--port', '0', '--spec', spec], {});
    expect(code).toBe(1);
    expect(output).toContain(`${spec}#/paths/~1things/post/requestBody/content/application~1json/schema/properties/kind: the schema cannot be compiled: enum must have non-empty array`);
  });
});
