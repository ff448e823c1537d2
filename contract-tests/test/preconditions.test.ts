/**
 * An update may take an If-Match header (optimistic concurrency, RFC 9110 §13.1.1). The suite
 * cannot know a record's current ETag, so a 412 to a request carrying the If-Match value it made up
 * is the condition failing as it should (info); a 412 to a request without a precondition still
 * refuses a valid body and fails. The stateful sequence's update sends the ETag the record's read
 * answered, so a provider requiring If-Match (428 without it) is judged on its updates too. Against a small pages provider of the test's own (node:http).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const page = { $ref: '#/components/schemas/Page' };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const pageId = { name: 'pageId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
const specOf = (ifMatchRequired: boolean) => ({
  openapi: '3.1.0',
  info: { title: 'Pages', version: '1' },
  security: [],
  paths: {
    '/pages': {
      post: {
        operationId: 'createPage',
        requestBody: { required: true, content: json(page) },
        responses: { '201': { description: 'Created', content: json(page) }, '400': { description: 'Invalid' } },
      },
    },
    '/pages/{pageId}': {
      get: {
        operationId: 'getPage',
        parameters: [pageId],
        responses: { '200': { description: 'The page', headers: { ETag: { schema: { type: 'string' } } }, content: json(page) }, '404': { description: 'None' } },
      },
      put: {
        operationId: 'replacePage',
        parameters: [pageId, { name: 'If-Match', in: 'header', required: ifMatchRequired, schema: { type: 'string', minLength: 1 } }],
        requestBody: { required: true, content: json(page) },
        responses: {
          '200': { description: 'Replaced', content: json(page) },
          '400': { description: 'Invalid' },
          '404': { description: 'None' },
          '412': { description: 'Changed since' },
          '428': { description: 'If-Match is required' },
        },
      },
    },
  },
  components: {
    schemas: { Page: { type: 'object', required: ['title'], properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string', minLength: 1, maxLength: 40 } } } },
  },
});
const specDir = mkdtempSync(join(tmpdir(), 'preconditions-'));
const specFile = (ifMatchRequired: boolean): string => {
  const file = join(specDir, ifMatchRequired ? 'pages-if-match-required.json' : 'pages.json');
  writeFileSync(file, JSON.stringify(specOf(ifMatchRequired)));
  return file;
};

/** `checks`: If-Match, when sent, must be the page's ETag; `requires`: and a replacement without it is 428; `always`: every replacement is answered 412. */
async function runAgainst(ifMatch: 'checks' | 'requires' | 'always'): Promise<ContractReport> {
  const pages = new Map<number, { title: string; version: number }>();
  return runSuiteAgainst(
    (request, answer) => {
      const { url } = request;
      const id = Number(/^\/pages\/(\d+)$/.exec(url.pathname)?.[1]);
      let title: unknown;
      if (request.method === 'POST' || request.method === 'PUT') {
        const body = request.json();
        if (body === undefined) return answer(400);
        title = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).title : undefined;
        const length = typeof title === 'string' ? [...title].length : 0;
        if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '') || typeof title !== 'string' || length < 1 || length > 40) return answer(400);
      }
      if (url.pathname === '/pages' && request.method === 'POST') {
        pages.set(pages.size + 1, { title: title as string, version: 1 });
        return answer(201, { id: pages.size, title });
      }
      const stored = pages.get(id);
      if (!stored) return answer(404);
      const etag = `"v${stored.version}"`;
      if (request.method === 'GET') return answer(200, { id, title: stored.title }, { etag });
      if (request.method === 'PUT') {
        const condition = request.headers['if-match'];
        if (ifMatch === 'requires' && condition === undefined) return answer(428);
        if (ifMatch === 'always' || (condition !== undefined && condition !== etag && condition !== '*')) return answer(412);
        stored.title = title as string;
        stored.version++;
        return answer(200, { id, title: stored.title });
      }
      answer(404);
    },
    { spec: specFile(ifMatch === 'requires'), seed: 9, generated: { positive: 2, negative: 2 } },
  );
}

const failures = (report: ContractReport): string[] => report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`);

describe('an update taking If-Match', () => {
  it('passes a provider answering 412 to the If-Match values the suite made up, and says so', async () => {
    const report = await runAgainst('checks');
    expect(failures(report)).toEqual([]);
    expect(report.findings.some((f) => f.severity === 'info' && /Answered 412 \(precondition failed\): the request's If-Match holds a value the suite made up/i.test(f.message))).toBe(true);
    expect(report.ok).toBe(true);
  });

  it("passes a provider requiring If-Match: the sequence's update sends the ETag the record's read answered", async () => {
    const report = await runAgainst('requires');
    expect(failures(report)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'resource_consistency')?.judged).toBeGreaterThan(1);
    expect(report.ok).toBe(true);
  });

  it('fails a provider answering 412 to replacements that carry no precondition', async () => {
    const found = failures(await runAgainst('always'));
    expect(found.some((f) => /^positive_data_acceptance .*refused with 412/.test(f))).toBe(true);
  });
});
