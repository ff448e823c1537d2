/**
 * Issue 38's closing count, on real APIs: "K of the P operations below a parent record ran on one
 * the suite created", counted from what was sent (parent-coverage.ts), against the mock started on
 * corpus documents. Every operation whose chain of parents the graph knows how to create
 * (dependencies.ts namedRecords) must have run on parents the suite created; every other one is
 * listed in the report with its reason.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { PATIENT_MS } from '../../mocks/test/processes.js';
import { recogniseCollections } from '../../openapi/operations/collections.js';
import { readContract } from '../../openapi/operations/compile.js';
import { dependencyGraph } from '../../openapi/operations/dependencies.js';
import { namedRecords } from '../dependencies.js';
import { formatReport, runContractSuite, type ContractReport } from '../index.js';
import { pathValues } from '../parent-coverage.js';
import { suiteSpecOf, type SuiteSpec } from '../spec-contract.js';

const ROOT = fileURLToPath(new URL('../../fixtures/real-world/', import.meta.url));
const CORPUS = JSON.parse(readFileSync(`${ROOT}index.json`, 'utf8')) as Array<{ name: string; file: string }>;
const TOKEN = 'coverage-token-123';
const BASIC = 'coverage:secret';

const runs = new Map<string, Promise<{ report: ContractReport; spec: SuiteSpec }>>();
/** The suite against the mock on a corpus document, run once per document for this file's tests. */
function runOn(name: string): Promise<{ report: ContractReport; spec: SuiteSpec }> {
  const run = runs.get(name) ?? runOnce(name);
  runs.set(name, run);
  return run;
}

async function runOnce(name: string): Promise<{ report: ContractReport; spec: SuiteSpec }> {
  const file = `${ROOT}${CORPUS.find((entry) => entry.name === name)?.file}`;
  const compiled = await readContract(file);
  const spec = suiteSpecOf(compiled);
  // The mock serves the model the suite tests (compiled once for both).
  const mock = await createMockServer({ port: 0, logLevel: 'silent', contract: compiled, tokens: [TOKEN, BASIC] });
  try {
    // No random cases: what is counted is that some answered request of each operation named created
    // parents, and the cases every run sends (boundaries, sequences) give every operation its requests;
    // on these five documents the counts with one random case of each kind were the same. Two samples of
    // the string domain per string property (--string-samples 2): the walk adds requests, not parents.
    return {
      report: await runContractSuite({
        baseUrl: mock.url,
        token: TOKEN,
        basic: BASIC,
        contract: spec,
        seed: 38,
        generated: { positive: 0, negative: 0, strings: 2, variants: 2 },
        timeoutMs: PATIENT_MS,
      }),
      spec,
    };
  } finally {
    await mock.close();
  }
}

/** The operations below a parent record, and those of them whose chain of parents the graph plans, from the spec alone. */
function planned(spec: SuiteSpec): { below: string[]; chained: string[] } {
  const compiled = spec.compiled as NonNullable<SuiteSpec['compiled']>;
  const { collections } = recogniseCollections(compiled);
  const tested = new Set(spec.operations.map((o) => o.operationId));
  const below = dependencyGraph(compiled, collections).filter((e) => tested.has(e.operationId) && e.consumes.some((d) => d.in === 'path' && d.source === 'parent'));
  return {
    below: below.map((e) => e.operationId),
    chained: below
      .filter((e) => {
        const records = namedRecords(e, collections);
        return records !== undefined && !('unplanned' in records);
      })
      .map((e) => e.operationId),
  };
}

describe('the count of operations that ran on a parent the suite created, on corpus documents against the mock', () => {
  it.each(['gotify', 'openfga', 'adyen-legal-entity', 'libre-graph'])(
    '%s: every operation whose parents the graph plans ran on created ones; the others are listed with a reason',
    async (name) => {
      const { report, spec } = await runOn(name);
      const { below, chained } = planned(spec);
      const counts = report.dependencies;
      expect(counts?.belowParent).toBe(below.length);
      expect(chained.length).toBeGreaterThan(0);
      const missed = new Set(counts?.notOnCreated.map((n) => n.operationId));
      expect(chained.filter((id) => missed.has(id))).toEqual([]);
      expect(counts?.onCreatedParent).toBe(below.length - missed.size);
      // The figure is what was sent: each such operation has an answered request whose parent values a create of the run answered.
      for (const id of chained) {
        const operation = spec.operations.find((o) => o.operationId === id);
        const sent = report.exchanges.filter((x) => x.case.operationId === id && x.outcome === 'response').map((x) => pathValues(operation?.path ?? '', x.case.request.path));
        expect(
          sent.some((values) => values !== undefined),
          id,
        ).toBe(true);
      }
      const text = formatReport(report);
      expect(text).toContain(`${counts?.onCreatedParent} of the ${below.length} operations below a parent record ran on one the suite created`);
      for (const { operationId, reason } of counts?.notOnCreated ?? []) expect(text).toContain(`  - ${operationId}: ${reason}`);
    },
    120_000,
  );
});
