/**
 * A refused request is answered with the status the operation declares for it (400, else 422,
 * else a 4XX range or default) in its declared shape; when that answer has no body, the reason
 * still reaches the developer in the plant-store-reason header (exposed to CORS) and the log line
 * (issue 37 §4).
 */
import { describe, expect, it } from 'vitest';
import { useMockForSpec } from './mock-under-test.js';

const thing = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
const create = (responses: Record<string, unknown>) => ({
  post: { requestBody: { required: true, content: { 'application/json': { schema: thing } } }, responses: { '201': { description: 'made' }, ...responses } },
});

describe('the status a refusal takes', () => {
  const mock = useMockForSpec({
    openapi: '3.1.0',
    info: { title: 'refusals', version: '1' },
    paths: {
      '/validated': create({
        '422': {
          description: 'invalid',
          content: { 'application/json': { schema: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' }, status: { type: 'integer' } } } } },
        },
      }),
      '/both': create({ '400': { description: 'bad' }, '422': { description: 'invalid' } }),
      '/bare': create({ '400': { description: 'bad request' } }),
      '/ranged': create({ '4XX': { description: 'client error', content: { 'text/plain': { schema: { type: 'string' } } } } }),
    },
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${mock.current.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('422 where the operation declares 422 and no 400, in the declared shape', async () => {
    const answer = await post('/validated', { name: 7 });
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { detail: string; status: number };
    expect(body.status).toBe(422);
    expect(body.detail).toMatch(/name/);
  });

  it('400 where it declares 400 (and 422 too), or a 4XX range', async () => {
    expect((await post('/both', {})).status).toBe(400);
    const ranged = await post('/ranged', {});
    expect(ranged.status).toBe(400);
    expect(await ranged.text()).toMatch(/name/);
  });

  it('a 400 declared without content: no body, the reason in plant-store-reason, exposed to a browser', async () => {
    const answer = await post('/bare', { name: 1 }, { origin: 'http://localhost:3000' });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toBe('');
    expect(answer.headers.get('plant-store-reason')).toMatch(/name must be a string/);
    expect(answer.headers.get('access-control-expose-headers')?.split(/,\s*/)).toContain('plant-store-reason');
  });
});
