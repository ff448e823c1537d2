/**
 * An identity that is an object whose one member the item path carries (openEHR's `ehr_id:
 * HIER_OBJECT_ID {_type, value}` behind `/ehr/{ehr_id}` with `{ehr_id}: {format: uuid}`): a path
 * segment holds a scalar, so the record is named by that member (openapi/operations/collections.ts,
 * Identity.member). The mock assigns the member (a UUID), keys the record by it and writes it into
 * the Location; the suite reads it from the answer and writes it into the path, never the object
 * (`value,<uuid>`) or a quoted UUID, which the parameter's schema refuses.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileContract } from '../../openapi/operations/compile.js';
import { recogniseCollections } from '../../openapi/operations/collections.js';
import { createdKey, hasKey } from '../sequences.js';
import { mockBehindProxies } from './providers/mock-proxy.js';

const document = {
  openapi: '3.1.0',
  info: { title: 'Object identities', version: '1' },
  paths: {
    '/records': {
      post: {
        operationId: 'createRecord',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewRecord' } } } },
        responses: {
          '201': {
            description: 'created',
            headers: { Location: { schema: { type: 'string' } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Record' } } },
          },
          '400': { description: 'refused' },
        },
      },
    },
    '/records/{record_id}': {
      parameters: [{ name: 'record_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      get: {
        operationId: 'getRecord',
        responses: {
          '200': { description: 'the record', content: { 'application/json': { schema: { $ref: '#/components/schemas/Record' } } } },
          '400': { description: 'refused' },
          '404': { description: 'none' },
        },
      },
      put: {
        operationId: 'putRecord',
        requestBody: { required: false, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewRecord' } } } },
        responses: {
          '200': { description: 'replaced', content: { 'application/json': { schema: { $ref: '#/components/schemas/Record' } } } },
          '201': { description: 'created at that id', content: { 'application/json': { schema: { $ref: '#/components/schemas/Record' } } } },
          '400': { description: 'refused' },
        },
      },
      delete: { operationId: 'deleteRecord', responses: { '204': { description: 'deleted' }, '400': { description: 'refused' }, '404': { description: 'none' } } },
    },
  },
  components: {
    schemas: {
      NewRecord: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      Record: { type: 'object', required: ['record_id', 'name'], properties: { record_id: { $ref: '#/components/schemas/RecordId' }, name: { type: 'string' } } },
      RecordId: {
        type: 'object',
        required: ['value'],
        properties: { _type: { type: 'string', enum: ['RECORD_ID'] }, value: { type: 'string', format: 'uuid' } },
      },
    },
  },
};

const SPEC = join(mkdtempSync(join(tmpdir(), 'object-identity-')), 'openapi.json');
writeFileSync(SPEC, JSON.stringify(document));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('an object identity named in the path by its one member', () => {
  const { url, run, failed } = mockBehindProxies({ spec: SPEC, token: 'object-identity-token', seed: 5, generated: { positive: 1, negative: 1 } });

  it('is inferred once, in the core: the member of the parameter type and format, not the type tag', () => {
    const { collections } = recogniseCollections(compileContract(document, 'object-identity.json'));
    expect(collections[0]?.identity).toEqual({ property: 'record_id', member: 'value', type: 'string', assigned: 'uuid' });
  });

  it('the mock assigns the member, keys the record by it and names it in the Location', async () => {
    const created = await fetch(`${url()}/records`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'a' }) });
    const body = (await created.json()) as { record_id: { value: string }; name: string };
    expect(created.status).toBe(201);
    expect(body.record_id.value).toMatch(UUID);
    expect(created.headers.get('location')).toBe(`/records/${body.record_id.value}`);
    const read = await fetch(`${url()}/records/${body.record_id.value}`);
    expect([read.status, await read.json()]).toEqual([200, body]);
  });

  it("a PUT whose optional body is not sent creates the record at the path (an upsert), its member the path's UUID", async () => {
    const id = '6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f';
    const put = await fetch(`${url()}/records/${id}`, { method: 'PUT' });
    expect(put.status).toBe(201);
    expect(((await put.json()) as { record_id: unknown }).record_id).toEqual({ value: id });
    expect((await fetch(`${url()}/records/${id}`)).status).toBe(200);
  });

  it('the suite reads the key from the member and compares records by it', () => {
    const plan = { collection: '/records', identity: 'record_id', identityMember: 'value', identityType: 'string' as const };
    const id = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
    expect(createdKey({ body: { record_id: { _type: 'RECORD_ID', value: id }, name: 'a' } }, plan)).toBe(JSON.stringify(id));
    expect(hasKey({ record_id: { value: id } }, 'record_id', JSON.stringify(id), 'value')).toBe(true);
    expect(hasKey({ record_id: { value: id } }, 'record_id', JSON.stringify({ value: id }), 'value')).toBe(false);
  });

  it('the suite against the mock: every check passes, the record read and deleted at its UUID', async () => {
    const report = await run(url());
    expect(failed(report)).toEqual([]);
    const paths = report.exchanges.filter((e) => e.case.sequence).map((e) => `${e.case.sequence?.kind} ${e.request.method} ${new URL(e.request.url).pathname}`);
    const read = paths.find((p) => p.startsWith('read GET /records/'));
    expect(read?.split('/').pop()).toMatch(UUID);
    expect(paths.some((p) => /^delete DELETE \/records\/[0-9a-f-]{36}$/.test(p))).toBe(true);
  });
});
