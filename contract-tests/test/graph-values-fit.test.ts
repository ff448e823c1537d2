/**
 * A query parameter the dependency graph reads as naming another resource's record (its description
 * says "template ... ID") takes a value from an earlier answer only where its own schema accepts that
 * value. PayPal's invoices.list `fields` ("To return only the template name, ID, and default
 * attributes, specify `none`", pattern `(?i)^(all|none)$`) was filled with a template's id, and the
 * suite sent `fields=2` in every valid list request: the mock rightly refused it 400, and the suite
 * failed it on positive_data_acceptance. A value the parameter refuses names nothing it can take.
 */
import { describe, expect, it } from 'vitest';
import { useMockForSpec } from '../../mocks/test/mock-under-test.js';
import { runContractSuite } from '../index.js';

const template = { type: 'object', properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } };
const spec = {
  openapi: '3.1.0',
  info: { title: 'Invoicing', version: '1' },
  paths: {
    '/templates': {
      post: {
        operationId: 'templates.create',
        requestBody: { required: true, content: { 'application/json': { schema: template } } },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: template } } }, '400': { description: 'bad request' } },
      },
      get: {
        operationId: 'templates.list',
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { templates: { type: 'array', items: template } } } } } } },
      },
    },
    '/templates/{template_id}': {
      parameters: [{ name: 'template_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'templates.get', responses: { '200': { description: 'ok', content: { 'application/json': { schema: template } } }, '404': { description: 'missing' } } },
      delete: { operationId: 'templates.delete', responses: { '204': { description: 'gone' }, '404': { description: 'missing' } } },
    },
    '/invoices': {
      get: {
        operationId: 'invoices.list',
        parameters: [
          {
            name: 'fields',
            in: 'query',
            description: 'The fields to return in the response. To return only the template name, ID, and default attributes, specify `none`.',
            schema: { type: 'string', pattern: '^(all|none)$', default: 'all' },
          },
        ],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { items: { type: 'array', items: { type: 'object' } } } } } } },
          '400': { description: 'bad request' },
        },
      },
    },
  },
};

const mock = useMockForSpec(spec);

describe('a parameter the graph reads as naming a record', () => {
  it("takes an earlier answer's value only where its schema accepts it: every valid list request is accepted", async () => {
    const report = await runContractSuite({
      baseUrl: mock.current.url,
      spec: mock.specFile,
      seed: 37,
      generated: { positive: 2, negative: 1 },
      includeOperations: ['invoices.list'],
      checks: ['positive_data_acceptance'],
    });
    const sent = report.exchanges.filter((e) => e.case.expect === 'accepted').map((e) => new URL(e.request.url).searchParams.get('fields'));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((fields) => fields !== null && !/^(all|none)$/.test(fields))).toEqual([]);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.exchange.case.id} ${f.exchange.request.url}: ${f.message.slice(0, 160)}`)).toEqual([]);
  }, 120_000);
});
