/**
 * Enveloped collections (issue 37 §2): a record sent as `{"add_on": {...}}` and answered the same
 * way (Lago's add-ons, fixtures/real-world/lago). The suite sequences them as the mock stores them
 * (openapi/operations/collections.ts: the record is the inner object, its identity inside it): it
 * writes the record inside the envelope, reads the identity and the echoed values inside the
 * answers. A correct provider passes; one flaw each fails the check named for it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createIdSource } from '../../fixtures/index.js';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { loadContract } from '../../openapi/operations/compile.js';
import { generateCases } from '../generated.js';
import { runContractSuite } from '../index.js';
import type { CheckName, ContractReport } from '../model.js';
import { planSequences } from '../sequences.js';
import { compileSuiteContract, suiteSpecOf } from '../spec-contract.js';
import { ADD_ON_OPERATIONS, LAGO_SPEC, startLagoAddOns, type AddOnFlaw } from './providers/lago-addons-kit.js';

const TOKEN = 'lago-kit-token';
const contract = suiteSpecOf(loadContract(LAGO_SPEC));

async function runAgainst(flaw?: AddOnFlaw): Promise<ContractReport> {
  const provider = await startLagoAddOns(TOKEN, flaw);
  try {
    return await runContractSuite({
      baseUrl: provider.url,
      token: TOKEN,
      contract,
      includeOperations: ADD_ON_OPERATIONS,
      seed: 37,
      generated: { positive: 2, negative: 2 },
    });
  } finally {
    await provider.close();
  }
}

const failed = (report: ContractReport): CheckName[] => [...new Set(report.findings.filter((f) => f.severity === 'failure').map((f) => f.check))].sort();

describe("Lago's enveloped add-ons", () => {
  it('are planned as a sequence: the record and the update inside the add_on envelope, keyed by code', () => {
    const plans = planSequences(contract.compiled as NonNullable<typeof contract.compiled>, contract.operations);
    const addOns = plans.find((plan) => plan.collection === '/add_ons');
    expect(addOns).toMatchObject({ identity: 'code', assigned: false, envelope: { member: 'add_on' } });
    expect(addOns?.envelope?.create.properties.map((p) => p.name)).toEqual(expect.arrayContaining(['name', 'code', 'amount_cents', 'amount_currency']));
    expect(addOns?.envelope?.update?.properties.map((p) => p.name)).toContain('code');
    expect(addOns?.read?.operationId).toBe('findAddOn');
    expect(addOns?.list?.operationId).toBe('findAllAddOns');
  });

  it('a correct provider passes, the sequence written and read inside the envelope', async () => {
    const report = await runAgainst();
    expect(failed(report)).toEqual([]);
    const steps = report.exchanges.filter((e) => e.case.sequence && !e.case.sequence.kind.startsWith('cleanup'));
    const create = steps.find((e) => e.case.sequence?.kind === 'create' && e.case.operationId === 'createAddOn');
    expect(JSON.parse(String(create?.request.body))).toMatchObject({ add_on: { code: expect.any(String), name: expect.any(String) } });
    const kinds = new Set(steps.map((e) => e.case.sequence?.kind));
    for (const kind of ['create', 'read', 'list', 'update', 'delete', 'read-deleted', 'read-missing']) expect(kinds).toContain(kind);
    // Every check of state judged something on the add-ons.
    for (const check of ['ensure_resource_availability', 'resource_consistency', 'use_after_free', 'response_echoes_request'] as const) {
      expect(report.checks.find((c) => c.name === check)).toMatchObject({ failed: 0, judged: expect.any(Number) });
      expect(report.checks.find((c) => c.name === check)?.judged).toBeGreaterThan(0);
    }
  });

  it.each([
    ['read-answers-another', ['resource_consistency']],
    ['list-omits-newest', ['ensure_resource_availability']],
    ['envelope-renamed', ['response_schema_conformance']],
    ['create-renames', ['response_echoes_request']],
  ] as const)('the flaw %s fails %j', async (flaw, checks) => {
    expect(failed(await runAgainst(flaw))).toEqual(checks);
  });

  it('a create answering an empty code inside the envelope is a finding of ensure_resource_availability', async () => {
    const report = await runAgainst('empty-code');
    expect(failed(report)).toContain('ensure_resource_availability');
    const finding = report.findings
      .filter((f) => f.check === 'ensure_resource_availability')
      .map((f) => f.message)
      .join('\n');
    expect(finding).toMatch(/createAddOn answered the code "" \(inside the envelope add_on\)/);
  });
});

describe('a create whose client-chosen key is inside its envelope', () => {
  /** Things sent and answered as `{"thing": {...}}`, keyed by the code the client chooses, named by it in `/things/{code}`. */
  const thing = { type: 'object', required: ['code', 'name'], properties: { code: { type: 'string' }, name: { type: 'string' } } };
  const wrapped = { type: 'object', required: ['thing'], properties: { thing } };
  const things = {
    openapi: '3.1.0',
    info: { title: 'Things', version: '1' },
    paths: {
      '/things': {
        post: {
          operationId: 'createThing',
          requestBody: { required: true, content: { 'application/json': { schema: wrapped } } },
          responses: { '201': { description: 'created', content: { 'application/json': { schema: wrapped } } }, '400': { description: 'invalid' } },
        },
      },
      '/things/{code}': {
        parameters: [{ name: 'code', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: 'getThing', responses: { '200': { description: 'ok', content: { 'application/json': { schema: wrapped } } }, '404': { description: 'missing' } } },
      },
    },
  };
  const codeOf = (body: unknown): unknown => (typeof body === 'string' ? (JSON.parse(body) as { thing?: { code?: unknown } }).thing?.code : undefined);

  it('is drawn fresh inside the envelope for every valid body the case does not set itself', () => {
    const contract = compileSuiteContract(things, 'things.json', 'createThing');
    expect(contract.requestBody).toMatchObject({ key: { name: 'code' }, keyIn: 'thing', keyInPath: true });
    const { cases } = generateCases({ contract, seed: 37, positive: 5, negative: 5, ids: createIdSource(), token: 't', invalidToken: 'x' });
    // The repeat probe sends its first body again on purpose; every other valid body must name a record of its own.
    const fresh = cases.filter((c) => c.expect === 'accepted' && !c.fixedId && c.phase !== 'probe' && typeof c.body === 'string' && c.contentType === undefined).map((c) => codeOf(c.body));
    expect(fresh.length).toBeGreaterThan(5);
    expect(fresh.every((code) => typeof code === 'string' && code !== '')).toBe(true);
    expect(new Set(fresh).size).toBe(fresh.length);
    expect(cases.filter((c) => c.phase === 'probe').map((c) => c.expect)).toEqual(['accepted', 'duplicate']);
  });

  const dir = mkdtempSync(join(tmpdir(), 'enveloped-key-'));
  const spec = join(dir, 'things.json');
  writeFileSync(spec, JSON.stringify(things));
  let mock: MockServer | undefined;
  afterAll(async () => {
    await mock?.close();
  });

  it('the suite against our mock on it passes: no repeated or empty code sent as a case to accept', async () => {
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec });
    const report = await runContractSuite({ baseUrl: mock.url, token: '', spec, seed: 37, generated: { positive: 3, negative: 3 } });
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message.slice(0, 200)}`)).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
