/**
 * A list of `$ref` items cannot freeze the mock (issue 39, item 1): 12,000 `{}` items (36 KB)
 * against `items: {$ref: Note}` cost 9.3 CPU-seconds and left `/__mock/health` unanswered for 12 s;
 * 100,000 would have taken minutes. Over real HTTP: the 400 names the first problem, and health is
 * answered beside it (awaited, never timed: the test's limit is a safety net).
 */
import { describe, expect, it } from 'vitest';
import { useMockForSpec } from './mock-under-test.js';

const spec = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes': {
      post: {
        operationId: 'importNotes',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Note' } } } } },
        responses: { '201': { description: 'imported' }, '400': { description: 'refused', content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Note: { type: 'object', required: ['id', 'title', 'body'], properties: { id: { type: 'integer' }, title: { type: 'string' }, body: { type: 'string' } } },
      Problem: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    },
  },
};

describe('a large list of $ref items', () => {
  const mock = useMockForSpec(spec, { maxBody: 1024 * 1024 });

  it('is refused with a 400 naming its first problem, health answered beside it', async () => {
    const body = `[${Array.from({ length: 100_000 }, () => '{}').join(',')}]`;
    const judged = fetch(`${mock.current.url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const health = await fetch(`${mock.current.url}/__mock/health`);
    expect(health.status).toBe(200);
    const response = await judged;
    const text = await response.text();
    expect(response.status, text).toBe(400);
    expect(text).toMatch(/id is required|required/);
  }, 120_000);

  it('still describes every problem of a small invalid list', async () => {
    const response = await fetch(`${mock.current.url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[{"id":1},{"title":"x"}]' });
    const text = await response.text();
    expect(response.status, text).toBe(400);
    for (const problem of ['title', 'body', 'id']) expect(text).toContain(problem);
  });
});
