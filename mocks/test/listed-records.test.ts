/**
 * Records only a list answers (mocks/engine/listed-records.ts), over HTTP on real documents: the
 * mock's own list answers every one there is, so a path naming another is answered 404 where the
 * operation declares it, in the spec's error shape with the reason, before any handler (a stateful
 * create below it stores nothing). Maestro's workflows come from the list's example, Gotify's plugins
 * from the body the mock generates; OpenFGA's authorization models, which a POST makes, are left as
 * they were.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../server.js';
import { requestOverHttp } from './mock-under-test.js';

const ROOT = fileURLToPath(new URL('../../fixtures/real-world/', import.meta.url));
const CORPUS = JSON.parse(readFileSync(`${ROOT}index.json`, 'utf8')) as Array<{ name: string; file: string }>;
const specOf = (name: string): string => `${ROOT}${CORPUS.find((entry) => entry.name === name)?.file}`;
const UNKNOWN = '0d5b8a5e-8a7e-4c1f-9a55-2f4f3c0b9e11';

describe('records only a list answers', () => {
  const mocks: MockServer[] = [];
  const start = async (name: string): Promise<MockServer> => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: specOf(name) });
    mocks.push(mock);
    return mock;
  };
  const call = async (mock: MockServer, method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const answer = await requestOverHttp(
      mock.url + path,
      method,
      { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body === undefined ? undefined : JSON.stringify(body),
    );
    return { status: answer.status, type: answer.headers['content-type'], json: answer.text ? JSON.parse(answer.text) : undefined };
  };
  afterAll(async () => {
    await Promise.all(mocks.map((mock) => mock.close()));
  });

  describe('Maestro: workflows from the list example', () => {
    let mock: MockServer;
    const auth = { authorization: 'Bearer listed-token' };
    const account = '/v1/accounts/6b5a8c4e-1f93-41b5-9279-8bc2ad365dd1';
    beforeAll(async () => {
      mock = await start('docusign-maestro');
    });

    it("answers a workflow the list holds, and 404 for one it does not (the spec's problem+json, the list named)", async () => {
      const list = await call(mock, 'GET', `${account}/workflows`, auth);
      const workflows = (list.json.data as Array<{ id: string }>).map((w) => w.id);
      expect(workflows.length).toBeGreaterThan(0);
      for (const id of workflows) expect((await call(mock, 'GET', `${account}/workflows/${id}/trigger-requirements`, auth)).status).toBe(200);
      const unknown = await call(mock, 'GET', `${account}/workflows/${UNKNOWN}/trigger-requirements`, auth);
      expect([unknown.status, unknown.type]).toEqual([404, 'application/problem+json']);
      expect(unknown.json.detail).toContain(`workflowId ${UNKNOWN} names no record: GET /v1/accounts/{accountId}/workflows answers every one there is`);
    });

    it('refuses a trigger below a workflow the list does not hold, and stores nothing; one below a listed workflow is made', async () => {
      const body = { instance_name: 'Listed', trigger_inputs: {} };
      expect((await call(mock, 'POST', `${account}/workflows/${UNKNOWN}/actions/trigger`, auth, body)).status).toBe(404);
      expect((await call(mock, 'GET', `${account}/workflows/${UNKNOWN}/instances`, auth)).json.data).toEqual([]);
      const [workflow] = (await call(mock, 'GET', `${account}/workflows`, auth)).json.data as Array<{ id: string }>;
      const made = await call(mock, 'POST', `${account}/workflows/${workflow?.id}/actions/trigger`, auth, body);
      expect(made.status).toBe(201);
      expect((await call(mock, 'GET', `${account}/workflows/${workflow?.id}/instances/${made.json.instance_id}`, auth)).status).toBe(200);
    });

    it('still answers a status forced with Prefer for any workflow', async () => {
      const forced = await call(mock, 'GET', `${account}/workflows/${UNKNOWN}/trigger-requirements`, { ...auth, prefer: 'code=200' });
      expect(forced.status).toBe(200);
    });
  });

  it("Gotify: a plugin the generated list holds is answered, another is 404 in the spec's Error shape", async () => {
    const mock = await start('gotify');
    const auth = { 'x-gotify-key': 'listed-key' };
    const plugins = (await call(mock, 'GET', '/plugin', auth)).json as Array<{ id: number }>;
    expect(plugins.length).toBeGreaterThan(0);
    const listed = plugins[0]?.id as number;
    expect((await call(mock, 'GET', `/plugin/${listed}/display`, auth)).status).toBe(200);
    const absent = Math.max(...plugins.map((p) => p.id)) + 1;
    const refused = await call(mock, 'GET', `/plugin/${absent}/display`, auth);
    expect(refused.status).toBe(404);
    expect(refused.json).toMatchObject({ error: expect.any(String), errorCode: 404, errorDescription: expect.stringContaining('GET /plugin answers every one there is') });
  });

  it('OpenFGA: an authorization model a POST makes is not a listed record: any id is answered as before', async () => {
    const mock = await start('openfga');
    const auth = { authorization: 'Bearer listed-token' };
    const store = await call(mock, 'POST', '/stores', auth, { name: 'listed' });
    expect(store.status).toBe(201);
    const answer = await call(mock, 'GET', `/stores/${store.json.id}/authorization-models/${UNKNOWN}`, auth);
    expect([answer.status, answer.json?.code]).toEqual([200, undefined]);
  });
});
