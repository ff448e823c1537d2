/**
 * missing_resource_not_found where the provider assigns the ids (QA item 12): the sequence reads
 * an id no provider gave — the largest integer the path parameter allows, a fresh UUID — and
 * the mock's 404 passes, while a provider that answers a record for any id fails.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { runContractSuite, type ContractReport } from '../index.js';
import { startMockProxy, type MockProxy } from './providers/mock-proxy.js';

const SEED = 90_210;

/** Notes whose id the provider assigns, an int64 or a UUID. */
function notesSpec(id: Record<string, unknown>): string {
  const note = { type: 'object', required: ['id', 'title'], properties: { id: { ...id, readOnly: true }, title: { type: 'string' } } };
  const item = [{ name: 'noteId', in: 'path', required: true, schema: id }];
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Notes', version: '1' },
    paths: {
      '/notes': {
        post: {
          operationId: 'createNote',
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } } } },
          responses: { '201': { description: 'created', content: { 'application/json': { schema: note } } } },
        },
      },
      '/notes/{noteId}': {
        parameters: item,
        get: { operationId: 'getNote', responses: { '200': { description: 'ok', content: { 'application/json': { schema: note } } }, '404': { description: 'missing' } } },
        delete: { operationId: 'deleteNote', responses: { '204': { description: 'gone' }, '404': { description: 'missing' } } },
      },
    },
  });
}

const KINDS = [
  { name: 'an int64 id', id: { type: 'integer', format: 'int64' }, missing: '9223372036854775807' },
  { name: 'a UUID id', id: { type: 'string', format: 'uuid' }, missing: /^[0-9a-f]{8}-[0-9a-f]{4}-4/ },
];

describe.each(KINDS)('missing_resource_not_found with $name the provider assigns', ({ id, missing }) => {
  const dir = mkdtempSync(join(tmpdir(), 'assigned-ids-'));
  const spec = join(dir, 'notes.json');
  writeFileSync(spec, notesSpec(id));
  const closing: Array<MockServer | MockProxy> = [];
  afterAll(async () => {
    for (const server of closing.reverse()) await server.close();
  });
  const run = (baseUrl: string): Promise<ContractReport> => runContractSuite({ baseUrl, token: '', spec, seed: SEED, generated: { positive: 3, negative: 3 } });
  const result = (report: ContractReport) => report.checks.find((c) => c.name === 'missing_resource_not_found');

  it('reads an id the provider never gave: the mock answers 404 and passes', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
    closing.push(mock);
    const report = await run(mock.url);
    expect(result(report)?.status).toBe('passed');
    // The read of an id never given, and the delete of one where the spec declares 404 for it.
    expect(result(report)?.judged).toBe(2);
    const read = report.exchanges.find((x) => x.case.sequence?.kind === 'read-missing');
    const url = decodeURIComponent(read?.request.url ?? '');
    if (typeof missing === 'string') expect(url).toMatch(new RegExp(`/notes/${missing}$`));
    else expect(url.split('/').pop()).toMatch(missing);
  });

  it('a provider that answers a record for any id fails it', async () => {
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
    closing.push(mock);
    const proxy = await startMockProxy(mock.url, async (request, forward) => {
      const answer = await forward();
      if (request.method !== 'GET' || answer.status !== 404) return answer;
      const key = decodeURIComponent(request.url.split('/').pop() ?? '');
      const body = JSON.stringify({ id: typeof missing === 'string' ? Number(key) : key, title: 'invented' });
      return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(body) };
    });
    closing.push(proxy);
    const report = await run(proxy.url);
    expect(result(report)?.status).toBe('failed');
    expect(report.findings.some((f) => f.check === 'missing_resource_not_found' && /an id never created, answered 200/.test(f.message))).toBe(true);
  });
});
