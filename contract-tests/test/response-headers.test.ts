/**
 * response_headers_conformance: an answer carries every header the spec marks `required` for its
 * status. A provider that leaves a create's required Location out fails it, naming the header; one
 * that sends every required header, in its own letter case and beside headers of its own, passes;
 * and the stateful mock, serving the same spec, passes it. Against a small notes provider of the
 * test's own (node:http, in memory) and the mock over real HTTP.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { runContractSuite, type ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const note = { $ref: '#/components/schemas/Note' };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  security: [],
  paths: {
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/NewNote' }) },
        responses: {
          '201': {
            description: 'Created',
            headers: { Location: { required: true, schema: { type: 'string' } }, 'X-Request-Id': { schema: { type: 'string' } } },
            content: json(note),
          },
          '400': { description: 'Invalid', content: json({ type: 'object', properties: { message: { type: 'string' } } }) },
        },
      },
    },
    '/notes/{noteId}': {
      get: {
        operationId: 'getNote',
        parameters: [{ name: 'noteId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: {
          '200': { description: 'The note', headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer' } } }, content: json(note) },
          '404': { description: 'None' },
        },
      },
    },
  },
  components: {
    schemas: {
      NewNote: { type: 'object', required: ['title'], properties: { title: { type: 'string', minLength: 1, maxLength: 60 } } },
      Note: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string' } } },
    },
  },
};
const specFile = join(mkdtempSync(join(tmpdir(), 'response-headers-')), 'notes.json');
writeFileSync(specFile, JSON.stringify(SPEC));
const OPTIONS = { spec: specFile, seed: 5, generated: { positive: 3, negative: 3 } };

/** The notes provider; `location` and `rateLimit` say whether it sends those headers, and in what letter case. */
async function runAgainst(headers: { location?: string; rateLimit?: string }): Promise<ContractReport> {
  const notes = new Map<number, string>();
  return runSuiteAgainst((request, answer) => {
    const { url } = request;
    const item = /^\/notes\/(\d+)$/.exec(url.pathname);
    if (url.pathname === '/notes' && request.method === 'POST') {
      const body = request.json();
      const title = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).title : undefined;
      const length = typeof title === 'string' ? [...title].length : 0;
      if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '') || typeof title !== 'string' || length < 1 || length > 60)
        return answer(400, { message: 'a title of 1 to 60 characters' });
      const id = notes.size + 1;
      notes.set(id, title);
      return answer(201, { id, title }, headers.location ? { [headers.location]: `/notes/${id}`, 'x-served-by': 'notes-1' } : {});
    }
    const stored = item && request.method === 'GET' ? notes.get(Number(item[1])) : undefined;
    if (item && stored !== undefined) return answer(200, { id: Number(item[1]), title: stored }, headers.rateLimit ? { [headers.rateLimit]: '100' } : {});
    answer(404);
  }, OPTIONS);
}

const failed = (report: ContractReport): string[] => report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`);
const judged = (report: ContractReport): number | undefined => report.checks.find((c) => c.name === 'response_headers_conformance')?.judged;

describe('response_headers_conformance', () => {
  it('passes a provider sending every required header, in its own letter case, beside headers of its own', async () => {
    const report = await runAgainst({ location: 'LOCATION', rateLimit: 'x-rate-limit' });
    expect(failed(report)).toEqual([]);
    expect(judged(report)).toBeGreaterThan(0);
    expect(report.ok).toBe(true);
  });

  it("fails a provider leaving a create's required Location out, and one leaving a read's X-Rate-Limit out", async () => {
    const noLocation = failed(await runAgainst({ rateLimit: 'X-Rate-Limit' }));
    expect(noLocation.length).toBeGreaterThan(0);
    expect(new Set(noLocation)).toEqual(new Set(["response_headers_conformance: The 201 answer has no 'location' header; the spec marks it required for 201."]));
    const noRateLimit = failed(await runAgainst({ location: 'Location' }));
    expect(new Set(noRateLimit)).toEqual(new Set(["response_headers_conformance: The 200 answer has no 'x-rate-limit' header; the spec marks it required for 200."]));
  });

  it('passes the stateful mock serving the same spec', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: specFile });
    try {
      const report = await runContractSuite({ ...OPTIONS, baseUrl: mock.url, token: '' });
      expect(failed(report)).toEqual([]);
      expect(judged(report)).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });
});
