/**
 * `--overlay` (OpenAPI Overlay 1.0.0) and the `x-mock-*` extensions it adds (issue 37 §2): what
 * inference cannot know, stated without editing the spec; each malformed overlay or extension
 * refused at load in one line naming its pointer; a JSONPath script expression never run. Over
 * real HTTP, and the command line in its own process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { call, corpusSpec, expectDeclared } from './corpus.js';
import { startSummary, summaryLines } from '../start-summary.js';
import { MOCK_CLI, run } from './processes.js';

const dir = mkdtempSync(join(tmpdir(), 'overlay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const file = (value: unknown, ext = 'json'): string => {
  const path = join(dir, `f${files++}.${ext}`);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

const thing = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, colour: { type: 'string' } } };
/** Things keyed by a `{key}` no schema declares, created without a Location: the rule finds no identity. */
const things = {
  openapi: '3.1.0',
  info: { title: 'Things', version: '1' },
  paths: {
    '/things': {
      post: {
        operationId: 'addThing',
        requestBody: { required: true, content: { 'application/json': { schema: thing } } },
        responses: { '201': { description: 'added', content: { 'application/json': { schema: thing } } } },
      },
    },
    '/things/search': {
      get: {
        operationId: 'searchThings',
        parameters: [
          { name: 'count', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'from', in: 'query', schema: { type: 'integer', minimum: 0 } },
        ],
        responses: { '200': { description: 'found', content: { 'application/json': { schema: { type: 'object', properties: { found: { type: 'array', items: thing } } } } } } },
      },
    },
    '/things/{key}': {
      parameters: [{ name: 'key', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getThing', responses: { '200': { description: 'the thing', content: { 'application/json': { schema: thing } } }, '404': { description: 'none' } } },
    },
    '/things/{key}/discard': {
      parameters: [{ name: 'key', in: 'path', required: true, schema: { type: 'string' } }],
      post: { operationId: 'discardThing', responses: { '204': { description: 'gone' }, '404': { description: 'none' } } },
    },
  },
};
const spec = file(things);
const overlay = (actions: unknown[]): string => file({ overlay: '1.0.0', info: { title: 'mock hints', version: '1' }, actions });
const start = (overlays: string[], at = spec): Promise<MockServer> => createMockServer({ port: 0, logLevel: 'silent', spec: at, overlays });
const refusal = async (overlays: string[], at = spec): Promise<string> => {
  const error = await start(overlays, at).then(
    async (mock) => {
      await mock.close();
      return new Error('started');
    },
    (e: unknown) => e as Error,
  );
  return error.message;
};

describe('an overlay turns a spec the mock leaves stateless into a collection', () => {
  const hints = overlay([
    { target: "$.paths['/things'].post", update: { 'x-mock-identity': '/name' } },
    { target: "$.paths['/things/search'].get", update: { 'x-mock-role': 'list', 'x-mock-page': { size: 'count', offset: 'from' } } },
    { target: "$.paths['/things/{key}/discard'].post", update: { 'x-mock-role': 'delete' } },
  ]);

  it('before: stateless, each operation saying why', async () => {
    const mock = await start([]);
    try {
      expect(mock.engine.collections).toEqual([]);
      expect(mock.engine.stateless.get('addThing')).toBe('no identity: the records of /things declare none of key, thing_id, id and the create answers no Location (x-mock-identity names one)');
      expect(mock.engine.stateless.get('getThing')).toBe('/things is no collection: POST /things: ' + mock.engine.stateless.get('addThing'));
      // At start, where the Collection lines would be: one line per operation.
      const lines = summaryLines(startSummary(mock.url, mock.engine, 0, 'memory')).filter((line) => line.startsWith('Stateless:'));
      expect(lines).toHaveLength(4);
      expect(lines).toContain(`Stateless:  POST /things: ${mock.engine.stateless.get('addThing')}`);
      const view = await (await fetch(`${mock.url}/__mock/spec`)).json();
      expect(view.operations.find((o: { operationId: string }) => o.operationId === 'addThing')).toMatchObject({ stateful: false, stateless: expect.stringContaining('no identity') });
    } finally {
      await mock.close();
    }
  });

  it('after: create, list (paged by the stated parameters), read and delete over the store', async () => {
    const mock = await start([hints]);
    try {
      expect(mock.engine.collections.map((c) => [c.path, c.identity.property])).toEqual([['/things', 'name']]);
      expect(Object.fromEntries([...mock.engine.stateful].map(([id, op]) => [id, op.role]))).toEqual({ addThing: 'create', searchThings: 'list', getThing: 'read', discardThing: 'delete' });
      expectDeclared(mock, 'addThing', await call(mock, 'POST', '/things', { name: 'kettle', colour: 'red' }), 201);
      expectDeclared(mock, 'addThing', await call(mock, 'POST', '/things', { name: 'lamp' }), 201);
      expect(expectDeclared(mock, 'getThing', await call(mock, 'GET', '/things/kettle'), 200)).toEqual({ name: 'kettle', colour: 'red' });
      expect(expectDeclared(mock, 'searchThings', await call(mock, 'GET', '/things/search?count=1&from=1'), 200)).toEqual({ found: [{ name: 'lamp' }] });
      expect((await call(mock, 'POST', '/things/kettle/discard')).status).toBe(204);
      expect((await call(mock, 'GET', '/things/kettle')).status).toBe(404);
    } finally {
      await mock.close();
    }
  });

  it('the same extensions written in the spec itself are honoured', async () => {
    const written = structuredClone(things) as any;
    written.paths['/things'].post['x-mock-identity'] = '/name';
    const mock = await start([], file(written));
    try {
      expect(mock.engine.collections.map((c) => c.identity.property)).toEqual(['name']);
    } finally {
      await mock.close();
    }
  });

  it('x-mock-envelope: false and x-mock-role: none leave operations stateless, saying so', async () => {
    const mock = await start([overlay([{ target: "$.paths['/articles'].post", update: { 'x-mock-envelope': false } }])], corpusSpec('envelopes'));
    try {
      expect(mock.engine.collections).toEqual([]);
      expect(mock.engine.stateless.get('createArticle')).toContain('no identity');
    } finally {
      await mock.close();
    }
    const none = await start([overlay([{ target: "$.paths['/articles/{slug}'].delete", update: { 'x-mock-role': 'none' } }])], corpusSpec('envelopes'));
    try {
      expect(none.engine.stateful.has('deleteArticle')).toBe(false);
      expect(none.engine.stateless.get('deleteArticle')).toBe('x-mock-role: none');
    } finally {
      await none.close();
    }
  });

  it('an envelope stated where the body is none is refused', async () => {
    expect(await refusal([overlay([{ target: "$.paths['/things'].post", update: { 'x-mock-envelope': 'thing' } }])])).toBe(
      "#/paths/~1things/post/x-mock-envelope: the request body of POST /things is not an object of the one member 'thing' holding the record (it declares name, colour)",
    );
  });
});

describe('the corpus document lago, through an overlay', () => {
  const lago = fileURLToPath(new URL('../../fixtures/real-world/lago/openapi.yaml', import.meta.url));

  it('keys /customers by the external_id inside its envelope, where the rule finds no identity', async () => {
    const before = await start([], lago);
    try {
      expect(before.engine.stateless.get('createCustomer')).toContain('no identity: the records of /customers (inside the envelope customer) declare none of external_customer_id');
    } finally {
      await before.close();
    }
    const mock = await start(
      [file('overlay: 1.0.0\ninfo: { title: Lago customers, version: "1" }\nactions:\n  - target: $.paths[\'/customers\'].post\n    update: { x-mock-identity: /external_id }\n', 'yaml')],
      lago,
    );
    try {
      expect(mock.engine.collections.find((c) => c.path === '/customers')).toMatchObject({ envelope: 'customer', identity: { property: 'external_id' } });
      const created = expectDeclared(mock, 'createCustomer', await call(mock, 'POST', '/customers', { customer: { external_id: 'c1', name: 'Ann' } }), 200);
      // Read through every allOf part of the answer's CustomerObjectExtended: what the client sent, not the example's.
      expect(created.customer).toMatchObject({ external_id: 'c1', name: 'Ann' });
      expect(expectDeclared(mock, 'findCustomer', await call(mock, 'GET', '/customers/c1'), 200).customer).toMatchObject({ external_id: 'c1', name: 'Ann' });
    } finally {
      await mock.close();
    }
  });
});

describe('a malformed overlay or extension is one line naming its pointer', () => {
  it.each([
    [
      'an overlay of another version',
      () => file({ overlay: '2.0.0', info: { title: 't', version: '1' }, actions: [{ target: '$', update: {} }] }),
      '#/overlay: must be the Overlay version 1.0.x this tool applies (found "2.0.0")',
    ],
    ['no actions', () => file({ overlay: '1.0.0', info: { title: 't', version: '1' }, actions: [] }), '#/actions: must be a non-empty array of actions'],
    ['an action with neither update nor remove', () => overlay([{ target: '$.paths' }]), '#/actions/0: needs an update, or remove: true'],
    ['a target that is no JSONPath', () => overlay([{ target: 'paths./things', update: {} }]), '#/actions/0/target: must be a JSONPath expression starting with $'],
    [
      'an update of a string',
      () => overlay([{ target: '$.info.title', update: { a: 1 } }]),
      '#/actions/0/update: "$.info.title" selects a value that is not an object or array, which an update cannot merge into',
    ],
  ])('%s', async (_name, make, message) => {
    const path = make();
    expect(await refusal([path])).toBe(`overlay ${path}${message}`);
  });

  it.each([
    ["$.paths[?(@.constructor.constructor('return process')().exit(7))]", 'a filter expression'],
    ['$..[(@.length-1)]', 'a script expression'],
  ])('refuses the hostile target %s (%s) without running it', async (target) => {
    const path = overlay([{ target, update: { 'x-mock-role': 'none' } }]);
    expect(await refusal([path])).toBe(`overlay ${path}#/actions/0/target: ${JSON.stringify(target)}: script and filter expressions are refused (an overlay is never run as code)`);
  });

  it.each([
    ["$.paths['/things'].post", { 'x-mock-identity': 'name' }, '#/paths/~1things/post/x-mock-identity: must be a JSON pointer to one member of the record, like "/id", not "name"'],
    ["$.paths['/things'].post", { 'x-mock-identity': '/nope' }, "#/paths/~1things/post/x-mock-identity: the records of /things declare no property 'nope' (they declare name, colour)"],
    ["$.paths['/things'].post", { 'x-mock-role': 'destroy' }, '#/paths/~1things/post/x-mock-role: must be one of create, read, list, update, delete, none, not "destroy"'],
    ["$.paths['/things']", { 'x-mock-role': 'create' }, '#/paths/~1things/x-mock-role: belongs on an operation, not on a path item'],
    ["$.paths['/things'].post", { 'x-mock-collection': 'yes' }, '#/paths/~1things/post/x-mock-collection: must be true or false, not "yes"'],
    ["$.paths['/things'].post", { 'x-mock-envelope': 3 }, '#/paths/~1things/post/x-mock-envelope: must be the member the record is wrapped in (a name) or false, not 3'],
    [
      "$.paths['/things'].post",
      { 'x-mock-colection': false },
      '#/paths/~1things/post/x-mock-colection: unknown extension; the mock reads x-mock-collection, x-mock-identity, x-mock-envelope, x-mock-role, x-mock-page',
    ],
    ["$.paths['/things/search'].get", { 'x-mock-role': 'read' }, "#/paths/~1things~1search/get/x-mock-role: GET /things/search is under no collection's item path (the spec has none)"],
  ])('%s gets %j', async (target, update, message) => {
    expect(await refusal([overlay([{ target, update }])])).toBe(message);
  });

  it('a page parameter the list does not have', async () => {
    const hints = overlay([
      { target: "$.paths['/things'].post", update: { 'x-mock-identity': '/name' } },
      { target: "$.paths['/things/search'].get", update: { 'x-mock-role': 'list', 'x-mock-page': { size: 'limit' } } },
    ]);
    expect(await refusal([hints])).toBe("#/paths/~1things~1search/get/x-mock-page/size: GET /things/search has no query parameter 'limit' (it has count, from)");
  });
});

describe('--overlay on the command line', () => {
  it('is read from the directory the command runs in, repeatable, and a bad one stops the start in one line', async () => {
    const good = overlay([{ target: "$.paths['/things'].post", update: { 'x-mock-identity': '/name' } }]);
    const bad = overlay([{ target: "$.paths['/things'].post", update: { 'x-mock-role': 'destroy' } }]);
    const { code, output } = await run(process.execPath, [MOCK_CLI, '--port', '0', '--spec', spec, '--overlay', basename(good), '--overlay', basename(bad)], { cwd: dir });
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toEqual(['plant-store-mock: #/paths/~1things/post/x-mock-role: must be one of create, read, list, update, delete, none, not "destroy"']);
  });
});
