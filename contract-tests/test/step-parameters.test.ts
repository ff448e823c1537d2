/**
 * A stateful sequence's steps send the operation's required header and query parameters the step
 * does not name itself (a valid value, as the other valid cases do): a provider requiring an
 * X-Region header on every call is walked through its records, and judged on them. Against a small
 * notes provider of the test's own (node:http, OpenAPI 3.1).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const memo = { $ref: '#/components/schemas/Memo' };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const region = { name: 'X-Region', in: 'header', required: true, schema: { type: 'string', enum: ['eu', 'us'] } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Memos', version: '1' },
  security: [],
  paths: {
    '/memos': {
      parameters: [region],
      get: { operationId: 'listMemos', responses: { '200': { description: 'Every memo', content: json({ type: 'array', items: memo }) }, '400': { description: 'No region' } } },
      post: {
        operationId: 'createMemo',
        requestBody: { required: true, content: json(memo) },
        responses: { '201': { description: 'Created', content: json(memo) }, '400': { description: 'Invalid' } },
      },
    },
    '/memos/{memoId}': {
      parameters: [region, { name: 'memoId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
      get: { operationId: 'getMemo', responses: { '200': { description: 'The memo', content: json(memo) }, '400': { description: 'No region' }, '404': { description: 'None' } } },
    },
  },
  components: { schemas: { Memo: { type: 'object', required: ['text'], properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string', minLength: 1, maxLength: 30 } } } } },
};
const specFile = join(mkdtempSync(join(tmpdir(), 'step-parameters-')), 'memos.json');
writeFileSync(specFile, JSON.stringify(SPEC));

/** `forgets`: a memo is never found again after its create. */
async function runAgainst(forgets: boolean): Promise<ContractReport> {
  const memos = new Map<number, string>();
  return runSuiteAgainst(
    (request, answer) => {
      if (request.headers['x-region'] !== 'eu' && request.headers['x-region'] !== 'us') return answer(400);
      const { url } = request;
      if (url.pathname === '/memos' && request.method === 'GET')
        return answer(
          200,
          [...memos].map(([id, text]) => ({ id, text })),
        );
      if (url.pathname === '/memos' && request.method === 'POST') {
        const body = request.json();
        if (body === undefined) return answer(400);
        const text = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).text : undefined;
        const length = typeof text === 'string' ? [...text].length : 0;
        if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '') || typeof text !== 'string' || length < 1 || length > 30) return answer(400);
        const id = memos.size + 1;
        memos.set(id, text);
        if (forgets) memos.set(id, '');
        return answer(201, { id, text });
      }
      const id = Number(/^\/memos\/(\d+)$/.exec(url.pathname)?.[1]);
      const text = memos.get(id);
      if (request.method === 'GET' && text) return answer(200, { id, text });
      answer(404);
    },
    { spec: specFile, seed: 6, generated: { positive: 2, negative: 2 } },
  );
}

const failures = (report: ContractReport): string[] => report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`);

describe('a provider requiring a header parameter on every call', () => {
  it('is walked through its records and passes', async () => {
    const report = await runAgainst(false);
    expect(failures(report)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'resource_consistency')?.judged).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  });

  it('fails ensure_resource_availability when it forgets what it created', async () => {
    expect(failures(await runAgainst(true)).join('\n')).toMatch(/ensure_resource_availability: Read \/memos\/\d+ answered 404 right after the record was created/);
  });
});
