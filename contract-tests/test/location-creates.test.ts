/**
 * A create answering 201 with a `Location` header and no body: the sequence takes the new record's
 * identity from the Location (there is none in a body), reads it back there, lists and deletes it.
 * Against the mock (which serves such creates, mocks/test/location-create.test.ts) it passes; a
 * provider that forgets what it created fails ensure_resource_availability. Where no schema
 * declares the identity (it is only in the URL), a list cannot show which record is which: the
 * list is not judged for it, the reads are.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { runContractSuite, type ContractReport } from '../index.js';
import { startMockProxy, type MockProxy } from './providers/mock-proxy.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const created = { '201': { description: 'created', headers: { Location: { required: true, schema: { type: 'string' } } } }, '400': { description: 'invalid' } };

function spec(path: string, record: Record<string, unknown>): string {
  const parameter = { name: 'itemId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Located', version: '1' },
    paths: {
      [path]: {
        get: { operationId: 'listItems', responses: { '200': { description: 'ok', content: json({ type: 'array', items: record }) } } },
        post: {
          operationId: 'createItem',
          requestBody: { required: true, content: json({ type: 'object', required: ['label'], additionalProperties: false, properties: { label: { type: 'string' } } }) },
          responses: created,
        },
      },
      [`${path}/{itemId}`]: {
        parameters: [parameter],
        get: { operationId: 'getItem', responses: { '200': { description: 'ok', content: json(record) }, '404': { description: 'missing' } } },
        delete: { operationId: 'deleteItem', responses: { '204': { description: 'gone' }, '404': { description: 'missing' } } },
      },
    },
  });
}

const label = { label: { type: 'string' } };
const SPECS = [
  { name: 'the record declares its id', spec: spec('/items', { type: 'object', required: ['id', 'label'], properties: { id: { type: 'integer', readOnly: true }, ...label } }), listJudged: true },
  { name: 'no schema declares the id', spec: spec('/items', { type: 'object', required: ['label'], properties: label }), listJudged: false },
];

describe.each(SPECS)('a create answering 201 with Location and no body ($name)', ({ spec: text, listJudged }) => {
  const dir = mkdtempSync(join(tmpdir(), 'location-creates-'));
  const file = join(dir, 'located.json');
  writeFileSync(file, text);
  const closing: Array<MockServer | MockProxy> = [];
  afterAll(async () => {
    for (const server of closing.reverse()) await server.close();
  });
  const run = (baseUrl: string): Promise<ContractReport> => runContractSuite({ baseUrl, token: '', spec: file, seed: 7_321, generated: { positive: 2, negative: 2 } });
  const steps = (report: ContractReport, kind: string) => report.exchanges.filter((x) => x.case.sequence?.kind === kind);

  it('is followed through against the mock: read back at its Location, deleted, then gone', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: file });
    closing.push(mock);
    const report = await run(mock.url);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`)).toEqual([]);
    const reads = steps(report, 'read');
    expect(reads.length).toBeGreaterThanOrEqual(2);
    for (const read of reads) expect(read.outcome === 'response' && read.response.status).toBe(200);
    expect(steps(report, 'read-deleted').map((x) => x.outcome === 'response' && x.response.status)).toEqual([404]);
    const availability = report.checks.find((c) => c.name === 'ensure_resource_availability');
    expect(availability?.status).toBe('passed');
    // Reads judged, and the list too where a listed record shows its id.
    expect(availability?.judged).toBe(reads.length + (listJudged ? 1 : 0));
  });

  it('fails ensure_resource_availability against a provider that forgets what it created', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: file });
    closing.push(mock);
    const proxy = await startMockProxy(mock.url, async (request, forward) => {
      if (request.method === 'GET' && /\/items\/\d+$/.test(request.url)) return { status: 404, headers: {}, body: Buffer.alloc(0) };
      return forward();
    });
    closing.push(proxy);
    const report = await run(proxy.url);
    expect(report.checks.find((c) => c.name === 'ensure_resource_availability')?.status).toBe('failed');
  });
});
