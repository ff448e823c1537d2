/**
 * An example its own schema refuses is not answered (issue 37 §1: every answer the mock makes obeys
 * the spec). libre-graph's ListMembers declares `{value: [user]}` and gives a bare array as its
 * example: the mock answered the array, and the contract suite failed the mock's own answer. Now the
 * first example the schema accepts is answered, else a body generated from the schema; an example
 * asked for by name (`Prefer: example=`) is still answered as written, since the client asked for it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';

const SPEC = {
  openapi: '3.0.1',
  info: { title: 'refused examples', version: '1' },
  paths: {
    '/groups/{group-id}/members': {
      get: {
        operationId: 'ListMembers',
        parameters: [{ name: 'group-id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'the members',
            content: {
              'application/json': {
                schema: { title: 'Collection of users', type: 'object', properties: { value: { type: 'array', items: { $ref: '#/components/schemas/user' } } } },
                example: [{ id: '90eedea1', displayName: 'Max Mustermann' }],
              },
            },
          },
        },
      },
    },
    '/teachers': {
      get: {
        operationId: 'ListTeachers',
        responses: {
          '200': {
            description: 'the teachers',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['value'], properties: { value: { type: 'array', items: { $ref: '#/components/schemas/user' } } } },
                examples: {
                  bare: { value: [{ id: 't1', displayName: 'Bare' }] },
                  wrapped: { value: { value: [{ id: 't2', displayName: 'Wrapped' }] } },
                },
              },
            },
          },
        },
      },
    },
  },
  components: { schemas: { user: { type: 'object', properties: { id: { type: 'string' }, displayName: { type: 'string' } } } } },
};

let mock: MockServer;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'refused-examples-'));
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(SPEC));
  mock = await createMockServer({ port: 0, logLevel: 'silent', spec: join(dir, 'openapi.json'), selfCheck: true });
});
afterAll(async () => {
  await mock.close();
});

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown; violations: string | null }> {
  const response = await fetch(mock.url + path, { headers: { authorization: 'Bearer t', ...headers } });
  return { status: response.status, body: JSON.parse(await response.text()), violations: response.headers.get('plant-store-violations') };
}

describe('an example its schema refuses', () => {
  it('is passed over for a body generated from the schema (the collection object, not the bare array)', async () => {
    const answer = await get('/groups/g1/members');
    expect(answer.status).toBe(200);
    expect(answer.violations).toBeNull();
    expect(Array.isArray(answer.body)).toBe(false);
    expect(typeof answer.body).toBe('object');
    const { value } = answer.body as { value?: unknown };
    expect(value === undefined || Array.isArray(value)).toBe(true);
  });

  it('is passed over for the next example the schema accepts', async () => {
    const answer = await get('/teachers');
    expect(answer).toEqual({ status: 200, body: { value: [{ id: 't2', displayName: 'Wrapped' }] }, violations: null });
  });

  it('asked for by name, is answered as written', async () => {
    const answer = await get('/teachers', { prefer: 'example=bare' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([{ id: 't1', displayName: 'Bare' }]);
  });
});
