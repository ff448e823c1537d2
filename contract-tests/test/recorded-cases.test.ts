/**
 * Recorded requests replayed with --cases (QA item 15, the suite's side): a case for any
 * operation the spec describes runs there — a templated path (`/orders/{{id}}`) finds its
 * operation, a request without a body fits an operation that takes none, a case without a
 * credential goes out under any scheme (a cookie, HTTP Basic), a create whose id the provider
 * assigns is sent without one, and a body whose only fault is a repeated member name is a
 * provider choice, not a case that no longer fits. The mock passes them; a provider that lets
 * the anonymous read through fails ignored_auth on the recorded case.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { runContractSuite, type ContractReport } from '../index.js';
import { startMockProxy, type MockProxy } from './providers/mock-proxy.js';

const KEY = 'till-key';
const SEED = 6_007;
const ORDER = { type: 'object', required: ['customer'], properties: { id: { type: 'integer', format: 'int64', readOnly: true }, customer: { type: 'string', minLength: 1 } } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Till', version: '1' },
  security: [{ key: [] }],
  paths: {
    '/orders': {
      get: { operationId: 'listOrders', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: ORDER } } } } } },
      post: {
        operationId: 'createOrder',
        requestBody: { required: true, content: { 'application/json': { schema: ORDER } } },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: ORDER } } } },
      },
    },
    '/orders/{orderId}': {
      parameters: [{ name: 'orderId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
      get: { operationId: 'getOrder', responses: { '200': { description: 'ok', content: { 'application/json': { schema: ORDER } } }, '404': { description: 'missing' } } },
      delete: { operationId: 'deleteOrder', security: [{ basic: [] }], responses: { '204': { description: 'gone' }, '404': { description: 'missing' } } },
    },
    '/me': {
      get: { operationId: 'whoami', security: [{ session: [] }], responses: { '200': { description: 'me', content: { 'application/json': { schema: { type: 'object' } } } } } },
    },
  },
  components: {
    securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' }, basic: { type: 'http', scheme: 'basic' }, session: { type: 'apiKey', in: 'cookie', name: 'SESSION' } },
  },
};
const CASES = {
  description: 'Requests a till frontend sent, as the mock exports them',
  cases: [
    { name: 'recorded-create', description: 'an order created', expect: 'accepted', request: { id: 'safe-positive', body: { json: { customer: 'bob' } } } },
    { name: 'recorded-list-anonymous', description: 'the list without a key', expect: 'unauthenticated', request: { method: 'GET', path: '/orders', auth: 'none', body: { empty: true } } },
    {
      name: 'recorded-read-anonymous',
      description: 'an order without a key',
      expect: 'unauthenticated',
      request: { method: 'GET', path: '/orders/{{id}}', auth: 'none', id: 'safe-positive', body: { empty: true } },
    },
    {
      name: 'recorded-delete-anonymous',
      description: 'a delete without Basic credentials',
      expect: 'unauthenticated',
      request: { method: 'DELETE', path: '/orders/{{id}}', auth: 'none', id: 'safe-positive', body: { empty: true } },
    },
    { name: 'recorded-me-anonymous', description: 'who am I, without the session cookie', expect: 'unauthenticated', request: { method: 'GET', path: '/me', auth: 'none', body: { empty: true } } },
    { name: 'recorded-repeated-member', description: 'customer given twice', expect: 'rejected-body', request: { body: { text: '{"customer":"a","customer":"b"}' } } },
  ],
};

describe('recorded cases replayed with --cases', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recorded-cases-'));
  const spec = join(dir, 'till.json');
  const cases = join(dir, 'till.cases.json');
  writeFileSync(spec, JSON.stringify(SPEC));
  writeFileSync(cases, JSON.stringify(CASES));
  const closing: Array<MockServer | MockProxy> = [];
  afterAll(async () => {
    for (const server of closing.reverse()) await server.close();
  });
  const run = (baseUrl: string): Promise<ContractReport> =>
    runContractSuite({ baseUrl, token: KEY, basic: 'clerk:pw', spec, cases: [cases], seed: SEED, headers: {}, generated: { positive: 2, negative: 2 } });
  const recorded = (report: ContractReport) => report.exchanges.filter((x) => x.case.source === 'cases');

  it('each runs against its operation, and the mock passes them', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [KEY, 'clerk:pw'] });
    closing.push(mock);
    const report = await run(mock.url);
    const exchanges = recorded(report);
    expect(exchanges.filter((x) => x.outcome === 'not-sent').map((x) => `${x.case.id}: ${x.outcome === 'not-sent' ? x.reason : ''}`)).toEqual([]);
    expect(Object.fromEntries(exchanges.map((x) => [x.case.id, `${x.case.operationId} ${x.outcome === 'response' ? x.response.status : x.outcome}`]))).toEqual({
      'cases:recorded-create': 'createOrder 201',
      'cases:recorded-list-anonymous': 'listOrders 401',
      'cases:recorded-read-anonymous': 'getOrder 401',
      'cases:recorded-delete-anonymous': 'deleteOrder 401',
      'cases:recorded-me-anonymous': 'whoami 401',
      'cases:recorded-repeated-member': 'createOrder 400',
    });
    expect(exchanges.find((x) => x.case.id === 'cases:recorded-repeated-member')?.case.expect).toBe('provider-choice');
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it("the mock's export carries a create whose id the provider assigns, and the replay sends it", async () => {
    const frontend = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [KEY] });
    closing.push(frontend);
    const created = await fetch(`${frontend.url}/orders`, { method: 'POST', headers: { 'x-key': KEY, 'content-type': 'application/json' }, body: '{"customer":"alice"}' });
    expect(created.status).toBe(201);
    const exported = await fetch(`${frontend.url}/__mock/requests?format=cases`);
    expect(exported.status).toBe(200);
    const file = join(dir, 'exported.cases.json');
    writeFileSync(file, await exported.text());
    const provider = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [KEY, 'clerk:pw'] });
    closing.push(provider);
    const report = await runContractSuite({ baseUrl: provider.url, token: KEY, basic: 'clerk:pw', spec, cases: [file], seed: SEED, generated: { positive: 1, negative: 1 } });
    const replayed = recorded(report).filter((x) => x.case.expect === 'accepted');
    expect(replayed.map((x) => `${x.case.operationId} ${x.outcome === 'response' ? x.response.status : x.outcome} ${String(x.case.request.body)}`)).toEqual(['createOrder 201 {"customer":"alice"}']);
    expect(report.ok).toBe(true);
  });

  it('a provider that lets the anonymous session read through fails ignored_auth on the recorded case', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, tokens: [KEY, 'clerk:pw'] });
    closing.push(mock);
    const proxy = await startMockProxy(mock.url, async (request, forward) =>
      request.url === '/me' ? { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"name":"anyone"}') } : forward(),
    );
    closing.push(proxy);
    const report = await run(proxy.url);
    expect(report.findings.filter((f) => f.check === 'ignored_auth' && f.severity === 'failure').map((f) => f.exchange.case.id)).toContain('cases:recorded-me-anonymous');
  });
});
