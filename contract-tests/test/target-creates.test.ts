/**
 * The suite on creates at the target URI (openapi/operations/collections.ts, createsAtTarget): it
 * chooses each record's key and sends it in the create's own path (the body's identity the same),
 * then reads, lists and deletes that record. Against the mock on fixtures/specs/target-creates it
 * passes, and passes a provider answering 200 where the spec allows 200 or 201; a provider that
 * forgets what a PUT made, or answers another record than the path names, fails the check for it.
 * An identity too long for a request line (the string domain's 65,536 characters) is the provider's
 * to refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { loadContract, readContract } from '../../openapi/operations/compile.js';
import { formatReport, runContractSuite } from '../index.js';
import type { CheckName, ContractReport } from '../model.js';
import { planSequences } from '../sequences.js';
import { suiteSpecOf } from '../spec-contract.js';
import { editJson, startMockProxy, type Tamper } from './providers/mock-proxy.js';

const SPEC = new URL('../../fixtures/specs/target-creates/openapi.yaml', import.meta.url).pathname;
const TOKEN = 'target-token';
const contract = suiteSpecOf(loadContract(SPEC));
const WORKSPACE = /^\/workspaces\/[^/?]+$/;

const failed = (report: ContractReport): CheckName[] => [...new Set(report.findings.filter((f) => f.severity === 'failure').map((f) => f.check))].sort();

describe('the suite on creates at the target URI', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec: SPEC, tokens: [TOKEN] });
  });
  afterAll(async () => {
    await mock?.close();
  });

  async function run(tamper?: Tamper): Promise<ContractReport> {
    const proxy = tamper && (await startMockProxy(mock.url, tamper));
    try {
      return await runContractSuite({ baseUrl: proxy?.url ?? mock.url, token: TOKEN, contract, seed: 41, generated: { positive: 1, negative: 1, strings: 1, variants: 1 } });
    } finally {
      await proxy?.close();
    }
  }

  it('plans the workspaces as a sequence whose create names the record in its path', () => {
    const plan = planSequences(contract.compiled as NonNullable<typeof contract.compiled>, contract.operations).find((p) => p.collection === '/workspaces');
    expect(plan).toMatchObject({ atTarget: true, itemParameter: 'name', identity: 'name', assigned: false });
    expect(plan?.create.operationId).toBe('putWorkspace');
  });

  it('passes against the mock, each created record named in the path and the body alike, then read back at that path', async () => {
    const report = await run();
    expect(
      failed(report),
      JSON.stringify(
        report.findings
          .filter((f) => f.severity === 'failure')
          .slice(0, 3)
          .map((f) => `${f.exchange.case.id}: ${f.message}`),
      ),
    ).toEqual([]);
    const creates = report.exchanges.filter((e) => e.case.sequence?.kind === 'create' && e.case.operationId === 'putWorkspace');
    expect(creates.length).toBeGreaterThan(0);
    for (const create of creates) {
      const named = decodeURIComponent(new URL(create.request.url).pathname.split('/').pop() as string);
      expect(JSON.parse(String(create.request.body)).name).toBe(named);
      expect(create.outcome === 'response' && create.response.status).toBe(201);
    }
    const reads = report.exchanges.filter((e) => e.case.sequence && e.case.operationId === 'getWorkspace' && e.outcome === 'response' && e.response.status === 200);
    expect(reads.length).toBeGreaterThan(0);
    // Generated creates each name a record of their own: no two accepted ones share a path (one would meet the other's record).
    const generated = report.exchanges.filter((e) => !e.case.sequence && e.case.operationId === 'createServer' && e.case.expect === 'accepted').map((e) => e.request.url);
    expect(new Set(generated).size).toBe(generated.length);
  });

  it('passes a provider answering 200 to the creating PUT (the spec allows 200 or 201)', async () => {
    const report = await run(async (request, forward) => {
      const answer = await forward();
      return request.method === 'PUT' && WORKSPACE.test(request.url) && answer.status === 201 ? { ...answer, status: 200 } : answer;
    });
    expect(failed(report)).toEqual([]);
  });

  it('fails a provider that forgets what a PUT made (its reads 404)', async () => {
    const report = await run(async (request, forward) => {
      const answer = await forward();
      return request.method === 'GET' && WORKSPACE.test(request.url) && answer.status === 200 ? { ...answer, status: 404, body: Buffer.from('{"error":"no such workspace"}') } : answer;
    });
    expect(failed(report)).toContain('ensure_resource_availability');
  });

  it('fails a provider that answers the create with another record than its path names', async () => {
    const report = await run(async (request, forward) => {
      const answer = await forward();
      if (request.method !== 'PUT' || !WORKSPACE.test(request.url) || answer.status >= 300) return answer;
      return editJson(answer, (value) => ({ ...(value as object), name: 'someone-else' }));
    });
    expect(failed(report)).toContain('response_echoes_request');
  });
});

describe("the suite on Jupyter Server's PUT /api/contents/{path}", () => {
  it("walks the identity's whole string domain into the path, and leaves a target past a request line's 8000 octets to the provider (414, 431)", async () => {
    const spec = new URL('../../fixtures/real-world/jupyter-server/api.yaml', import.meta.url).pathname;
    const jupyter = suiteSpecOf(await readContract(spec));
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, contract: jupyter.compiled, tokens: [TOKEN] });
    try {
      // Every string sample (up to 65,536 characters) on the create only: the mock answers the longest paths 431, as a server may.
      const report = await runContractSuite({
        baseUrl: mock.url,
        token: TOKEN,
        contract: jupyter,
        seed: 41,
        includeOperations: ['put_api_contents_path'],
        generated: { positive: 1, negative: 0, variants: 1 },
      });
      const long = report.exchanges.filter((x) => x.request.method === 'PUT' && new URL(x.request.url).pathname.length > 8000);
      expect(long.length).toBeGreaterThan(0);
      expect(long.every((x) => x.outcome === 'response' && x.case.expect === 'provider-choice')).toBe(true);
      expect(failed(report), formatReport(report, { maxFailuresPerCheck: 2 }).slice(0, 4000)).toEqual([]);
    } finally {
      await mock.close();
    }
  }, 120_000);
});
