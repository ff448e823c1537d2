/**
 * A frontend on another origin using the headers its spec declares, in real Chromium: an API key
 * header, a header parameter (X-Tenant) sent with every call, and a response header it reads
 * (X-Total-Count). The preflight must name the first two and every answer expose the third;
 * a header the spec does not declare is still blocked, and the admin routes still refuse the page.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrismMock, type PrismMock } from '../prism/server.js';
import { createMockServer, type MockServer } from '../server.js';
import { chromiumMissing, launchChromium, startFrontendOrigin, patientPage } from './chromium.js';

/** Orders behind an API key in a header, a tenant header on the list, and the list's count in a response header. */
const HEADERS_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Orders', version: '1.0.0' },
  security: [{ key: [] }],
  paths: {
    '/orders': {
      get: {
        operationId: 'listOrders',
        parameters: [{ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'orders',
            headers: { 'X-Total-Count': { schema: { type: 'integer' }, example: 0 } },
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Order' } }, example: [] } },
          },
        },
      },
      post: {
        operationId: 'createOrder',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } },
        responses: {
          '201': {
            description: 'created',
            headers: { Location: { schema: { type: 'string' } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
          },
        },
      },
    },
    '/orders/{id}': {
      get: {
        operationId: 'getOrder',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } } },
      },
    },
  },
  components: {
    securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    schemas: { Order: { type: 'object', required: ['id', 'customer'], properties: { id: { type: 'integer' }, customer: { type: 'string' } } } },
  },
};

function headersSpecFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'spec-headers-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(HEADERS_SPEC));
  return file;
}

interface PageRead {
  status?: number;
  body?: string;
  totalCount?: string | null;
  failed?: string;
}

function fetchFromPage(page: Page, url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<PageRead> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const response = await fetch(url, init);
        return { status: response.status, body: await response.text(), totalCount: response.headers.get('x-total-count') };
      } catch (error) {
        return { failed: String(error) };
      }
    },
    { url, init },
  );
}

const KEY = { 'x-api-key': 'k1' };
const TENANT = { 'x-tenant': 'acme' };
const JSON_BODY = { 'content-type': 'application/json' };

describe.skipIf(chromiumMissing)("the spec's own headers from a page on another origin (Chromium)", () => {
  let mock: MockServer;
  let prism: PrismMock;
  let frontend: Awaited<ReturnType<typeof startFrontendOrigin>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const spec = headersSpecFile();
    [mock, prism, frontend, browser] = await Promise.all([createMockServer({ port: 0, logLevel: 'silent', spec }), startPrismMock({ port: 0, spec }), startFrontendOrigin(), launchChromium()]);
    page = await patientPage(browser);
    await page.goto(frontend.origin);
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([mock?.close(), prism?.close(), frontend?.close()]);
  });

  it('sends the API key header and creates an order', async () => {
    const read = await fetchFromPage(page, `${mock.url}/orders`, { method: 'POST', headers: { ...KEY, ...JSON_BODY }, body: '{"id":1,"customer":"ada"}' });
    expect(read.failed).toBeUndefined();
    expect(read.status).toBe(201);
    expect(JSON.parse(read.body as string)).toEqual({ id: 1, customer: 'ada' });
  });

  it('sends its tenant header with every call, also to a path that does not declare it', async () => {
    const listed = await fetchFromPage(page, `${mock.url}/orders`, { headers: { ...KEY, ...TENANT } });
    expect(listed.failed).toBeUndefined();
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body as string)).toEqual([{ id: 1, customer: 'ada' }]);
    const read = await fetchFromPage(page, `${mock.url}/orders/1`, { headers: { ...KEY, ...TENANT } });
    expect(read.status).toBe(200);
  });

  it('reads the 401 when the key is missing, and the 400 when the tenant is', async () => {
    expect((await fetchFromPage(page, `${mock.url}/orders`, { headers: TENANT })).status).toBe(401);
    const read = await fetchFromPage(page, `${mock.url}/orders`, { headers: KEY });
    expect(read.status).toBe(400);
    expect(read.body).toContain('x-tenant is required');
  });

  it('reads a response header the spec declares (the Prism mock sends X-Total-Count)', async () => {
    const read = await fetchFromPage(page, `${prism.url}/orders`, { headers: { ...KEY, ...TENANT } });
    expect(read.failed).toBeUndefined();
    expect(read.status).toBe(200);
    expect(read.totalCount).toBe('0');
  });

  it('still blocks a header the spec does not declare', async () => {
    const read = await fetchFromPage(page, `${mock.url}/orders`, { headers: { ...KEY, ...TENANT, 'x-not-declared': '1' } });
    expect(read.failed).toMatch(/TypeError/);
  });

  it('still keeps the page out of the admin routes, with the API key header or without', async () => {
    for (const headers of [{}, KEY]) {
      const read = await fetchFromPage(page, `${mock.url}/__mock/orders`, { headers });
      expect(read.failed).toMatch(/TypeError/);
    }
    expect(await mock.store.count('/orders')).toBe(1);
  });
});

describe('the preflight and the exposed headers over HTTP (what the browser reads above)', () => {
  let mock: MockServer;
  let prism: PrismMock;

  beforeAll(async () => {
    // A careless spec: header names that are no field names never reach a header value.
    const spec = structuredClone(HEADERS_SPEC);
    spec.paths['/orders'].get.parameters.push({ name: 'X Bad, evil', in: 'header', required: false, schema: { type: 'string' } });
    const file = join(mkdtempSync(join(tmpdir(), 'spec-headers-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(spec));
    [mock, prism] = await Promise.all([createMockServer({ port: 0, logLevel: 'silent', spec: file }), startPrismMock({ port: 0, spec: file })]);
  });

  afterAll(async () => {
    await Promise.all([mock?.close(), prism?.close()]);
  });

  const preflight = (base: string, path: string) =>
    fetch(base + path, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key,x-tenant' } });
  const named = (value: string | null) => value?.split(/,\s*/) ?? [];

  it.each(['/orders', '/orders/1'])('names ours, the API key header and every header parameter of the spec at %s, on both mocks', async (path) => {
    for (const base of [mock.url, prism.url]) {
      const response = await preflight(base, path);
      expect(response.status).toBe(204);
      expect(named(response.headers.get('access-control-allow-headers')).sort()).toEqual(['authorization', 'content-type', 'prefer', 'x-api-key', 'x-tenant']);
    }
  });

  it('exposes the response headers the spec declares besides ours, on answers and errors', async () => {
    const ok = await fetch(`${mock.url}/orders`, { headers: { origin: 'http://localhost:5173', ...KEY, ...TENANT } });
    const denied = await fetch(`${mock.url}/orders`, { headers: { origin: 'http://localhost:5173' } });
    for (const response of [ok, denied]) {
      expect(named(response.headers.get('access-control-expose-headers'))).toEqual([
        'www-authenticate',
        'allow',
        'preference-applied',
        'plant-store-violations',
        'plant-store-reason',
        'x-total-count',
        'location',
      ]);
    }
    expect([ok.status, denied.status]).toEqual([200, 401]);
  });

  it('keeps the admin routes to our own headers', async () => {
    const response = await fetch(`${mock.url}/__mock/orders`, { method: 'OPTIONS', headers: { 'access-control-request-method': 'GET' } });
    expect(named(response.headers.get('access-control-allow-headers'))).toEqual(['authorization', 'content-type', 'prefer']);
    expect(named(response.headers.get('access-control-expose-headers'))).not.toContain('x-total-count');
  });
});
