/**
 * A collection keyed by a property whose schema is a union with a string branch (pi-hole's group
 * `name`: a name or an array of names, the item path `/groups/{name}`): the suite draws a fresh
 * name for every valid body, so the mock, which refuses a repeated key with 409, accepts every one
 * (it used to send one fixed `[]` in every body, and each after the first met the stored record).
 */
import { describe, expect, it } from 'vitest';
import { useMockForSpec } from '../../mocks/test/mock-under-test.js';
import { runContractSuite } from '../index.js';

const group = { type: 'object', properties: { name: { type: 'string' }, comment: { type: 'string' }, enabled: { type: 'boolean' } } };
// Pi-hole answers every write and read with the records in a list: `{groups: [group]}`.
const groups = { type: 'object', properties: { groups: { type: 'array', items: group } } };
const location = { Location: { schema: { type: 'string' } } };
const spec = {
  openapi: '3.0.3',
  info: { title: 'Groups', version: '1' },
  paths: {
    '/groups': {
      post: {
        operationId: 'add_group',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { name: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }, comment: { type: 'string' }, enabled: { type: 'boolean' } },
              },
            },
          },
        },
        responses: { '201': { description: 'created', headers: location, content: { 'application/json': { schema: groups } } }, '400': { description: 'bad request' } },
      },
    },
    '/groups/{name}': {
      parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'get_group', responses: { '200': { description: 'ok', content: { 'application/json': { schema: groups } } }, '404': { description: 'missing' } } },
      put: {
        operationId: 'replace_group',
        requestBody: { content: { 'application/json': { schema: group } } },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: groups } } }, '400': { description: 'bad request' }, '404': { description: 'missing' } },
      },
      delete: { operationId: 'delete_group', responses: { '204': { description: 'gone' }, '404': { description: 'missing' } } },
    },
  },
};

const mock = useMockForSpec(spec);

describe('a key whose schema is a union with a string branch', () => {
  it('gets a fresh value in every valid body: the mock accepts them all', async () => {
    const report = await runContractSuite({ baseUrl: mock.current.url, spec: mock.specFile, seed: 37, generated: { positive: 4, negative: 0 }, checks: ['positive_data_acceptance'] });
    // The generated cases are the ones with a body made from the schema (the shared fixtures send names of their own).
    const generated = report.findings.filter((f) => f.severity === 'failure' && f.exchange.case.id.startsWith('generated:add_group/'));
    expect(generated.map((f) => `${f.exchange.case.id}: ${f.message.slice(0, 200)}`)).toEqual([]);
  }, 120_000);

  it('names each record it made by that string, unquoted, in the item path: read back, updated and deleted', async () => {
    const report = await runContractSuite({
      baseUrl: mock.current.url,
      spec: mock.specFile,
      seed: 37,
      checks: ['ensure_resource_availability', 'resource_consistency', 'use_after_free', 'missing_resource_not_found'],
    });
    const failures = report.findings.filter((f) => f.severity === 'failure');
    expect(failures.map((f) => `${f.check} ${f.exchange.case.id}: ${f.message.slice(0, 200)}`)).toEqual([]);
    const reads = report.exchanges.filter((e) => e.request.method === 'GET' && /\/groups\/[^/]+$/.test(new URL(e.request.url).pathname));
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(decodeURIComponent(new URL(read.request.url).pathname)).toMatch(/^\/groups\/[^"[\]]+$/);
  }, 120_000);
});
