/**
 * PUT and PATCH cases on a record the run created first (QA item 13): their bodies name that
 * record, so a valid body refused is the provider's fault, where before every case went to an id
 * that did not exist and a refusal was waved through as "the record may not exist". The mock
 * passes; a provider that refuses every replacement fails positive_data_acceptance on the
 * generated cases themselves, not only on the sequence's one update. The same for a nested
 * collection's PUT: its parent record is created first, named in the path, and deleted last.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { runContractSuite, type ContractReport } from '../index.js';
import { startMockProxy, type MockProxy } from './providers/mock-proxy.js';

const TOKEN = 'shelf-token';
const SEED = 8_128;
const BOOK = {
  type: 'object',
  required: ['title'],
  properties: { id: { type: 'integer', format: 'int64', readOnly: true }, title: { type: 'string', maxLength: 80 }, pages: { type: 'integer', minimum: 1 } },
};
const SHELF = {
  type: 'object',
  required: ['label'],
  properties: { id: { type: 'integer', format: 'int64', readOnly: true }, label: { type: 'string', maxLength: 40 } },
};
const ONE = { '200': { description: 'ok', content: { 'application/json': { schema: BOOK } } }, '404': { description: 'missing' } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Shelf', version: '1' },
  security: [{ bearer: [] }],
  paths: {
    '/books': {
      post: {
        operationId: 'createBook',
        requestBody: { required: true, content: { 'application/json': { schema: BOOK } } },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: BOOK } } } },
      },
    },
    '/books/{bookId}': {
      parameters: [{ name: 'bookId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
      get: { operationId: 'getBook', responses: ONE },
      put: { operationId: 'replaceBook', requestBody: { required: true, content: { 'application/json': { schema: BOOK } } }, responses: ONE },
      delete: { operationId: 'deleteBook', responses: { '204': { description: 'gone' }, '404': { description: 'missing' } } },
    },
  },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
};

describe('PUT cases on a record the run created', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pinned-records-'));
  const spec = join(dir, 'shelf.json');
  writeFileSync(spec, JSON.stringify(SPEC));
  const closing: Array<MockServer | MockProxy> = [];
  afterAll(async () => {
    for (const server of closing.reverse()) await server.close();
  });
  const run = (baseUrl: string): Promise<ContractReport> => runContractSuite({ baseUrl, token: TOKEN, spec, seed: SEED, generated: { positive: 10, negative: 5 } });

  it('name that record and are accepted by the mock; the record is deleted afterwards', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [TOKEN] });
    closing.push(mock);
    const report = await run(mock.url);
    const pinned = report.exchanges.filter((x) => x.case.operationId === 'replaceBook' && x.case.onRecord && x.case.expect === 'accepted');
    expect(pinned.length).toBeGreaterThan(20);
    const paths = new Set(pinned.map((x) => new URL(x.request.url).pathname));
    expect(paths.size).toBe(1);
    expect(pinned.filter((x) => x.outcome !== 'response' || x.response.status !== 200).map((x) => x.case.id)).toEqual([]);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
    const gone = await fetch(`${mock.url}${[...paths][0] ?? ''}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(gone.status).toBe(404);
  });

  it('a provider that refuses every replacement fails positive_data_acceptance on those cases', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [TOKEN] });
    closing.push(mock);
    const proxy = await startMockProxy(mock.url, async (request, forward) =>
      request.method === 'PUT' && request.headers.authorization === `Bearer ${TOKEN}`
        ? { status: 422, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"message":"no"}') }
        : forward(),
    );
    closing.push(proxy);
    const report = await run(proxy.url);
    const failed = report.findings.filter((f) => f.check === 'positive_data_acceptance' && f.severity === 'failure' && !f.exchange.case.sequence);
    expect(failed.length).toBeGreaterThan(20);
    expect(failed.every((f) => f.exchange.case.operationId === 'replaceBook')).toBe(true);
  });
});

/** The same books, nested under shelves: the PUT's record needs its shelf first. */
const NESTED_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Shelves', version: '1' },
  security: [{ bearer: [] }],
  paths: {
    '/shelves': {
      post: {
        operationId: 'createShelf',
        requestBody: { required: true, content: { 'application/json': { schema: SHELF } } },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: SHELF } } } },
      },
    },
    '/shelves/{shelfId}': {
      parameters: [{ name: 'shelfId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
      get: { operationId: 'getShelf', responses: { '200': { description: 'ok', content: { 'application/json': { schema: SHELF } } }, '404': { description: 'missing' } } },
      delete: { operationId: 'deleteShelf', responses: { '204': { description: 'gone' }, '404': { description: 'missing' } } },
    },
    '/shelves/{shelfId}/books': {
      parameters: [{ name: 'shelfId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
      post: {
        operationId: 'shelveBook',
        requestBody: { required: true, content: { 'application/json': { schema: BOOK } } },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: BOOK } } }, '404': { description: 'no such shelf' } },
      },
    },
    '/shelves/{shelfId}/books/{bookId}': {
      parameters: [
        { name: 'shelfId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } },
        { name: 'bookId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } },
      ],
      get: { operationId: 'getShelvedBook', responses: ONE },
      put: { operationId: 'replaceShelvedBook', requestBody: { required: true, content: { 'application/json': { schema: BOOK } } }, responses: ONE },
      delete: { operationId: 'unshelveBook', responses: { '204': { description: 'gone' }, '404': { description: 'missing' } } },
    },
  },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
};

describe('PUT cases on a nested record the run created (its parent first)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pinned-nested-'));
  const spec = join(dir, 'shelves.json');
  writeFileSync(spec, JSON.stringify(NESTED_SPEC));
  const closing: Array<MockServer | MockProxy> = [];
  afterAll(async () => {
    for (const server of closing.reverse()) await server.close();
  });
  const run = (baseUrl: string): Promise<ContractReport> => runContractSuite({ baseUrl, token: TOKEN, spec, seed: SEED, generated: { positive: 10, negative: 5 } });

  it('name the record and its shelf and are accepted by the mock; both are deleted afterwards', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [TOKEN] });
    closing.push(mock);
    const report = await run(mock.url);
    const pinned = report.exchanges.filter((x) => x.case.operationId === 'replaceShelvedBook' && x.case.onRecord && x.case.expect === 'accepted');
    expect(pinned.length).toBeGreaterThan(20);
    const paths = new Set(pinned.map((x) => new URL(x.request.url).pathname));
    expect(paths.size).toBe(1);
    const [path = ''] = paths;
    const shelf = /^\/shelves\/([^/]+)\/books\/[^/]+$/.exec(path)?.[1];
    expect(shelf).toBeDefined();
    expect(pinned.filter((x) => x.outcome !== 'response' || x.response.status !== 200).map((x) => x.case.id)).toEqual([]);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
    const auth = { headers: { authorization: `Bearer ${TOKEN}` } };
    expect((await fetch(`${mock.url}${path}`, auth)).status).toBe(404);
    expect((await fetch(`${mock.url}/shelves/${shelf ?? ''}`, auth)).status).toBe(404);
  });

  it('a provider that refuses every replacement of a shelved book fails positive_data_acceptance on those cases', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [TOKEN] });
    closing.push(mock);
    const proxy = await startMockProxy(mock.url, async (request, forward) =>
      request.method === 'PUT' && request.headers.authorization === `Bearer ${TOKEN}`
        ? { status: 422, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"message":"no"}') }
        : forward(),
    );
    closing.push(proxy);
    const report = await run(proxy.url);
    const failed = report.findings.filter((f) => f.check === 'positive_data_acceptance' && f.severity === 'failure' && !f.exchange.case.sequence);
    expect(failed.length).toBeGreaterThan(20);
    expect(failed.every((f) => f.exchange.case.operationId === 'replaceShelvedBook')).toBe(true);
  });
});
