/**
 * A POST whose request body is optional, sent without one (issue 37's table): before, a 500
 * TypeError in keyOfBody. A create without a body is a create of an empty record: an assigned
 * identity is assigned (an optional one too), a required client-chosen one is refused in the declared shape.
 */
import { describe, expect, it } from 'vitest';
import { useMockForSpec } from './mock-under-test.js';

const spec = (idReadOnly: boolean, idRequired = false) => ({
  openapi: '3.1.0',
  info: { title: 'silences', version: '1' },
  paths: {
    '/silences': {
      post: {
        operationId: 'createSilence',
        requestBody: { required: false, content: { 'application/json': { schema: { $ref: '#/components/schemas/Silence' } } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Silence' } } } }, '400': { description: 'bad' } },
      },
      get: {
        operationId: 'listSilences',
        responses: { '200': { description: 'all', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Silence' } } } } } },
      },
    },
    '/silences/{id}': {
      get: {
        operationId: 'getSilence',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'one', content: { 'application/json': { schema: { $ref: '#/components/schemas/Silence' } } } } },
      },
    },
  },
  components: { schemas: { Silence: { type: 'object', ...(idRequired ? { required: ['id'] } : {}), properties: { id: { type: 'string', readOnly: idReadOnly }, comment: { type: 'string' } } } } },
});

describe('a create without its optional body', () => {
  const assigned = useMockForSpec(spec(true));
  const optional = useMockForSpec(spec(false));
  const chosen = useMockForSpec(spec(false, true));

  it('with an assigned identity: an empty record is created and can be read back', async () => {
    const answer = await fetch(`${assigned.current.url}/silences`, { method: 'POST' });
    expect(answer.status).toBe(201);
    const made = (await answer.json()) as { id: string };
    expect(typeof made.id).toBe('string');
    expect((await fetch(`${assigned.current.url}/silences/${made.id}`)).status).toBe(200);
  });

  it('with an identity the client may send or leave out: the mock assigns one (issue 37 §2)', async () => {
    const answer = await fetch(`${optional.current.url}/silences`, { method: 'POST' });
    expect(answer.status).toBe(201);
    const made = (await answer.json()) as { id: string };
    expect((await fetch(`${optional.current.url}/silences/${encodeURIComponent(made.id)}`)).status).toBe(200);
  });

  it('with a client-chosen identity the body requires: refused in the declared shape, never a 500', async () => {
    const answer = await fetch(`${chosen.current.url}/silences`, { method: 'POST' });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('plant-store-reason')).toMatch(/id is required/);
  });
});
