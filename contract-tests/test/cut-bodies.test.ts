/**
 * An answer longer than the suite's read limit (1 MiB) is cut, and what is cut is never judged as if it
 * were the provider's JSON: against our mock on an unpaged list holding 1.5 MiB of records (Discourse's
 * GET /posts.json, at the default case count, answered 1 MB), response_schema_conformance failed "the body
 * is not JSON (Unterminated string)" and ensure_resource_availability "answered no array of records".
 * Both now warn that the body was cut; a malformed body within the limit still fails.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { formatReport, runContractSuite } from '../index.js';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Long lists', version: '1' },
  components: { schemas: { Post: { type: 'object', required: ['id', 'raw'], properties: { id: { type: 'string' }, raw: { type: 'string' } } } } },
  paths: {
    '/posts': {
      get: {
        operationId: 'listPosts',
        responses: {
          200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { posts: { type: 'array', items: { $ref: '#/components/schemas/Post' } } } } } } },
        },
      },
      post: {
        operationId: 'createPost',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Post' } } } },
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Post' } } } } },
      },
    },
    '/posts/{id}': {
      get: {
        operationId: 'getPost',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Post' } } } }, 404: { description: 'none' } },
      },
    },
  },
};

let spec: string;
let mock: MockServer;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cut-bodies-'));
  spec = join(dir, 'openapi.json');
  writeFileSync(spec, JSON.stringify(SPEC));
  mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
});
afterAll(() => mock?.close());

const only = (report: Awaited<ReturnType<typeof runContractSuite>>, check: string) => report.checks.find((c) => c.name === check);

describe('a body past the read limit', () => {
  it('is reported as cut, not judged as malformed JSON, on a list of 1.5 MiB', async () => {
    for (let batch = 0; batch < 3; batch++) {
      const records = Array.from({ length: 100 }, (_, i) => ({ id: `seeded-${batch}-${i}`, raw: 'x'.repeat(5000) }));
      const seeded = await fetch(`${mock.url}/__mock/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(records) });
      expect(seeded.status).toBe(200);
    }
    const report = await runContractSuite({
      baseUrl: mock.url,
      token: '',
      spec,
      seed: 5,
      generated: { positive: 1, negative: 0 },
      checks: ['response_schema_conformance', 'ensure_resource_availability'],
    });
    const text = formatReport(report);
    expect(report.ok, text).toBe(true);
    expect(only(report, 'response_schema_conformance')?.status, text).not.toBe('failed');
    expect(text).toContain("The 200 body is longer than the suite's read limit (1 MiB");
    expect(text).toContain("The list /posts's answer is longer than the suite's read limit");
  });

  it.each([
    // Discourse again, at the default case count and another seed: its posts are read only by the list, walked by
    // `before` ("posts with an id lower than this value"), which the mock cannot know to honour: one answer of 1.5 MiB, cut.
    [
      'cut at the read limit',
      { name: 'before', in: 'query', description: 'Load posts with an id lower than this value. Useful for pagination.', schema: { type: 'integer' } },
      "The list /posts's answer is longer than the suite's read limit",
    ],
    // Paged by `page`: the walk stops at the suite's bound of 20 pages, before the records it created.
    ['walked short of the records created', { name: 'page', in: 'query', schema: { type: 'integer', minimum: 0 } }, 'The list /posts did not show id'],
  ])('leaves the checks whose only list was %s warned, not "not judged" (which fails the run)', async (_how, parameter, said) => {
    const listOnly = structuredClone(SPEC) as { paths: Record<string, unknown> };
    delete listOnly.paths['/posts/{id}'];
    (listOnly.paths['/posts'] as { get: Record<string, unknown> }).get.parameters = [parameter];
    const file = join(mkdtempSync(join(tmpdir(), 'cut-bodies-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(listOnly));
    const served = await createMockServer({ port: 0, logLevel: 'silent', spec: file });
    try {
      for (let batch = 0; batch < 3; batch++) {
        const records = Array.from({ length: 100 }, (_, i) => ({ id: `seeded-${batch}-${i}`, raw: 'x'.repeat(5000) }));
        expect((await fetch(`${served.url}/__mock/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(records) })).status).toBe(200);
      }
      const report = await runContractSuite({ baseUrl: served.url, token: '', spec: file, seed: 5, generated: { positive: 1, negative: 0 }, checks: ['resource_consistency', 'list_pages_advance'] });
      const text = formatReport(report);
      expect(
        report.checks.filter((c) => c.status !== 'skipped').map((c) => [c.name, c.status]),
        text,
      ).toEqual([
        ['resource_consistency', 'passed'],
        ['list_pages_advance', 'passed'],
      ]);
      expect(report.ok, text).toBe(true);
      expect(report.findings.filter((f) => f.check === 'resource_consistency').map((f) => f.message)).toEqual([expect.stringContaining(said)]);
    } finally {
      await served.close();
    }
  });

  it('still fails a malformed body within the limit', async () => {
    const broken = http.createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(request.method === 'GET' && request.url === '/posts' ? '{"posts": [{"id": "1", "raw": "unterminated' : '{"id":"1","raw":"a"}');
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    try {
      const report = await runContractSuite({
        baseUrl: `http://127.0.0.1:${(broken.address() as AddressInfo).port}`,
        token: '',
        spec,
        seed: 5,
        generated: { positive: 1, negative: 0 },
        checks: ['response_schema_conformance'],
        includeOperations: ['listPosts'],
      });
      expect(only(report, 'response_schema_conformance')?.status).toBe('failed');
      expect(formatReport(report)).toContain('the body is not JSON');
    } finally {
      broken.closeAllConnections();
      await new Promise((resolve) => broken.close(resolve));
    }
  });
});
