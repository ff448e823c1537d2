/**
 * Identities as real APIs declare them (fixtures/specs/real-world-identities/): each answer is
 * judged by the mock's own self-check, so an answer that breaks the spec fails here too.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { corpusSpec } from './corpus.js';
import { startSummary, summaryLines } from '../start-summary.js';

const servers: MockServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

async function started(file: string): Promise<MockServer> {
  const server = await createMockServer({ port: 0, logLevel: 'silent', spec: corpusSpec('real-world-identities', file), selfCheck: true });
  servers.push(server);
  return server;
}

async function call(url: string, method: string, body?: unknown): Promise<{ status: number; body: any; violations: string | null }> {
  const response = await fetch(url, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), violations: response.headers.get('plant-store-violations') };
}

describe('identities as real APIs declare them', () => {
  it('an identity the create body declares but does not require is assigned when left out, typed by the uuid path parameter', async () => {
    const { url } = await started('openapi.yaml');
    const created = await call(`${url}/notes`, 'POST', { text: 'hello' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const read = await call(`${url}/notes/${created.body.id}`, 'GET');
    expect(read).toEqual({ status: 200, body: { id: created.body.id, text: 'hello' }, violations: null });
  });

  it('an optional identity the client sends is the key', async () => {
    const { url } = await started('openapi.yaml');
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect((await call(`${url}/notes`, 'POST', { id, text: 'mine' })).status).toBe(201);
    expect((await call(`${url}/notes/${id}`, 'GET')).body).toEqual({ id, text: 'mine' });
  });

  it('a server-assigned identity matches the path parameter pattern, distinct per record', async () => {
    const { url } = await started('openapi.yaml');
    const first = await call(`${url}/tickets`, 'POST', { title: 'a' });
    const second = await call(`${url}/tickets`, 'POST', { title: 'b' });
    expect(first.body.ticket).toMatch(/^T-[0-9]{4}$/);
    expect(second.body.ticket).toMatch(/^T-[0-9]{4}$/);
    expect(second.body.ticket).not.toBe(first.body.ticket);
    expect(first.violations).toBeNull();
    expect(await call(`${url}/tickets/${second.body.ticket}`, 'GET')).toEqual({ status: 200, body: second.body, violations: null });
  });

  it('an identity named for the path noun (`client_id` behind `/clients/{id}`)', async () => {
    const { url } = await started('openapi.yaml');
    const created = await call(`${url}/clients`, 'POST', { name: 'Ada' });
    expect(created).toEqual({ status: 201, body: { client_id: 1, name: 'Ada' }, violations: null });
    expect(await call(`${url}/clients/1`, 'GET')).toEqual({ status: 200, body: { client_id: 1, name: 'Ada' }, violations: null });
    expect((await call(`${url}/clients/2`, 'GET')).status).toBe(404);
  });

  it('a collection at the root (`POST /`, `GET /{id}`)', async () => {
    const { url } = await started('root.yaml');
    const created = await call(`${url}/`, 'POST', { title: 'first' });
    expect(created).toEqual({ status: 201, body: { id: 1, title: 'first' }, violations: null });
    expect(await call(`${url}/1`, 'GET')).toEqual({ status: 200, body: { id: 1, title: 'first' }, violations: null });
    expect((await call(`${url}/2`, 'GET')).status).toBe(404);
  });

  it('without an item path, the identity is typed by the path parameter of its name (`/silence/{silenceID}` beside `/silences`)', async () => {
    const { url } = await started('namesake.yaml');
    const created = await call(`${url}/silences`, 'POST', { comment: 'quiet' });
    expect(created.status).toBe(200);
    expect(created.body.silenceID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // The value the create answered is one the path naming it accepts.
    expect((await call(`${url}/silence/${created.body.silenceID}`, 'GET')).status).toBe(200);
  });

  it('says what it inferred of each collection, at start and at /__mock/spec', async () => {
    const mock = await started('openapi.yaml');
    const lines = summaryLines(startSummary(mock.url, mock.engine, 0, 'memory'));
    expect(lines).toContain('Collection: /notes, /notes/{id}: identity id, sent by the client, else assigned by the mock (a UUID); no list; create, read');
    expect(lines).toContain('Collection: /tickets, /tickets/{ticket}: identity ticket, assigned by the mock (matching ^T-[0-9]{4}$); no list; create, read');
    expect(lines).toContain('Collection: /clients, /clients/{id}: identity client_id, assigned by the mock (an integer sequence); no list; create, read');
    const view = (await (await fetch(`${mock.url}/__mock/spec`)).json()) as { collections: Array<{ path: string; inferred: string }> };
    expect(view.collections.map((collection) => collection.inferred)).toEqual(lines.filter((line) => line.startsWith('Collection: ')).map((line) => line.slice('Collection: '.length)));
  });
});
