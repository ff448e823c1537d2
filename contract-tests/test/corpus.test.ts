/**
 * The suite on every spec of the test corpus (fixtures/specs: 3.0 and Swagger 2.0 upgraded,
 * sibling files, no operationIds, parameter styles, media types, problem+json and default errors,
 * server-assigned and string identities, wrapped paged lists): run with `spec` on each, against
 * the mock started on that spec, it passes — every operation, the stateful sequences included; behind a
 * proxy that labels the mock's JSON answers text/plain it fails (the report not ok, which is the CLI's exit 1)
 * naming content_type_conformance and nothing else; behind one that spells the JSON type otherwise, it passes.
 */
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../mocks/server.js';
import { readContract } from '../../openapi/operations/compile.js';
import { formatReport, runContractSuite, type ContractReport, type SkipRule } from '../index.js';
import { suiteSpecOf, type SuiteSpec } from '../spec-contract.js';
import { startMockProxy } from './providers/mock-proxy.js';

const TOKEN = 'corpus-token';
/** The HTTP basic credentials the suite sends and the mock accepts (fixtures/specs/credentials-3.1 asks for them). */
const BASIC = 'corpus:pass';
/** What the mock gets wrong today on a corpus spec, found by this suite and left to the mock's owners: skipped with the reason, never silently. */
const KNOWN: Record<string, SkipRule[]> = {};
/**
 * Samples of the string domain per string property, taken in turn (--string-samples): these specs are about
 * parameter styles, media types and identities, and the whole domain on every property is the broken-provider kits' job.
 */
const STRINGS = 4;
/** Variants of each fixed family per operation, taken in turn across the operations (--variant-samples): the same reason. */
const VARIANTS = 4;
const ROOT = fileURLToPath(new URL('../../fixtures/specs/', import.meta.url));
const SPECS = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => [entry.name, ['openapi.yaml', 'swagger.yaml'].map((file) => join(ROOT, entry.name, file)).find((path) => existsSync(path))] as const)
  .filter((pair): pair is readonly [string, string] => pair[1] !== undefined);

describe.each(SPECS)('the suite with --spec fixtures/specs/%s', (name, spec) => {
  let mock: MockServer;
  let report: ContractReport;
  /**
   * The spec as the suite compiles it: read from its file once, for the runs behind the proxies and
   * for the three mocks (its validators compiled once for all of them); the run above reads it by `spec`.
   */
  let contract: SuiteSpec;
  beforeAll(async () => {
    contract = suiteSpecOf(await readContract(spec));
    mock = await createMockServer({ port: 0, logLevel: 'silent', spec, contract: contract.compiled, tokens: [TOKEN, BASIC] });
    report = await runContractSuite({
      baseUrl: mock.url,
      token: TOKEN,
      basic: BASIC,
      spec,
      seed: 31,
      skip: KNOWN[name] ?? [],
      generated: { positive: 3, negative: 3, strings: STRINGS, variants: VARIANTS },
    });
  }, 120_000);
  afterAll(() => mock?.close());
  /**
   * The suite, one random case of each kind and one variant of each fixed family, against the mock
   * behind a proxy at `baseUrl`: what the proxies change is the type every JSON answer is labelled
   * with, which every case's answer shows.
   */
  const throughProxy = (baseUrl: string): Promise<ContractReport> =>
    runContractSuite({ baseUrl, token: TOKEN, basic: BASIC, contract, seed: 31, skip: KNOWN[name] ?? [], generated: { positive: 1, negative: 1, strings: 1, variants: 1 } });

  it('fails (report not ok: exit 1) naming content_type_conformance against the mock behind a proxy that labels its JSON answers text/plain', async () => {
    // A mock of its own: the runs before filled the shared one's lists past what an answer may hold.
    const own = await createMockServer({ port: 0, logLevel: 'silent', spec, contract: contract.compiled, tokens: [TOKEN, BASIC] });
    const proxy = await startMockProxy(own.url, async (_request, forward) => {
      const answer = await forward();
      const type = answer.headers['content-type'] ?? '';
      return /json/i.test(type) ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/plain; charset=utf-8' } } : answer;
    });
    try {
      const broken = await throughProxy(proxy.url);
      expect(broken.ok).toBe(false);
      expect(broken.checks.filter((c) => c.status === 'failed' || c.status === 'not-judged').map((c) => c.name)).toEqual(['content_type_conformance']);
    } finally {
      await proxy.close();
      await own.close();
    }
  }, 120_000);

  it('passes the mock behind a proxy that spells application/json otherwise (Application/JSON; charset="UTF-8": the same type, RFC 9110 §8.3.1)', async () => {
    // A mock of its own: the runs before filled the shared one's lists past what an answer may hold.
    const own = await createMockServer({ port: 0, logLevel: 'silent', spec, contract: contract.compiled, tokens: [TOKEN, BASIC] });
    const proxy = await startMockProxy(own.url, async (_request, forward) => {
      const answer = await forward();
      const type = answer.headers['content-type'] ?? '';
      return /^application\/json\s*(;|$)/i.test(type) ? { ...answer, headers: { ...answer.headers, 'content-type': 'Application/JSON; Charset="UTF-8"' } } : answer;
    });
    try {
      const legal = await throughProxy(proxy.url);
      expect(legal.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
      expect(legal.ok).toBe(true);
    } finally {
      await proxy.close();
      await own.close();
    }
  }, 120_000);

  it('passes against the mock started on it, every operation tested (a body that repeats a member name refused, as a strict provider does)', () => {
    const failures = report.findings.filter((f) => f.severity === 'failure');
    expect(
      failures.map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`),
      formatReport(report, { maxFailuresPerCheck: 3 }),
    ).toEqual([]);
    expect(report.checks.filter((c) => c.status === 'failed' || c.status === 'not-judged').map((c) => c.name)).toEqual([]);
    expect(report.operations.length).toBeGreaterThan(0);
    for (const operation of report.operations) expect(operation.sent, operation.operationId).toBeGreaterThan(0);
  });
});
