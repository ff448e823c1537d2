/**
 * An identity the schema declares `type: number`, readOnly, behind an integer item path parameter
 * (Overseerr's `RadarrSettings.id` and `/settings/radarr/{radarrId}`): the mock assigns it from its
 * integer sequence. Before, the value was stored as text ("1"), which the answer's `number` refused,
 * so every create and list answered the sample `0` in its place: a client could not name the record
 * it had just made (PUT /settings/radarr/0 was 404). Over real HTTP.
 */
import { describe, expect, it } from 'vitest';
import { useMockForSpec } from './mock-under-test.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const server = { $ref: '#/components/schemas/Server' };
const serverId = { name: 'serverId', in: 'path', required: true, schema: { type: 'integer' } };
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Servers', version: '1' },
  paths: {
    '/servers': {
      get: { operationId: 'listServers', responses: { '200': { description: 'all', content: json({ type: 'array', items: server }) } } },
      post: { operationId: 'createServer', requestBody: { required: true, content: json(server) }, responses: { '201': { description: 'made', content: json(server) } } },
    },
    // Overseerr's MediaRequest: `id: number` behind a string parameter; Issue: behind a number one.
    '/requests': {
      post: { operationId: 'createRequest', requestBody: { required: true, content: json(server) }, responses: { '201': { description: 'made', content: json(server) } } },
    },
    '/requests/{requestId}': {
      get: { operationId: 'getRequest', parameters: [{ ...serverId, name: 'requestId', schema: { type: 'string' } }], responses: { '200': { description: 'one', content: json(server) } } },
    },
    '/issues': {
      post: { operationId: 'createIssue', requestBody: { required: true, content: json(server) }, responses: { '201': { description: 'made', content: json(server) } } },
    },
    '/issues/{issueId}': {
      get: { operationId: 'getIssue', parameters: [{ ...serverId, name: 'issueId', schema: { type: 'number' } }], responses: { '200': { description: 'one', content: json(server) } } },
    },
    '/servers/{serverId}': {
      put: { operationId: 'putServer', parameters: [serverId], requestBody: { required: true, content: json(server) }, responses: { '200': { description: 'ok', content: json(server) } } },
      delete: { operationId: 'deleteServer', parameters: [serverId], responses: { '204': { description: 'gone' } } },
    },
  },
  components: { schemas: { Server: { type: 'object', properties: { id: { type: 'number', example: 0, readOnly: true }, name: { type: 'string' } } } } },
};

describe('a readOnly number identity behind an integer path parameter', () => {
  const mock = useMockForSpec(SPEC);
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${mock.current.url}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: answer.status, json: answer.status === 204 ? undefined : ((await answer.json()) as any) };
  };

  it('is assigned as numbers from the sequence, answered as such, and names the record', async () => {
    const first = await call('POST', '/servers', { name: 'a' });
    const second = await call('POST', '/servers', { name: 'b' });
    expect(first.status).toBe(201);
    expect([typeof first.json.id, typeof second.json.id]).toEqual(['number', 'number']);
    expect(first.json.id).not.toBe(second.json.id);
    expect((await call('GET', '/servers')).json.map((s: { id: number }) => s.id)).toEqual([first.json.id, second.json.id]);
    const put = await call('PUT', `/servers/${second.json.id}`, { name: 'c' });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ id: second.json.id, name: 'c' });
    expect((await call('DELETE', `/servers/${first.json.id}`)).status).toBe(204);
  });

  it('behind a plain string or a number parameter: numbers too, read back at their digits', async () => {
    for (const collection of ['/requests', '/issues']) {
      const made = await call('POST', collection, { name: 'a' });
      const other = await call('POST', collection, { name: 'b' });
      expect([typeof made.json.id, typeof other.json.id]).toEqual(['number', 'number']);
      expect(made.json.id).not.toBe(other.json.id);
      expect(await call('GET', `${collection}/${other.json.id}`)).toEqual({ status: 200, json: { id: other.json.id, name: 'b' } });
    }
  });
});
