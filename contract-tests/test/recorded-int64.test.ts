/**
 * An integer past 2^53 in a case file's JSON body (as the mock's export writes a frontend's
 * request: `"json": {"count": 9007199254740993}`) is sent by its exact digits, never rounded
 * through a double into another number (9007199254740992) the frontend never sent; and a provider
 * that rounds it is told so by both values' exact digits.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { runContractSuite } from '../index.js';
import { runSuiteAgainst } from './providers/small-provider.js';

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

  /** The mock's export of a create sending `count`. */
  async function recorded(count: string): Promise<string> {
    const frontend = await createMockServer({ port: 0, logLevel: 'silent', spec });
    closing.push(frontend);
    const sent = await fetch(`${frontend.url}/counters`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"count":${count}}` });
    expect(sent.status).toBe(201);
    const text = await (await fetch(`${frontend.url}/__mock/requests?format=cases`)).text();
    expect(text).toContain(`"count": ${count}`);
    const cases = join(dir, `counters-${closing.length}.cases.json`);
    writeFileSync(cases, text);
    return cases;
  }

  it('is replayed with its exact digits, and a provider that keeps them passes', async () => {
    const cases = await recorded('9007199254740993');

    const provider = await createMockServer({ port: 0, logLevel: 'silent', spec });
    closing.push(provider);
    const report = await runContractSuite({ spec, token: 'unused-token', cases: [cases], seed: 3, generated: { positive: 1, negative: 1 }, baseUrl: provider.url });
    const replayed = report.exchanges.filter((x) => x.case.source === 'cases').map((x) => [x.case.request.body, x.outcome === 'response' ? x.response.body : x.outcome]);
    expect(replayed).toEqual([['{"count":9007199254740993}', expect.stringMatching(/^\{"id":\d+,"count":9007199254740993\}$/)]]);
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
  });

  it('fails response_echoes_request against a provider that rounds it, naming both values by their digits', async () => {
    const cases = await recorded('9007199254740993');
    let next = 1;
    // JSON.parse: the count goes through a double, as many providers read it.
    const report = await runSuiteAgainst(
      (request, answer) => {
        const body = request.json() as { count?: unknown } | undefined;
        if (request.method !== 'POST' || typeof body?.count !== 'number' || !Number.isInteger(body.count)) return answer(400, { message: 'a count' });
        return answer(201, { id: next++, count: body.count });
      },
      { spec, token: 'unused-token', cases: [cases], seed: 3, generated: { positive: 1, negative: 1 } },
    );
    const echoes = report.findings.filter((f) => f.check === 'response_echoes_request' && f.exchange.case.source === 'cases').map((f) => f.message);
    // It said "The answer's count is 9007199254740992, but the request sent 9007199254740992": no difference to see.
    expect(echoes).toEqual(["The answer's count is 9007199254740992, but the request sent 9007199254740993."]);
  });
});
