/**
 * A wrapped list whose paging members sit in an object member (Lago's `meta: {current_page, next_page,
 * prev_page, total_pages, total_count}`, Overseerr's `pageInfo: {page, pages, results}`) answers them for
 * the page it shows, as it does members at the top: the mock answered the example's (page 2 of 4, 70
 * records) whatever it held. Overseerr pages by `take`/`skip` (TypeORM's names): `take` is a page size.
 * Every answer is judged against the operation's declared response.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { expectDeclared, type Reply } from './corpus.js';

const realWorld = (file: string): string => fileURLToPath(new URL(`../../fixtures/real-world/${file}`, import.meta.url));

async function get(mock: MockServer, path: string, headers: Record<string, string>): Promise<Reply> {
  const response = await fetch(mock.url + path, { headers });
  const text = await response.text();
  const answered: Record<string, string> = {};
  response.headers.forEach((value, name) => (answered[name] = value));
  return { method: 'GET', status: response.status, headers: answered, mediaType: 'application/json', text, json: JSON.parse(text) };
}

async function seed(mock: MockServer, collection: string, records: unknown[]): Promise<void> {
  const response = await fetch(`${mock.url}/__mock/${collection}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(records) });
  expect(response.status, await response.text()).toBe(200);
}

describe('Lago: meta holds the page shown', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: realWorld('lago/openapi.yaml'), tokens: ['lago-key'] });
    await seed(
      mock,
      'add_ons',
      Array.from({ length: 25 }, (_, i) => ({ code: `c${i}`, name: `n${i}`, amount_cents: 100, amount_currency: 'USD' })),
    );
  });
  afterAll(() => mock?.close());
  const auth = { authorization: 'Bearer lago-key' };

  it('counts the records and pages, and names the next and previous page numbers (null where there is none)', async () => {
    const first = expectDeclared(mock, 'findAllAddOns', await get(mock, '/add_ons', auth), 200);
    expect(first.add_ons).toHaveLength(20);
    expect(first.meta).toEqual({ current_page: 1, next_page: 2, prev_page: null, total_pages: 2, total_count: 25 });
    const last = expectDeclared(mock, 'findAllAddOns', await get(mock, '/add_ons?per_page=10&page=3', auth), 200);
    expect(last.add_ons.map((a: { code: string }) => a.code)).toEqual(['c20', 'c21', 'c22', 'c23', 'c24']);
    expect(last.meta).toEqual({ current_page: 3, next_page: null, prev_page: 2, total_pages: 3, total_count: 25 });
  });
});

describe('Overseerr: pageInfo holds the page shown, paged by take and skip', () => {
  let mock: MockServer;
  let operationId: string;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: realWorld('overseerr/overseerr-api.yml'), tokens: ['seerr-key'] });
    operationId = [...mock.engine.contract.operations].find(([, o]) => o.path === '/user' && o.method === 'get')?.[0] as string;
    await seed(
      mock,
      'user',
      Array.from({ length: 25 }, (_, i) => ({ id: i + 1, email: `u${i}@example.com` })),
    );
  });
  afterAll(() => mock?.close());
  const auth = { 'x-api-key': 'seerr-key' };

  it('answers take records from skip, with the total, the page count and the page number', async () => {
    const page = expectDeclared(mock, operationId, await get(mock, '/user?take=10&skip=10', auth), 200);
    expect(page.results.map((u: { id: number }) => u.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(page.pageInfo).toEqual({ page: 2, pages: 3, results: 25 });
    const all = expectDeclared(mock, operationId, await get(mock, '/user', auth), 200);
    expect(all.results).toHaveLength(25);
    expect(all.pageInfo).toEqual({ page: 1, pages: 1, results: 25 });
  });
});
