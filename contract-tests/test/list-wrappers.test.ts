/**
 * A list answer wrapped in an object may hold other arrays beside the records (`warnings` beside
 * `data`): the stateful checks read the member the spec's list schema gives the records, so a
 * correct provider passes, and a list ignoring its limit or keeping a deleted record fails. Against
 * a small labels provider of the test's own (node:http, OpenAPI 3.0, in memory).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const label = { $ref: '#/components/schemas/Label' };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const labelId = { name: 'labelId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Labels', version: '1' },
  security: [],
  paths: {
    '/labels': {
      get: {
        operationId: 'listLabels',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } }],
        responses: {
          '200': {
            description: 'The labels',
            content: json({ type: 'object', required: ['data'], properties: { warnings: { type: 'array', items: { type: 'string' } }, data: { type: 'array', items: label } } }),
          },
          '400': { description: 'Invalid' },
        },
      },
      post: {
        operationId: 'createLabel',
        requestBody: { required: true, content: json(label) },
        responses: { '201': { description: 'Created', content: json(label) }, '400': { description: 'Invalid' } },
      },
    },
    '/labels/{labelId}': {
      get: { operationId: 'getLabel', parameters: [labelId], responses: { '200': { description: 'The label', content: json(label) }, '404': { description: 'None' } } },
      delete: { operationId: 'deleteLabel', parameters: [labelId], responses: { '204': { description: 'Deleted' }, '404': { description: 'None' } } },
    },
  },
  components: {
    schemas: {
      Label: { type: 'object', required: ['text'], properties: { id: { type: 'integer', readOnly: true }, text: { type: 'string', minLength: 1, maxLength: 30 } } },
    },
  },
};
const specFile = join(mkdtempSync(join(tmpdir(), 'list-wrappers-')), 'labels.json');
writeFileSync(specFile, JSON.stringify(SPEC));

type Flaw = 'none' | 'ignores-limit' | 'lists-deleted';

async function runAgainst(flaw: Flaw): Promise<ContractReport> {
  const labels = new Map<number, string>();
  const deleted = new Map<number, string>();
  let lastId = 0;
  return runSuiteAgainst(
    (request, answer) => {
      const { url } = request;
      if (url.pathname === '/labels' && request.method === 'GET') {
        const limit = url.searchParams.get('limit');
        if (limit !== null && !/^(100|[1-9]\d?)$/.test(limit)) return answer(400);
        const listed = [...labels, ...(flaw === 'lists-deleted' ? deleted : [])].map(([id, text]) => ({ id, text }));
        const data = limit === null || flaw === 'ignores-limit' ? listed : listed.slice(0, Number(limit));
        return answer(200, { warnings: ['labels are listed oldest first'], data });
      }
      if (url.pathname === '/labels' && request.method === 'POST') {
        const body = request.json();
        if (body === undefined) return answer(400);
        const text = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).text : undefined;
        const length = typeof text === 'string' ? [...text].length : 0;
        if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '') || typeof text !== 'string' || length < 1 || length > 30) return answer(400);
        labels.set(++lastId, text);
        return answer(201, { id: lastId, text });
      }
      const id = Number(/^\/labels\/(\d+)$/.exec(url.pathname)?.[1]);
      const text = labels.get(id);
      if (text === undefined) return answer(404);
      if (request.method === 'GET') return answer(200, { id, text });
      if (request.method === 'DELETE') {
        labels.delete(id);
        deleted.set(id, text);
        return answer(204);
      }
      answer(404);
    },
    { spec: specFile, seed: 3, generated: { positive: 2, negative: 2 } },
  );
}

const failures = (report: ContractReport): string[] => report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`);

describe('a list wrapping its records beside another array', () => {
  it('passes a correct provider, every list check judging it', async () => {
    const report = await runAgainst('none');
    expect(failures(report)).toEqual([]);
    const judged = (name: string): number => report.checks.find((c) => c.name === name)?.judged ?? 0;
    expect([judged('ensure_resource_availability'), judged('list_honours_parameters'), judged('use_after_free')].every((n) => n > 0)).toBe(true);
    expect(report.ok).toBe(true);
  });

  it('fails a list ignoring its limit (list_honours_parameters)', async () => {
    expect(failures(await runAgainst('ignores-limit')).join('\n')).toMatch(/list_honours_parameters: Listed \d+ records with limit=1/);
  });

  it('fails a list still holding a deleted record (use_after_free)', async () => {
    expect(failures(await runAgainst('lists-deleted')).join('\n')).toMatch(/use_after_free: The list \/labels still holds id \d+ after its delete/);
  });
});
