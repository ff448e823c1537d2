/**
 * An operation the mock answers from the spec's examples, below a record's item path (a site's
 * certificates) or naming a record by its collection's identity (`/silence/{silenceID}` beside
 * `POST /silences` answering `silenceID`), answers the 404 it declares when that record was never
 * made, as the contract suite expects of any provider (its missing-parent reads read the same rule:
 * openapi/operations/dependencies.ts, recordParameters). Values only a list gives (plugins no client
 * makes) and operations declaring no 404 are answered from the spec as before.
 */
import { describe, expect, it } from 'vitest';
import { call } from './corpus.js';
import { useMockForSpec } from './mock-under-test.js';

const text = { type: 'string' };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', required, properties });
const answer = (schema: unknown, status = '200') => ({ [status]: { description: 'ok', content: { 'application/json': { schema } } } });
const missing = { '404': { description: 'no such record' } };
const path = (name: string) => ({ name, in: 'path', required: true, schema: text });
const site = object({ id: { type: 'string', readOnly: true }, name: text }, ['name']);

const spec = {
  openapi: '3.1.0',
  info: { title: 'Records named by path', version: '1' },
  paths: {
    '/sites': {
      post: { operationId: 'createSite', requestBody: { required: true, content: { 'application/json': { schema: site } } }, responses: answer(site, '201') },
    },
    '/sites/{site_id}': {
      get: { operationId: 'getSite', parameters: [path('site_id')], responses: { ...answer(site), ...missing } },
      delete: { operationId: 'deleteSite', parameters: [path('site_id')], responses: { '204': { description: 'gone' }, ...missing } },
    },
    '/sites/{site_id}/certificates': {
      get: { operationId: 'getCertificates', parameters: [path('site_id')], responses: { ...answer({ type: 'array', items: object({ domain: text }) }), ...missing } },
    },
    '/sites/{site_id}/stats': { get: { operationId: 'getStats', parameters: [path('site_id')], responses: answer(object({ hits: { type: 'integer' } })) } },
    '/silences': {
      post: {
        operationId: 'postSilence',
        requestBody: { required: true, content: { 'application/json': { schema: object({ comment: text }, ['comment']) } } },
        responses: answer(object({ silenceID: text })),
      },
    },
    '/silence/{silenceID}': { get: { operationId: 'getSilence', parameters: [path('silenceID')], responses: { ...answer(object({ id: text, comment: text })), ...missing } } },
    '/plugins': { get: { operationId: 'getPlugins', responses: answer({ type: 'array', items: object({ id: text }) }) } },
    '/plugins/{id}/config': { get: { operationId: 'getPluginConfig', parameters: [path('id')], responses: { ...answer(object({ enabled: { type: 'boolean' } })), ...missing } } },
  },
};

const mock = useMockForSpec(spec);

describe('an operation answered from the spec, naming a record by its path', () => {
  it('answers the 404 it declares below a record never made, its examples while the record exists, and 404 again once it is deleted', async () => {
    expect((await call(mock.current, 'GET', '/sites/never-made/certificates')).status).toBe(404);
    const created = await call(mock.current, 'POST', '/sites', { name: 'blog' });
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    expect((await call(mock.current, 'GET', `/sites/${id}/certificates`)).status).toBe(200);
    expect((await call(mock.current, 'DELETE', `/sites/${id}`)).status).toBe(204);
    expect((await call(mock.current, 'GET', `/sites/${id}/certificates`)).status).toBe(404);
  });

  it("answers 404 for a record named by its collection's identity (a silence by silenceID) never made, and the spec's answer for one made", async () => {
    expect((await call(mock.current, 'GET', '/silence/never-made')).status).toBe(404);
    const created = await call(mock.current, 'POST', '/silences', { comment: 'maintenance' });
    expect(created.status).toBe(200);
    const id = (created.json as { silenceID: string }).silenceID;
    expect(typeof id).toBe('string');
    expect((await call(mock.current, 'GET', `/silence/${encodeURIComponent(id)}`)).status).toBe(200);
  });

  it('answers from the spec where it declares no 404, or where only a list names the record (no client makes plugins)', async () => {
    expect((await call(mock.current, 'GET', '/sites/never-made/stats')).status).toBe(200);
    expect((await call(mock.current, 'GET', '/plugins/7/config')).status).toBe(200);
  });
});
