/**
 * The mock's own answers in the shapes the spec declares (engine/error-answers.ts): every status
 * the mock can answer by itself × the error schemas of the test specs and of generated ones,
 * each body valid against its schema; then over real HTTP, the mock, the Prism mock and the
 * proxy on a problem+json spec and on a `default: Error {code, message}` spec.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract, loadContract } from '../../openapi/operations/compile.js';
import { type CompiledContract, type ContractOperation } from '../../openapi/operations/model.js';
import { declaredFor, ErrorAnswers, realmOf } from '../engine/error-answers.js';
import { FORCEABLE_STATUSES, forcedRejection, reject, type Rejection } from '../errors.js';
import { startPrismMock, type PrismMock } from '../prism/server.js';
import { createMockServer, type MockServer } from '../server.js';

const specPath = (name: string): string => fileURLToPath(new URL(`../../fixtures/specs/${name}/openapi.yaml`, import.meta.url));
const PROBLEM_SPEC = specPath('problem-details');
const DEFAULT_SPEC = specPath('default-error');

const route = { allow: 'GET, OPTIONS', challengeScheme: 'Bearer', realm: 'test' };
/** Every status the mock answers by itself, each as a rejection of the catalogue. */
const ownRejections: Rejection[] = [
  ...FORCEABLE_STATUSES.map((status) => forcedRejection(status, route)),
  reject('INVALID_REQUEST_BODY', { schema: 'Order', problems: ['plant is required', 'quantity must be >= 1'] }),
  reject('MISSING_CREDENTIALS', { realm: 'test', scheme: 'Bearer', expected: "'Authorization: Bearer <token>'" }),
  reject('ROUTE_NOT_FOUND', { method: 'GET', path: '/nope', api: 'Test', operations: 'GET /things' }),
  reject('DUPLICATE_ID', { ids: ['7'], noun: 'order', property: 'orderId', listing: '/__mock/orders' }),
  reject('STORE_UNAVAILABLE', {}),
  reject('INTERNAL', { kind: 'a TypeError' }),
];

/** The declared JSON media an answer must follow, or undefined when our Error (or no JSON) applies. */
function declaredMedia(operation: ContractOperation, status: number) {
  const response = declaredFor(operation, status);
  if (!response) return undefined;
  return [...response.content.values()].find((m) => m.mediaType === 'application/problem+json') ?? [...response.content.values()].find((m) => /json/.test(m.mediaType));
}

function expectRendered(contract: CompiledContract, operation: ContractOperation, rejection: Rejection): void {
  const answer = new ErrorAnswers(contract).answer(rejection, { operation });
  const where = `${operation.operationId} ${rejection.status} ${rejection.code}`;
  expect(answer.status, where).toBe(rejection.status);
  for (const [name, value] of Object.entries(rejection.headers ?? {})) expect(answer.headers?.[name], where).toBe(value);
  const response = declaredFor(operation, rejection.status);
  const media = declaredMedia(operation, rejection.status);
  if (!response) {
    // Declared by no response of its own: the shape the operations that declare one agree on, else ours.
    const others = [...contract.operations.values()].filter((other) => declaredFor(other, rejection.status));
    const body = answer.body === undefined ? undefined : answer.headers?.['content-type']?.includes('json') || answer.headers?.['content-type'] === undefined ? JSON.parse(answer.body) : answer.body;
    const ours = JSON.stringify(body) === JSON.stringify({ error: rejection.status, message: rejection.message });
    const theirs = others.some((other) => {
      const media = declaredMedia(other, rejection.status);
      return media ? media.validate?.(body) === true : declaredFor(other, rejection.status)?.content.size === 0 ? body === undefined : typeof body === 'string';
    });
    expect(ours || theirs, `${where}: ${JSON.stringify(body)}`).toBe(true);
    return;
  }
  if (response.content.size === 0) {
    expect(answer.body, where).toBeUndefined();
    return;
  }
  if (!media) {
    expect(answer.headers?.['content-type'], where).toMatch(/^text\//);
    expect(answer.body, where).toBe(rejection.message);
    return;
  }
  expect(answer.headers?.['content-type'], where).toBe(media.mediaType);
  const body = JSON.parse(answer.body as string);
  expect(media.validate?.(body), `${where}: ${JSON.stringify(body)} ${JSON.stringify(media.validate?.errors)}`).toBe(true);
}

describe('error shapes of the test specs', () => {
  const contracts = {
    seed: loadContract(),
    problem: loadContract(PROBLEM_SPEC),
    default: loadContract(DEFAULT_SPEC),
    // The corpus of issue 21: 3.0 upgraded on load, problem+json, forms, operations without responses.
    'petstore-expanded-3.0': loadContract(specPath('petstore-expanded-3.0')),
    'bookings-3.1': loadContract(specPath('bookings-3.1')),
    'users-forms-3.1': loadContract(specPath('users-forms-3.1')),
    'no-operation-ids': loadContract(specPath('no-operation-ids')),
  };

  it.each(Object.entries(contracts))('renders every own status of every operation of the %s spec valid against the declared schema', (_name, contract) => {
    for (const operation of contract.operations.values()) for (const rejection of ownRejections) expectRendered(contract, operation, rejection);
  });

  it('fills RFC 9457 problem details: type, title, status, detail, and the required traceId a UUID', () => {
    const contract = contracts.problem;
    const rejection = reject('INVALID_REQUEST_BODY', { schema: 'Order', problems: ['plant is required'] });
    const answer = new ErrorAnswers(contract).answer(rejection, { operation: contract.operations.get('placeOrder') });
    expect(answer.headers?.['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body as string)).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: rejection.message,
      traceId: '00000000-0000-0000-0000-000000000000',
    });
  });

  it("puts the status and the explanation where a schema of the operation's own asks, within its bounds", () => {
    const contract = contracts.problem;
    const rejection = reject('DUPLICATE_ID', { ids: ['7'], noun: 'order', property: 'orderId', listing: '/__mock/orders' });
    const body = JSON.parse(new ErrorAnswers(contract).answer(rejection, { operation: contract.operations.get('placeOrder') }).body as string);
    expect(body.status).toBe(409);
    expect(body.reason).toBe(`${rejection.message.slice(0, 39)}…`);
  });

  it('keeps our Error {error, message} for the seed, which declares only 400 as that shape', () => {
    const contract = contracts.seed;
    const operation = contract.operations.get('createPlant');
    for (const rejection of ownRejections) {
      const answer = new ErrorAnswers(contract).answer(rejection, { operation });
      expect(answer.body).toBe(JSON.stringify({ error: rejection.status, message: rejection.message }));
    }
  });

  it('answers where no operation takes the request: the path item when its operations agree, else the document-wide choice', () => {
    const errors = new ErrorAnswers(contracts.default);
    // /tags/{name}: getTag declares a 405 {fault}, putTag a default Error: they disagree, and most operations declare the Error.
    const notAllowed = errors.answer(reject('METHOD_NOT_ALLOWED', { method: 'DELETE', path: '/tags/x', allow: 'GET, PUT, OPTIONS' }), { path: '/tags/x' });
    expect(JSON.parse(notAllowed.body as string)).toEqual({ code: 405, message: expect.stringContaining('DELETE is not allowed') });
    expect(notAllowed.headers?.allow).toBe('GET, PUT, OPTIONS');
    const problems = new ErrorAnswers(contracts.problem);
    const unknown = problems.answer(reject('ROUTE_NOT_FOUND', { method: 'GET', path: '/nope', api: 'x', operations: 'y' }), { path: '/nope' });
    expect(unknown.headers?.['content-type']).toBe('application/problem+json');
    expect(JSON.parse(unknown.body as string)).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it("names the realm after the spec's title", () => {
    expect(realmOf('Plant Store')).toBe('plant-store');
    expect(realmOf('Seed "Catalogue" v2')).toBe('seed-catalogue-v2');
    expect(realmOf('')).toBe('api');
    expect(realmOf('植物')).toBe('api');
  });
});

describe('error shapes of generated schemas (property)', () => {
  const names = ['code', 'status', 'statusCode', 'error', 'error_code', 'message', 'detail', 'title', 'reason', 'type', 'traceId', 'timestamp', 'details', 'errors', 'ok', 'kind'];
  const propertySchema = fc.oneof(
    fc.constant({ type: 'integer' }),
    fc.constantFrom('int32', 'int64').map((format) => ({ type: 'integer', format })),
    fc.constant({ type: 'integer', minimum: 100, maximum: 599 }),
    fc.constant({ type: 'integer', enum: [1, 2] }),
    fc.constant({ type: 'string' }),
    fc.integer({ min: 1, max: 60 }).map((maxLength) => ({ type: 'string', maxLength })),
    fc.integer({ min: 0, max: 20 }).map((minLength) => ({ type: 'string', minLength })),
    fc.constantFrom('date-time', 'uuid', 'uri', 'email', 'uri-reference').map((format) => ({ type: 'string', format })),
    fc.constant({ type: 'string', enum: ['invalid', 'missing'] }),
    fc.constant({ type: ['string', 'null'] }),
    fc.constant({ const: 'fixed' }),
    fc.constant({ type: 'boolean' }),
    fc.constant({ type: 'number', minimum: 1.5 }),
    fc.integer({ min: 0, max: 2 }).map((minItems) => ({ type: 'array', minItems, items: { type: 'string' } })),
    fc.constant({ type: 'object', required: ['at'], properties: { at: { type: 'integer' } } }),
  );
  const errorSchema = fc.dictionary(fc.constantFrom(...names), propertySchema, { minKeys: 1, maxKeys: 6 }).chain((properties) =>
    fc
      .record({
        required: fc.subarray(Object.keys(properties)),
        closed: fc.boolean(),
      })
      .map(({ required, closed }) => ({ type: 'object', required, properties, ...(closed ? { additionalProperties: false } : {}) })),
  );

  it('answers every own status with a body valid against any error schema declared for it', () => {
    fc.assert(
      fc.property(
        errorSchema,
        fc.constantFrom('application/json', 'application/problem+json', 'application/vnd.test+json'),
        fc.constantFrom('400', '404', '4XX', '5XX', 'default'),
        fc.constantFrom(...ownRejections),
        (schema, mediaType, key, rejection) => {
          const contract = compileContract(
            {
              openapi: '3.1.0',
              info: { title: 'Generated', version: '1' },
              paths: {
                '/things/{id}': {
                  get: {
                    operationId: 'getThing',
                    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
                    responses: { '200': { description: 'ok' }, [key]: { description: 'failure', content: { [mediaType]: { schema } } } },
                  },
                },
              },
            },
            'generated',
          );
          const operation = contract.operations.get('getThing') as ContractOperation;
          expectRendered(contract, operation, rejection);
          const media = declaredMedia(operation, rejection.status);
          if (!media) return;
          const body = JSON.parse(new ErrorAnswers(contract).answer(rejection, { operation }).body as string);
          // The explanation where a plain string property named for it is declared.
          if ((schema.properties as Record<string, unknown>).message && JSON.stringify((schema.properties as Record<string, unknown>).message) === '{"type":"string"}') {
            expect(body.message).toBe(rejection.message);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  // Errors that nest: `{errors: [{msg, field}]}`, `{error: {code, message}}`, `{errors: ["…"]}`.
  const itemName = fc.constantFrom('msg', 'message', 'detail', 'code', 'status', 'field', 'pointer', 'path', 'traceId', 'kind');
  const nestedError = fc
    .record({
      outer: fc.constantFrom('errors', 'error', 'details', 'problems'),
      wrapper: fc.constantFrom('array', 'object', 'strings'),
      properties: fc.dictionary(itemName, propertySchema, { minKeys: 0, maxKeys: 4 }),
      messageName: fc.constantFrom('msg', 'message', 'detail', 'description'),
      requiredItems: fc.boolean(),
      outerRequired: fc.boolean(),
      closed: fc.boolean(),
      topMessage: fc.boolean(),
    })
    .map(({ outer, wrapper, properties, messageName, requiredItems, outerRequired, closed, topMessage }) => {
      const item = {
        type: 'object',
        required: [...new Set(requiredItems ? [messageName, ...Object.keys(properties)] : [messageName])],
        properties: { ...properties, [messageName]: { type: 'string' } },
        ...(closed ? { additionalProperties: false } : {}),
      };
      const inner = wrapper === 'object' ? item : { type: 'array', minItems: 1, items: wrapper === 'array' ? item : { type: 'string' } };
      return {
        type: 'object',
        required: outerRequired ? [outer] : [],
        properties: { [outer]: inner, ...(topMessage ? { title: { type: 'string' } } : {}) },
      };
    });

  it('answers every own status valid against a nested error schema, the explanation inside it when the schema asks for it', () => {
    fc.assert(
      fc.property(nestedError, fc.constantFrom('400', '4XX', 'default'), fc.constantFrom(...ownRejections), (schema, key, rejection) => {
        const contract = compileContract(
          {
            openapi: '3.1.0',
            info: { title: 'Generated', version: '1' },
            paths: { '/things': { get: { operationId: 'listThings', responses: { '200': { description: 'ok' }, [key]: { description: 'failure', content: { 'application/json': { schema } } } } } } },
          },
          'generated',
        );
        const operation = contract.operations.get('listThings') as ContractOperation;
        expectRendered(contract, operation, rejection);
        if (!declaredFor(operation, rejection.status)) return;
        const body = JSON.parse(new ErrorAnswers(contract).answer(rejection, { operation }).body as string);
        const [outer] = Object.keys(schema.properties);
        // Required, or the only place for it: the nested error carries the message.
        if (schema.required.length || !('title' in schema.properties)) {
          const nested = body[outer as string];
          const first = Array.isArray(nested) ? nested[0] : nested;
          const carried = typeof first === 'string' ? first : Object.values(first ?? {}).filter((value) => value === rejection.message);
          expect(carried.length, JSON.stringify(body)).toBeGreaterThan(0);
          if (typeof first === 'string') expect(first).toBe(rejection.message);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('over HTTP: a problem+json spec', () => {
  let mock: MockServer;
  const token = { authorization: 'Bearer t' };
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: PROBLEM_SPEC, maxBody: 200 });
  });
  afterAll(async () => {
    await mock?.close();
  });
  const contract = () => mock.engine.contract;
  const problem = () => contract().componentValidator('Problem');

  async function call(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
    const response = await fetch(mock.url + path, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
  }
  function expectProblem(response: Awaited<ReturnType<typeof call>>, status: number): void {
    expect(response.status, response.text).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(problem()(response.json), JSON.stringify(problem().errors)).toBe(true);
    expect(response.json.status).toBe(status);
    expect(response.json.detail.length).toBeGreaterThan(10);
  }

  it('answers 401 as a problem, challenging with the realm of the title', async () => {
    const response = await call('POST', '/orders', { 'content-type': 'application/json' }, '{"orderId":"a","plant":"fern"}');
    expectProblem(response, 401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="greenhouse-orders"');
  });

  it('answers 400, 413 and 415 as problems', async () => {
    expectProblem(await call('POST', '/orders', { ...token, 'content-type': 'application/json' }, '{"orderId":"a"}'), 400);
    expectProblem(await call('POST', '/orders', { ...token, 'content-type': 'application/json' }, `{"orderId":"${'a'.repeat(300)}","plant":"x"}`), 413);
    expectProblem(await call('POST', '/orders', { ...token, 'content-type': 'text/plain' }, 'hello'), 415);
    expectProblem(await call('GET', '/orders?limit=0', token), 400);
  });

  it('answers an unknown path 404 and a method the path does not take 405 as problems', async () => {
    expectProblem(await call('GET', '/nothing-here', token), 404);
    const notAllowed = await call('PATCH', '/orders', token);
    expectProblem(notAllowed, 405);
    expect(notAllowed.headers.get('allow')).toContain('POST');
  });

  it("answers Prefer: code=404 with the spec's example, and a forced 400 without one as a problem saying it was forced", async () => {
    const forced = await call('GET', '/orders/7', { ...token, prefer: 'code=404' });
    expect(forced.status).toBe(404);
    expect(forced.headers.get('content-type')).toBe('application/problem+json');
    expect(forced.json.title).toBe('No such order');
    const forced400 = await call('GET', '/orders/7', { ...token, prefer: 'code=400' });
    expectProblem(forced400, 400);
    expect(forced400.json.detail).toContain('Prefer: code=400');
  });

  it('answers 204 to a stateful operation that declares no responses (a delete)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-responses-'));
    const spec = join(dir, 'openapi.json');
    const thing = { $ref: '#/components/schemas/Thing' };
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'Things', version: '1' },
        paths: {
          '/things': {
            post: {
              operationId: 'addThing',
              requestBody: { required: true, content: { 'application/json': { schema: thing } } },
              responses: { '201': { description: 'ok', content: { 'application/json': { schema: thing } } } },
            },
          },
          '/things/{id}': {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
            get: { operationId: 'getThing', responses: { '200': { description: 'ok', content: { 'application/json': { schema: thing } } } } },
            delete: { operationId: 'removeThing' },
          },
        },
        components: { schemas: { Thing: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } } } } },
      }),
    );
    const things = await createMockServer({ port: 0, logLevel: 'silent', spec });
    try {
      expect(things.engine.stateful.has('removeThing')).toBe(true);
      const created = await fetch(`${things.url}/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":1,"name":"a"}' });
      expect(created.status).toBe(201);
      const removed = await fetch(`${things.url}/things/1`, { method: 'DELETE' });
      expect(removed.status).toBe(204);
      expect(await removed.text()).toBe('');
      expect((await fetch(`${things.url}/things/1`)).status).toBe(404);
    } finally {
      await things.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 204 to an operation that declares no responses', async () => {
    const response = await call('GET', '/health');
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
  });

  it('answers the Prism mock’s own 413 as a problem too', async () => {
    const prism: PrismMock = await startPrismMock({ port: 0, spec: PROBLEM_SPEC, maxBody: 50 });
    try {
      const response = await fetch(`${prism.url}/orders`, { method: 'POST', headers: { ...token, 'content-type': 'application/json' }, body: `{"orderId":"${'a'.repeat(100)}"}` });
      expect(response.status).toBe(413);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(problem()(await response.json())).toBe(true);
    } finally {
      await prism.close();
    }
  });

  it("answers the proxy's own 502 as the operation's 5XX problem", async () => {
    // A port that was just free: nothing listens there.
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const proxy = await createMockServer({ port: 0, logLevel: 'silent', spec: PROBLEM_SPEC, proxy: { upstream: `http://127.0.0.1:${port}` } });
    try {
      const response = await fetch(`${proxy.url}/orders`, { method: 'POST', headers: { ...token, 'content-type': 'application/json' }, body: '{"orderId":"a","plant":"x"}' });
      expect(response.status).toBe(502);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const body = await response.json();
      expect(problem()(body)).toBe(true);
      expect(body.status).toBe(502);
    } finally {
      await proxy.close();
    }
  });
});

describe('over HTTP: the petstore-expanded shape (OpenAPI 3.0, default Error {code, message})', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: specPath('petstore-expanded-3.0') });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it.each([
    ['an unknown pet', 'GET', '/pets/987654', undefined, 404],
    ['a create without its required name', 'POST', '/pets', '{"tag":"x"}', 400],
    ['a method the path does not take', 'PATCH', '/pets', undefined, 405],
    ['an unknown path', 'GET', '/owners', undefined, 404],
  ] as const)('answers %s as its default Error {code, message}', async (_what, method, path, body, status) => {
    const response = await fetch(mock.url + path, { method, body, headers: body ? { 'content-type': 'application/json' } : {} });
    const text = await response.text();
    expect(response.status, text).toBe(status);
    const answer = JSON.parse(text);
    expect(answer).toEqual({ code: status, message: expect.any(String) });
    expect(mock.engine.contract.componentValidator('Error')(answer)).toBe(true);
  });
});

describe('over HTTP: a default Error {code, message} spec', () => {
  let mock: MockServer;
  const key = { 'x-api-key': 'k' };
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: DEFAULT_SPEC });
  });
  afterAll(async () => {
    await mock?.close();
  });
  const call = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(mock.url + path, { method, headers });
    const text = await response.text();
    return { status: response.status, contentType: response.headers.get('content-type'), headers: response.headers, text };
  };

  it.each([
    ['a missing API key', 'GET', '/seeds', {}, 401],
    ['a query parameter out of bounds', 'GET', '/seeds?limit=99', key, 400],
    ['an unknown path', 'GET', '/nowhere', key, 404],
    ['a method no operation of the path takes (its operations disagree: the document-wide Error)', 'DELETE', '/tags/x', key, 405],
  ] as const)('answers %s as {code, message}', async (_what, method, path, headers, status) => {
    const response = await call(method, path, headers);
    expect(response.status, response.text).toBe(status);
    expect(response.contentType).toMatch(/^application\/json/);
    const body = JSON.parse(response.text);
    expect(Object.keys(body)).toEqual(['code', 'message']);
    expect(body.code).toBe(status);
    expect(mock.engine.contract.componentValidator('Error')(body)).toBe(true);
    // An API key has no HTTP authentication scheme: no invented challenge (errors.ts, challengeFor).
    if (status === 401) expect(response.headers.get('www-authenticate')).toBeNull();
  });

  it('answers a bad path id as the text/plain 400 that operation declares', async () => {
    const response = await call('GET', '/seeds/abc', key);
    expect(response.status).toBe(400);
    expect(response.contentType).toMatch(/^text\/plain/);
    expect(response.text).toMatch(/^The request's parameters do not fit the spec/);
  });
});
