/**
 * An integer past 2^53 in a case file's JSON body (as the mock's export writes a frontend's
 * request: `"json": {"count": 9007199254740993}`) is sent by its exact digits, never rounded
 * through a double into another number (9007199254740992) the frontend never sent.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { runContractSuite } from '../index.js';

const COUNTER = {
  type: 'object',
  required: ['count'],
  properties: { id: { type: 'integer', format: 'int64', readOnly: true }, count: { type: 'integer', format: 'int64' } },
};
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Counters', version: '1' },
  paths: {
    '/counters': {
      post: {
        operationId: 'createCounter',
        requestBody: { required: true, content: { 'application/json': { schema: COUNTER } } },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: COUNTER } } }, '400': { description: 'refused' } },
      },
    },
  },
};

describe('a recorded JSON body with an integer past 2^53', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recorded-int64-'));
  const spec = join(dir, 'counters.json');
  writeFileSync(spec, JSON.stringify(SPEC));
  const closing: MockServer[] = [];
  afterAll(async () => {
    for (const server of closing) await server.close();
  });

  it('is replayed with its exact digits, and a provider that keeps them passes', async () => {
    const frontend = await createMockServer({ port: 0, logLevel: 'silent', spec });
    closing.push(frontend);
    const sent = await fetch(`${frontend.url}/counters`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"count":9007199254740993}' });
    expect(sent.status).toBe(201);
    const text = await (await fetch(`${frontend.url}/__mock/requests?format=cases`)).text();
    expect(text).toContain('"count": 9007199254740993');
    const cases = join(dir, 'counters.cases.json');
    writeFileSync(cases, text);

    const provider = await createMockServer({ port: 0, logLevel: 'silent', spec });
    closing.push(provider);
    const report = await runContractSuite({ spec, token: 'unused-token', cases: [cases], seed: 3, generated: { positive: 1, negative: 1 }, baseUrl: provider.url });
    const replayed = report.exchanges.filter((x) => x.case.source === 'cases').map((x) => [x.case.request.body, x.outcome === 'response' ? x.response.body : x.outcome]);
    expect(replayed).toEqual([['{"count":9007199254740993}', expect.stringMatching(/^\{"id":\d+,"count":9007199254740993\}$/)]]);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
  });
});
