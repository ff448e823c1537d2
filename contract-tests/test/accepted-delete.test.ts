/**
 * A delete answered 202 Accepted was queued, not done (RFC 9110 §15.3.3): the record may still be
 * read and listed for a while, so use_after_free reports it (info) instead of failing. A delete
 * answered 204 must still be done. Against a small jobs provider of the test's own (node:http,
 * OpenAPI 3.0) whose spec declares both.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

const job = { $ref: '#/components/schemas/Job' };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const jobId = { name: 'jobId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Jobs', version: '1' },
  security: [],
  paths: {
    '/jobs': {
      get: { operationId: 'listJobs', responses: { '200': { description: 'Every job', content: json({ type: 'array', items: job }) } } },
      post: { operationId: 'createJob', requestBody: { required: true, content: json(job) }, responses: { '201': { description: 'Created', content: json(job) }, '400': { description: 'Invalid' } } },
    },
    '/jobs/{jobId}': {
      get: { operationId: 'getJob', parameters: [jobId], responses: { '200': { description: 'The job', content: json(job) }, '404': { description: 'None' } } },
      delete: { operationId: 'deleteJob', parameters: [jobId], responses: { '202': { description: 'Deletion queued' }, '204': { description: 'Deleted' }, '404': { description: 'None' } } },
    },
  },
  components: { schemas: { Job: { type: 'object', required: ['task'], properties: { id: { type: 'integer', readOnly: true }, task: { type: 'string', minLength: 1, maxLength: 30 } } } } },
};
const specFile = join(mkdtempSync(join(tmpdir(), 'accepted-delete-')), 'jobs.json');
writeFileSync(specFile, JSON.stringify(SPEC));

/** The provider's delete answers this status and keeps the job (a queue that runs after the suite's reads). */
async function runAgainst(deleteStatus: 202 | 204): Promise<ContractReport> {
  const jobs = new Map<number, string>();
  return runSuiteAgainst(
    (request, answer) => {
      const { url } = request;
      if (url.pathname === '/jobs' && request.method === 'GET')
        return answer(
          200,
          [...jobs].map(([id, task]) => ({ id, task })),
        );
      if (url.pathname === '/jobs' && request.method === 'POST') {
        const body = request.json();
        if (body === undefined) return answer(400);
        const task = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).task : undefined;
        const length = typeof task === 'string' ? [...task].length : 0;
        if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '') || typeof task !== 'string' || length < 1 || length > 30) return answer(400);
        jobs.set(jobs.size + 1, task);
        return answer(201, { id: jobs.size, task });
      }
      const id = Number(/^\/jobs\/(\d+)$/.exec(url.pathname)?.[1]);
      const task = jobs.get(id);
      if (task === undefined) return answer(404);
      if (request.method === 'GET') return answer(200, { id, task });
      if (request.method === 'DELETE') return answer(deleteStatus);
      answer(404);
    },
    { spec: specFile, seed: 4, generated: { positive: 2, negative: 2 } },
  );
}

const useAfterFree = (report: ContractReport, severity: 'failure' | 'info'): string[] => report.findings.filter((f) => f.check === 'use_after_free' && f.severity === severity).map((f) => f.message);

describe('a record whose delete was answered', () => {
  it('202 Accepted may still be read and listed: reported, not failed', async () => {
    const report = await runAgainst(202);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`)).toEqual([]);
    expect(useAfterFree(report, 'info').join('\n')).toMatch(/Read \/jobs\/\d+ answered 200, but its delete was answered 202 Accepted/);
    expect(report.ok).toBe(true);
  });

  it('204 must be gone: still read, it fails use_after_free', async () => {
    expect(useAfterFree(await runAgainst(204), 'failure').join('\n')).toMatch(/answered 200 after its delete was answered with success: the record was kept/);
  });
});
