/**
 * A parent record no operation creates, only a list answers (PowerDNS: `GET /servers` lists the
 * servers; a zone lives under `/servers/{server_id}/zones`, and a real PowerDNS knows one server,
 * `localhost`). A client takes `{server_id}` from that list, so the suite does, for every case, the
 * records it creates first (a zone's scope) and its sequences; and the report counts an operation
 * below such a parent as run on one that exists when an answer of the run named it.
 *
 * Before, `{server_id}` was drawn at random (`/servers/h3ca/zones`): against a provider that knows
 * only its own servers every request below one was a 404, and the report said "0 of the 40".
 * Against the mock started on the real document, behind a proxy that answers 404 below any server
 * its list did not name, as PowerDNS does; over real HTTP. Such a parent is sent missing on purpose
 * only where a fresh UUID fits its parameter (Maestro's workflows), never a name like `localhost`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { readContract } from '../../openapi/operations/compile.js';
import { formatReport, runContractSuite } from '../index.js';
import { suiteSpecOf, type SuiteSpec } from '../spec-contract.js';
import { planMissingParents } from '../missing-parents.js';
import { startMockProxy } from './providers/mock-proxy.js';

const ROOT = fileURLToPath(new URL('../../fixtures/real-world/', import.meta.url));
const CORPUS = JSON.parse(readFileSync(`${ROOT}index.json`, 'utf8')) as Array<{ name: string; file: string }>;
const SPEC = `${ROOT}${CORPUS.find((entry) => entry.name === 'powerdns')?.file}`;
const TOKEN = 'listed-parents-123';
const OPERATIONS = ['listServers', 'listZones', 'createZone', 'getConfig', 'listMetadata', 'createMetadata'];

describe('a parent only a list answers ({server_id} of PowerDNS)', () => {
  it('is taken from the list for every request below it, and counted as existing', async () => {
    const contract = suiteSpecOf(await readContract(SPEC));
    const mock = await createMockServer({ port: 0, logLevel: 'silent', spec: SPEC, contract: contract.compiled, tokens: [TOKEN] });
    const listed = new Set<string>();
    const unknown: string[] = [];
    const proxy = await startMockProxy(mock.url, async (request, forward) => {
      const path = new URL(request.url, 'http://x').pathname;
      const server = /^\/servers\/([^/]+)/.exec(path)?.[1];
      if (server !== undefined && !listed.has(decodeURIComponent(server))) {
        unknown.push(`${request.method} ${path}`);
        return { status: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ error: 'Not Found' })) };
      }
      const answer = await forward();
      if (path === '/servers' && answer.status === 200) for (const item of JSON.parse(answer.body.toString('utf8')) as Array<{ id?: unknown }>) listed.add(String(item.id));
      return answer;
    });
    try {
      const report = await runContractSuite({
        baseUrl: proxy.url,
        token: TOKEN,
        contract,
        seed: 38,
        includeOperations: OPERATIONS,
        generated: { positive: 1, negative: 1, strings: 2, variants: 2 },
      });
      const below = report.exchanges.filter((x) => x.outcome === 'response' && /^\/servers\/[^/]+\//.test(new URL(x.request.url).pathname));
      expect(listed.size).toBeGreaterThan(0);
      expect(below.length).toBeGreaterThan(100);
      expect(unknown.slice(0, 5)).toEqual([]);
      expect(
        report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message.slice(0, 200)}`),
        formatReport(report, { maxFailuresPerCheck: 3 }),
      ).toEqual([]);
      expect(report.ok).toBe(true);
      const counts = report.dependencies;
      expect(counts?.belowParent).toBeGreaterThan(0);
      expect(counts?.notOnCreated).toEqual([]);
      expect(counts?.onAnsweredParent).toBe(counts?.belowParent);
      expect(formatReport(report)).toContain(
        `${counts?.belowParent} of the ${counts?.belowParent} operations below a parent record ran on one the suite created (or, where no operation creates the parent, one an answer of the run named: ${counts?.onAnsweredParent} of them).`,
      );
    } finally {
      await proxy.close();
      await mock.close();
    }
  }, 120_000);

  it('is sent missing on purpose only where the parameter takes identifiers a fresh UUID fits: never a free-form name', async () => {
    const plans = (contract: SuiteSpec) =>
      planMissingParents(contract.compiled as NonNullable<SuiteSpec['compiled']>, contract.operations, new Set()).map((plan) => `${plan.operation.operationId} {${plan.parameter}}`);
    // PowerDNS's {server_id} is a plain string (`localhost`): a provider may hold any name.
    expect(plans(suiteSpecOf(await readContract(SPEC))).filter((plan) => plan.includes('server_id'))).toEqual([]);
    // Maestro's {workflowId} takes UUIDs by its pattern: a fresh one names no workflow.
    const maestro = suiteSpecOf(await readContract(`${ROOT}${CORPUS.find((entry) => entry.name === 'docusign-maestro')?.file}`));
    expect(plans(maestro)).toContain('GetWorkflowTriggerRequirements {workflowId}');
  });
});
