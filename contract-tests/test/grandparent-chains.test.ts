/**
 * Operations two levels below a record a client makes, on two real APIs of the corpus. Netlify's
 * `POST /sites/{site_id}/traffic_splits/{split_test_id}/publish` (enableSplitTest) names a split
 * test of a site. The suite creates the site, then a split test under it, runs the operation on both,
 * and deletes the site last (dependencies.ts namedRecords, runner.ts pinRecords). The provider is the
 * mock behind a proxy that keeps the records it saw made, as a real Netlify does: it answers 404
 * (its `default` error) for a site or a split test never made. A correct one fails nothing; one that
 * answers 500 on the publish of a split test that exists is caught, which it is only when the
 * suite reaches it through records it made. Lago's charge filters (`/plans/{code}/charges/{charge_code}/filters`)
 * are the same shape with a delete at both levels: the charge is deleted before its plan.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { PATIENT_MS } from '../../mocks/test/processes.js';
import { runContractSuite, type ContractReport } from '../index.js';
import { loadSuiteSpec, type SuiteSpec } from '../spec-contract.js';
import { useMockForSpec } from '../../mocks/test/mock-under-test.js';
import { startMockProxy, type ProxiedAnswer } from './providers/mock-proxy.js';

const LAGO = fileURLToPath(new URL('../../fixtures/real-world/lago/openapi.yaml', import.meta.url));
const SPEC = fileURLToPath(new URL('../../fixtures/real-world/netlify/swagger.yml', import.meta.url));
const TOKEN = 'netlify-token-123';
/** Each document read and compiled once for the file's runs, the mock's and the suite's (its validators compiled once for all). */
const compiled = new Map<string, SuiteSpec>();
function contractOf(spec: string): SuiteSpec {
  let contract = compiled.get(spec);
  if (contract === undefined) compiled.set(spec, (contract = loadSuiteSpec(spec)));
  return contract;
}
const CHILDREN = ['enableSplitTest', 'disableSplitTest'];

const json = (status: number, value: unknown): ProxiedAnswer => ({ status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(value)) });
const idOf = (answer: ProxiedAnswer): string | undefined => {
  try {
    const id = (JSON.parse(answer.body.toString('utf8')) as { id?: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
};

/** The suite on the two split-test actions, against the mock behind a proxy that knows which sites and split tests were made. */
async function runAgainst(flaw?: 'publish-500'): Promise<{ report: ContractReport; log: string[] }> {
  const mock = await createMockServer({ port: 0, logLevel: 'silent', contract: contractOf(SPEC).compiled, tokens: [TOKEN] });
  const sites = new Set<string>();
  const splits = new Set<string>();
  const log: string[] = [];
  const proxy = await startMockProxy(mock.url, async (request, forward) => {
    const path = new URL(request.url, 'http://x').pathname.replace(/^\/api\/v1/, '');
    const action = /^\/sites\/([^/]+)\/traffic_splits\/([^/]+)\/(publish|unpublish)$/.exec(path);
    if (action) {
      const [, site = '', split = ''] = action.map((part) => decodeURIComponent(part));
      const known = sites.has(site) && splits.has(`${site}/${split}`);
      log.push(`${request.method} ${path} ${known ? 'known' : 'unknown'}`);
      if (!known) return json(404, { code: 404, message: `Not Found: ${sites.has(site) ? 'split test' : 'site'}` });
      const answer = await forward();
      return flaw === 'publish-500' && answer.status < 300 ? json(500, { code: 500, message: 'internal error' }) : answer;
    }
    const answer = await forward();
    if (request.method === 'POST' && path === '/sites' && answer.status === 201) sites.add(idOf(answer) ?? '');
    const created = /^\/sites\/([^/]+)\/traffic_splits$/.exec(path);
    if (request.method === 'POST' && created && answer.status === 201) splits.add(`${decodeURIComponent(created[1] as string)}/${idOf(answer) ?? ''}`);
    if (request.method !== 'GET') log.push(`${request.method} ${path} ${answer.status}`);
    return answer;
  });
  try {
    const report = await runContractSuite({
      contract: contractOf(SPEC),
      baseUrl: proxy.url,
      token: TOKEN,
      seed: 38,
      generated: { positive: 3, negative: 1 },
      includeOperations: CHILDREN,
      timeoutMs: PATIENT_MS,
    });
    return { report, log };
  } finally {
    await proxy.close();
    await mock.close();
  }
}

/** Every valid case of `operations` was answered `status`: it reached the records the suite made. */
function expectEveryValid(report: ContractReport, operations: readonly string[], status: number): void {
  const valid = report.exchanges.filter((x) => operations.includes(x.case.operationId) && x.case.expect === 'accepted');
  expect(valid.length).toBeGreaterThanOrEqual(operations.length);
  expect(valid.filter((x) => x.outcome !== 'response' || x.response.status !== status).map((x) => x.case.id)).toEqual([]);
}

const failed = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'failed' || c.status === 'not-judged').map((c) => c.name);

describe('an operation below a record below a record (Netlify: publish a split test of a site)', () => {
  it('runs on a site and a split test the suite created, in that order, and the site is deleted last: a provider that 404s for either missing fails nothing', async () => {
    const { report, log } = await runAgainst();
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(failed(report)).toEqual([]);
    expect(report.dependencies).toMatchObject({ belowParent: 2, onCreatedParent: 2, notOnCreated: [] });
    const site = log.findIndex((line) => /^POST \/sites 201$/.test(line));
    const split = log.findIndex((line) => /^POST \/sites\/[^/]+\/traffic_splits 201$/.test(line));
    const firstAction = log.findIndex((line) => / known$/.test(line));
    const removed = log.findIndex((line) => /^DELETE \/sites\/[^/]+ 2\d\d$/.test(line));
    expect(site).toBeGreaterThanOrEqual(0);
    expect(split).toBeGreaterThan(site);
    expect(firstAction).toBeGreaterThan(split);
    expect(log.slice(removed + 1).filter((line) => / known$/.test(line))).toEqual([]);
    expect(removed).toBe(log.length - 1);
    // Every valid case of both actions named the site and the split test made for them.
    expectEveryValid(report, CHILDREN, 204);
  }, 120_000);

  it('catches a provider that answers 500 on publishing a split test that exists', async () => {
    const { report } = await runAgainst('publish-500');
    expect(failed(report)).toContain('not_a_server_error');
    const on = report.findings.filter((f) => f.check === 'not_a_server_error' && f.severity === 'failure').map((f) => f.exchange.case.operationId);
    expect(new Set(on)).toEqual(new Set(CHILDREN));
  }, 120_000);
});

/** The suite on Lago's charge filters, against the mock behind a proxy that answers them only for a charge of a plan the mock has (else the mock's own 404). */
async function runOnLago(flaw?: 'filter-create-500'): Promise<{ report: ContractReport; log: string[] }> {
  const mock = await createMockServer({ port: 0, logLevel: 'silent', contract: contractOf(LAGO).compiled, tokens: [TOKEN] });
  const log: string[] = [];
  const proxy = await startMockProxy(mock.url, async (request, forward) => {
    const filters = /^\/plans\/([^/?]+)\/charges\/([^/?]+)\/filters(?:\?|$)/.exec(request.url);
    if (!filters) {
      const answer = await forward();
      if (request.method !== 'GET') log.push(`${request.method} ${new URL(request.url, 'http://x').pathname} ${answer.status}`);
      return answer;
    }
    // Whether the plan and its charge exist, as the mock (stateful) knows: its read of the charge.
    const charge = await forward({ method: 'GET', url: `/plans/${filters[1]}/charges/${filters[2]}`, body: Buffer.alloc(0) });
    log.push(`${request.method} filters ${charge.status === 200 ? 'known' : 'unknown'}`);
    if (charge.status !== 200) return charge;
    const answer = await forward();
    return flaw && request.method === 'POST' && answer.status < 300 ? json(500, { status: 500, error: 'Internal Server Error' }) : answer;
  });
  try {
    const report = await runContractSuite({
      contract: contractOf(LAGO),
      baseUrl: proxy.url,
      token: TOKEN,
      seed: 38,
      generated: { positive: 2, negative: 1 },
      includeOperations: ['findAllPlanChargeFilters', 'createPlanChargeFilter'],
      timeoutMs: PATIENT_MS,
    });
    return { report, log };
  } finally {
    await proxy.close();
    await mock.close();
  }
}

describe('an operation below a charge of a plan (Lago: a charge filter)', () => {
  it('runs on a plan and a charge the suite created; the charge is deleted before its plan: a provider that 404s for either missing fails nothing', async () => {
    const { report, log } = await runOnLago();
    expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
    expect(failed(report)).toEqual([]);
    expect(report.dependencies).toMatchObject({ belowParent: 2, onCreatedParent: 2, notOnCreated: [] });
    const at = (pattern: RegExp): number => log.findIndex((line) => pattern.test(line));
    const plan = at(/^POST \/plans 2\d\d$/);
    const charge = at(/^POST \/plans\/[^/]+\/charges 2\d\d$/);
    const firstFilter = at(/ filters known$/);
    const chargeGone = at(/^DELETE \/plans\/[^/]+\/charges\/[^/]+ 2\d\d$/);
    const planGone = at(/^DELETE \/plans\/[^/]+ 2\d\d$/);
    expect([plan, charge, firstFilter, chargeGone, planGone].every((index) => index >= 0)).toBe(true);
    expect(plan).toBeLessThan(charge);
    expect(charge).toBeLessThan(firstFilter);
    expect(chargeGone).toBeLessThan(planGone);
    expect(log.slice(chargeGone).filter((line) => / filters known$/.test(line))).toEqual([]);
  }, 120_000);

  it('catches a provider that answers 500 on creating a filter of a charge that exists', async () => {
    const { report } = await runOnLago('filter-create-500');
    expect(failed(report)).toContain('not_a_server_error');
    const on = report.findings.filter((f) => f.check === 'not_a_server_error' && f.severity === 'failure').map((f) => f.exchange.case.operationId);
    expect(new Set(on)).toEqual(new Set(['createPlanChargeFilter']));
  }, 120_000);
});

/** A collection of `noun` records at `path`: its create (a JSON body with `property`, the id assigned), list, read and delete. */
function collection(path: string, item: string, noun: string, property: string, parameters: string[]): Record<string, unknown> {
  const record = { type: 'object', required: ['id', property], properties: { id: { type: 'string', readOnly: true }, [property]: { type: 'string', maxLength: 20 } } };
  const inPath = (names: string[]) => names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const missing = { '404': { description: 'no such record' } };
  return {
    [path]: {
      post: {
        operationId: `create${noun}`,
        parameters: inPath(parameters),
        requestBody: { required: true, content: { 'application/json': { schema: record } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: record } } }, ...missing },
      },
      get: {
        operationId: `list${noun}s`,
        parameters: inPath(parameters),
        responses: { '200': { description: 'all', content: { 'application/json': { schema: { type: 'array', items: record } } } }, ...missing },
      },
    },
    [`${path}/{${item}}`]: {
      get: { operationId: `get${noun}`, parameters: inPath([...parameters, item]), responses: { '200': { description: 'one', content: { 'application/json': { schema: record } } }, ...missing } },
      delete: { operationId: `delete${noun}`, parameters: inPath([...parameters, item]), responses: { '204': { description: 'gone' }, ...missing } },
    },
  };
}

/** Netlify's sites and split tests, with one level more: a split test's variants, and activating one (three records above it). */
const VARIANTS = {
  openapi: '3.0.3',
  info: { title: 'split-test variants', version: '1' },
  paths: {
    ...collection('/sites', 'site_id', 'Site', 'name', []),
    ...collection('/sites/{site_id}/traffic_splits', 'split_test_id', 'SplitTest', 'branch', ['site_id']),
    ...collection('/sites/{site_id}/traffic_splits/{split_test_id}/variants', 'variant_id', 'Variant', 'label', ['site_id', 'split_test_id']),
    '/sites/{site_id}/traffic_splits/{split_test_id}/variants/{variant_id}/activate': {
      post: {
        operationId: 'activateVariant',
        parameters: ['site_id', 'split_test_id', 'variant_id'].map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        responses: { '204': { description: 'active' }, '404': { description: 'no such site, split test or variant' } },
      },
    },
  },
};

describe('an operation below three records (a variant of a split test of a site)', () => {
  const mock = useMockForSpec(VARIANTS);

  async function runOnVariants(flaw?: 'activate-500'): Promise<{ report: ContractReport; log: string[] }> {
    const log: string[] = [];
    const proxy = await startMockProxy(mock.current.url, async (request, forward) => {
      const activate = /^(\/sites\/[^/]+\/traffic_splits\/[^/]+\/variants\/[^/]+)\/activate$/.exec(request.url);
      if (!activate) {
        const answer = await forward();
        if (request.method !== 'GET') log.push(`${request.method} ${request.url} ${answer.status}`);
        return answer;
      }
      // Whether the site, its split test and the variant exist, as the mock (stateful) knows: its read of the variant.
      const variant = await forward({ method: 'GET', url: activate[1], body: Buffer.alloc(0) });
      log.push(`activate ${variant.status === 200 ? 'known' : 'unknown'}`);
      if (variant.status !== 200) return { status: 404, headers: {}, body: Buffer.alloc(0) };
      const answer = await forward();
      return flaw && answer.status < 300 ? json(500, { message: 'internal error' }) : answer;
    });
    try {
      const report = await runContractSuite({
        spec: mock.specFile,
        baseUrl: proxy.url,
        seed: 38,
        generated: { positive: 2, negative: 1 },
        includeOperations: ['activateVariant'],
        timeoutMs: PATIENT_MS,
      });
      return { report, log };
    } finally {
      await proxy.close();
    }
  }

  it('creates the site, the split test under it, the variant under both, runs on all three, and deletes them last in first out: a provider that 404s for any missing fails nothing', async () => {
    const { report, log } = await runOnVariants();
    expect(failed(report)).toEqual([]);
    expect(report.dependencies).toMatchObject({ belowParent: 1, onCreatedParent: 1, notOnCreated: [] });
    const at = (pattern: RegExp): number => log.findIndex((line) => pattern.test(line));
    const order = [
      at(/^POST \/sites 201$/),
      at(/^POST \/sites\/[^/]+\/traffic_splits 201$/),
      at(/^POST \/sites\/[^/]+\/traffic_splits\/[^/]+\/variants 201$/),
      at(/^activate known$/),
      at(/^DELETE \/sites\/[^/]+\/traffic_splits\/[^/]+\/variants\/[^/]+ 204$/),
      at(/^DELETE \/sites\/[^/]+\/traffic_splits\/[^/]+ 204$/),
      at(/^DELETE \/sites\/[^/]+ 204$/),
    ];
    expect(
      order.every((index) => index >= 0),
      log.join('\n'),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expectEveryValid(report, ['activateVariant'], 204);
  }, 120_000);

  it('catches a provider that answers 500 on activating a variant that exists', async () => {
    const { report } = await runOnVariants('activate-500');
    expect(failed(report)).toContain('not_a_server_error');
  }, 120_000);
});
