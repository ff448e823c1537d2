/**
 * The union of a list's pages (issue 38 §2): the suite walks every page at one record a page, by
 * `limit`/`offset` or by a cursor its answers name (`next_cursor`, as Slack's or Lago's lists do),
 * and the pages must hold each record created exactly once. Against an invoices provider of the
 * test's own (node:http, in memory): correct offset and cursor paging pass; an offset off by one that
 * repeats the record before a page, or one that skips a record, fails; so does a cursor naming its own
 * page. A page of 200,000 items is walked without a RangeError (records are gathered one by one).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const Invoice = {
  type: 'object',
  required: ['amount_cents'],
  properties: { id: { type: 'integer', readOnly: true }, amount_cents: { type: 'integer', minimum: 1, maximum: 1_000_000 } },
};
const Problem = { description: 'A problem', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } };
const spec = (paging: 'offset' | 'cursor') => ({
  openapi: '3.1.0',
  info: { title: 'Invoices', version: '1' },
  paths: {
    '/invoices': {
      get: {
        operationId: 'listInvoices',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          paging === 'offset' ? { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } } : { name: 'cursor', in: 'query', schema: { type: 'string', maxLength: 40 } },
        ],
        responses: {
          '200': {
            description: 'A page of invoices',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['invoices'],
                  properties: { invoices: { type: 'array', items: Invoice }, ...(paging === 'cursor' ? { next_cursor: { type: ['string', 'null'] } } : {}) },
                },
              },
            },
          },
          '400': Problem,
        },
      },
      post: {
        operationId: 'createInvoice',
        requestBody: { required: true, content: { 'application/json': { schema: Invoice } } },
        responses: { '201': { description: 'The invoice', content: { 'application/json': { schema: Invoice } } }, '400': Problem, '415': Problem },
      },
    },
    '/invoices/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      get: { operationId: 'getInvoice', responses: { '200': { description: 'The invoice', content: { 'application/json': { schema: Invoice } } }, '400': Problem, '404': Problem } },
      delete: { operationId: 'deleteInvoice', responses: { '204': { description: 'Deleted' }, '400': Problem, '404': Problem } },
    },
  },
});
const dir = mkdtempSync(join(tmpdir(), 'list-pages-union-'));
const specFile = (paging: 'offset' | 'cursor'): string => {
  const file = join(dir, `${paging}.json`);
  writeFileSync(file, JSON.stringify(spec(paging)));
  return file;
};
const OFFSET_SPEC = specFile('offset');
const CURSOR_SPEC = specFile('cursor');

/** repeats: each page after the first starts with the record before it too; skips: one record late; own-cursor: next_cursor names the page's own start; huge: the page after the first holds 200,000 items. */
type Flaw = 'repeats' | 'skips' | 'own-cursor' | 'huge' | undefined;

function runAgainst(paging: 'offset' | 'cursor', flaw: Flaw): Promise<ContractReport> {
  const invoices = new Map<number, { id: number; amount_cents: number }>();
  let last = 0;
  return runSuiteAgainst(
    (request, answer) => {
      const { url } = request;
      if (url.pathname === '/invoices' && request.method === 'GET') {
        const limit = Number(url.searchParams.get('limit') ?? '20');
        const given = url.searchParams.get(paging === 'offset' ? 'offset' : 'cursor') ?? '0';
        if (!Number.isInteger(limit) || limit < 1 || limit > 100 || (paging === 'offset' ? !/^\d+$/.test(given) : [...given].length > 40))
          return answer(400, { message: 'limit is 1 to 100, offset a number, a cursor at most 40 characters' });
        // Cursors are opaque (base64url of the offset); one this provider never issued starts at the beginning.
        const decoded = paging === 'offset' ? given : Buffer.from(given, 'base64url').toString('latin1');
        const at = /^\d{1,6}$/.test(decoded) ? String(Number(decoded)) : '0';
        if (flaw === 'huge' && at !== '0') return answer(200, { invoices: new Array<object>(200_000).fill({}), next_cursor: null });
        const all = [...invoices.values()];
        const start = Number(at) + (at !== '0' && flaw === 'skips' ? 1 : 0);
        // The off-by-one that repeats: a page after the first starts with the record before it.
        const page = all.slice(at !== '0' && flaw === 'repeats' ? start - 1 : start, start + limit);
        if (paging === 'offset') return answer(200, { invoices: page });
        const following = start + limit < all.length || (flaw === 'huge' && at === '0') ? Buffer.from(String(flaw === 'own-cursor' ? start : start + limit)).toString('base64url') : null;
        return answer(200, { invoices: page, next_cursor: following });
      }
      if (url.pathname === '/invoices' && request.method === 'POST') {
        if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) return answer(415, { message: 'send application/json' });
        const amount = (request.json() as Record<string, unknown> | null | undefined)?.amount_cents;
        if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > 1_000_000) return answer(400, { message: 'amount_cents is 1 to 1000000' });
        const invoice = { id: ++last, amount_cents: amount };
        invoices.set(invoice.id, invoice);
        return answer(201, invoice);
      }
      const item = /^\/invoices\/([^/]+)$/.exec(url.pathname);
      if (item && (request.method === 'GET' || request.method === 'DELETE')) {
        if (!/^[1-9]\d{0,8}$/.test(item[1] ?? '')) return answer(400, { message: 'id is a positive integer' });
        const invoice = invoices.get(Number(item[1]));
        if (!invoice) return answer(404, { message: 'no such invoice' });
        if (request.method === 'GET') return answer(200, invoice);
        invoices.delete(invoice.id);
        return answer(204);
      }
      answer(404, { message: 'no such route' });
    },
    { spec: paging === 'offset' ? OFFSET_SPEC : CURSOR_SPEC, seed: 38, generated: { positive: 2, negative: 2 }, fixtures: [] },
  );
}

const failed = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'failed' || c.status === 'not-judged').map((c) => c.name);
const failures = (report: ContractReport): string[] => report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`);

describe('the union of a list walked page by page', () => {
  it.each(['offset', 'cursor'] as const)('passes a provider paging correctly by %s, every page walked at one record a page', async (paging) => {
    const report = await runAgainst(paging, undefined);
    expect(failures(report)).toEqual([]);
    const union = report.exchanges.filter((e) => e.case.sequence?.union);
    expect(union.length).toBeGreaterThan(0);
    // Each page asked for after the first: as many as records created, less the first.
    const contains = union[0]?.case.sequence?.contains ?? [];
    expect(contains.length).toBeGreaterThan(1);
    expect(union[0]?.case.sequence?.seen).toHaveLength(contains.length);
  });

  it.each([
    ['offset', 'repeats', 'list_pages_advance'],
    ['offset', 'skips', 'ensure_resource_availability'],
    ['cursor', 'repeats', 'list_pages_advance'],
    ['cursor', 'skips', 'ensure_resource_availability'],
    ['cursor', 'own-cursor', 'list_pages_advance'],
  ] as const)('fails a provider paging by %s that %s a record across pages: %s', async (paging, flaw, check) => {
    expect(failed(await runAgainst(paging, flaw))).toContain(check);
  });

  it('walks a page of 200,000 items without a RangeError', async () => {
    const report = await runAgainst('cursor', 'huge');
    const messages = report.findings.map((f) => f.message).join('\n');
    expect(messages).not.toMatch(/call stack|RangeError/);
    expect(report.exchanges.some((e) => e.case.sequence?.kind === 'list-page')).toBe(true);
  });
});
