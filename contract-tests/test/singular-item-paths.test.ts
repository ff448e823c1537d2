/**
 * A plural collection whose item path is written in the singular, and whose create answers only the
 * new key under a name of its own (Alertmanager: `POST /silences` answered `{"silenceID": …}`, the
 * silence read and deleted at `/silence/{silenceID}`, every silence naming itself `id`). One rule for
 * both tools (openapi/operations/collections.ts): the mock serves what was created at the singular
 * path and answers the create with the key; the suite reads the key from that answer, follows the
 * record through read, list and delete, and passes the mock. A provider that answers a key naming
 * no silence, or keeps a deleted one, fails; one that adds an undeclared member to the create's
 * answer (the schema leaves it open) passes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { readContract } from '../../openapi/operations/compile.js';
import { recogniseCollections } from '../../openapi/operations/collections.js';
import { runContractSuite, type ContractReport } from '../index.js';
import { editJson, startMockProxy, type MockProxy } from './providers/mock-proxy.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const silence = {
  type: 'object',
  required: ['matchers', 'createdBy'],
  properties: { matchers: { type: 'array', minItems: 1, items: { type: 'string' } }, createdBy: { type: 'string' }, comment: { type: 'string' } },
};
const gettable = { allOf: [{ type: 'object', required: ['id', 'status'], properties: { id: { type: 'string' }, status: { type: 'string', enum: ['active', 'expired'] } } }, silence] };
const postable = { allOf: [{ type: 'object', properties: { id: { type: 'string' } } }, silence] };

/** `item` is the path the silence is read and deleted at; `create` adds to the operations (a POST at the singular path). */
function spec(item: string, extra: Record<string, unknown> = {}): string {
  const parameter = { name: 'silenceID', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Silences', version: '1' },
    paths: {
      '/silences': {
        get: { operationId: 'getSilences', responses: { '200': { description: 'ok', content: json({ type: 'array', items: gettable }) } } },
        post: {
          operationId: 'postSilences',
          requestBody: { required: true, content: json(postable) },
          responses: { '200': { description: 'created', content: json({ type: 'object', properties: { silenceID: { type: 'string' } } }) }, '400': { description: 'invalid' } },
        },
      },
      [item]: {
        parameters: [parameter],
        get: { operationId: 'getSilence', responses: { '200': { description: 'ok', content: json(gettable) }, '404': { description: 'missing' } } },
        delete: { operationId: 'deleteSilence', responses: { '200': { description: 'gone' }, '404': { description: 'missing' } } },
      },
      ...extra,
    },
  });
}

const dir = mkdtempSync(join(tmpdir(), 'singular-items-'));
const write = (name: string, text: string): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
const SPEC = write('silences.json', spec('/silence/{silenceID}'));

describe('the collection rule', () => {
  it('takes /silence/{silenceID} as the item path of /silences, the records keyed by their own id, the create answering the key as silenceID', async () => {
    const { collections, stateful } = recogniseCollections(await readContract(SPEC));
    expect(collections.map((c) => [c.path, c.itemPath, c.identity.property, c.identity.assigned, c.identity.optional, c.keyAnswered])).toEqual([
      ['/silences', '/silence/{silenceID}', 'id', 'uuid', true, 'silenceID'],
    ]);
    expect(Object.fromEntries([...stateful].map(([id, op]) => [id, op.role]))).toEqual({ postSilences: 'create', getSilences: 'list', getSilence: 'read', deleteSilence: 'delete' });
  });

  it('leaves a singular path that a POST makes a collection of its own, and a plural item path, as they were', async () => {
    const own = write(
      'own.json',
      spec('/silence/{silenceID}', {
        '/silence': {
          post: { operationId: 'postSilence', requestBody: { required: true, content: json(postable) }, responses: { '200': { description: 'ok', content: json(gettable) } } },
        },
      }),
    );
    const found = recogniseCollections(await readContract(own)).collections;
    expect(found.find((c) => c.path === '/silences')?.itemPath).toBeUndefined();
    expect(found.find((c) => c.path === '/silence')?.itemPath).toBe('/silence/{silenceID}');
    const plural = recogniseCollections(await readContract(write('plural.json', spec('/silences/{silenceID}')))).collections;
    expect(plural.map((c) => [c.itemPath, c.identity.property, c.keyAnswered])).toEqual([['/silences/{silenceID}', 'id', 'silenceID']]);
  });
});

describe('the mock and the suite on it', () => {
  let mock: MockServer;
  const closing: MockProxy[] = [];
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: SPEC });
  });
  afterAll(async () => {
    for (const proxy of closing) await proxy.close();
    await mock?.close();
  });
  const run = (baseUrl: string): Promise<ContractReport> => runContractSuite({ baseUrl, token: '', spec: SPEC, seed: 4_211, generated: { positive: 1, negative: 1 } });
  const failedChecks = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'failed').map((c) => c.name);

  it('answers the create with the key, and serves the silence at the singular path until it is deleted', async () => {
    const created = await fetch(`${mock.url}/silences`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ matchers: ['a=b'], createdBy: 'me' }) });
    expect(created.status).toBe(200);
    const answer = (await created.json()) as Record<string, unknown>;
    expect(Object.keys(answer)).toEqual(['silenceID']);
    const id = answer.silenceID as string;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const read = await fetch(`${mock.url}/silence/${id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id, matchers: ['a=b'], createdBy: 'me' });
    const listed = (await (await fetch(`${mock.url}/silences`)).json()) as Array<Record<string, unknown>>;
    expect(listed.map((s) => s.id)).toContain(id);
    expect((await fetch(`${mock.url}/silence/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await fetch(`${mock.url}/silence/${id}`)).status).toBe(404);
    expect((await fetch(`${mock.url}/silence/${randomUUID()}`)).status).toBe(404);
  });

  it('passes the mock, reading each silence back by the key its create answered', async () => {
    const report = await run(mock.url);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check}: ${f.message}`)).toEqual([]);
    const reads = report.exchanges.filter((x) => x.case.sequence?.kind === 'read' && x.case.operationId === 'getSilence');
    expect(reads.length).toBeGreaterThanOrEqual(1);
    for (const read of reads) expect(read.outcome === 'response' && read.response.status).toBe(200);
    expect(report.checks.find((c) => c.name === 'ensure_resource_availability')?.status).toBe('passed');
    expect(report.checks.find((c) => c.name === 'use_after_free')?.status).toBe('passed');
  });

  it('passes a provider that adds an undeclared member to the create answer', async () => {
    const proxy = await startMockProxy(mock.url, async (request, forward) => {
      const answer = await forward();
      return request.method === 'POST' && answer.status === 200 ? editJson(answer, (value) => ({ ...(value as object), status: 'pending' })) : answer;
    });
    closing.push(proxy);
    expect(failedChecks(await run(proxy.url))).toEqual([]);
  });

  it('fails a provider whose create answers a key naming no silence', async () => {
    const proxy = await startMockProxy(mock.url, async (request, forward) => {
      const answer = await forward();
      return request.method === 'POST' && answer.status === 200 ? editJson(answer, () => ({ silenceID: randomUUID() })) : answer;
    });
    closing.push(proxy);
    expect(failedChecks(await run(proxy.url))).toContain('ensure_resource_availability');
  });

  it('fails a provider that keeps a deleted silence', async () => {
    const proxy = await startMockProxy(mock.url, async (request, forward) => {
      if (request.method === 'DELETE') return { status: 200, headers: {}, body: Buffer.alloc(0) };
      return forward();
    });
    closing.push(proxy);
    expect(failedChecks(await run(proxy.url))).toContain('use_after_free');
  });
});
