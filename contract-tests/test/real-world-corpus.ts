/**
 * Issue 37 §5, the corpus as a test: on each of the 23 real public APIs (fixtures/real-world), the
 * contract suite run against the mock started on that document passes (what the CLI exits 0 for),
 * and against the same mock behind a proxy that breaks its 2xx JSON answers (an object made an array, an
 * array an object) it fails naming
 * response_schema_conformance (exit 1), so that green is never vacuous. Few generated cases per
 * operation: the point is the two tools' agreement on every operation, not the suite's depth.
 *
 * Behind the proxy the suite runs only on a few of the operations whose answers the first run saw as
 * a JSON object or array (what the proxy breaks), with one valid generated case each: enough to prove
 * it notices a broken answer, at a twentieth of a whole run's cost (docs/benchmarks.md, "Test time").
 *
 * The 23 documents are split into SHARDS groups of about equal weight (operations), one test file
 * each (real-world-suite-N.test.ts), so vitest's workers share the corpus instead of one running it all.
 *
 * Documents where the two still disagree are listed in KNOWN with the disagreement and which tool
 * the spec says is wrong; their case is `it.fails`, so a fix turns it red until it leaves the list.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { readContract } from '../../openapi/operations/compile.js';
import { formatReport, runContractSuite, type ContractReport } from '../index.js';
import { suiteSpecOf, type SuiteSpec } from '../spec-contract.js';
import { editJson, startMockProxy } from './providers/mock-proxy.js';

export interface CorpusEntry {
  name: string;
  file: string;
  operations: number;
}

const ROOT = fileURLToPath(new URL('../../fixtures/real-world/', import.meta.url));
export const CORPUS = JSON.parse(readFileSync(`${ROOT}index.json`, 'utf8')) as CorpusEntry[];
const TOKEN = 'corpus-token-123';
const BASIC = 'corpus:secret';
/**
 * One random case of each kind, two samples of the string domain per string property taken in turn
 * (--string-samples 2): each operation still sends every sample where it has enough string properties;
 * and two variants of each fixed family per operation (--variant-samples 2), taken in turn across the
 * operations: the document's run still sends every variant where it has enough operations.
 */
const GENERATED = { positive: 1, negative: 1, strings: 2, variants: 2 };
const SEED = 37;
/** Operations the suite runs on behind the breaking proxy: a few suffice to show a broken answer is noticed. */
const BROKEN_OPERATIONS = 3;

/** Documents on which the suite still fails the mock: the disagreement, and the tool the spec says is wrong. */
const KNOWN: Record<string, string> = {};

const failed = (report: ContractReport): string[] => report.checks.filter((c) => c.status === 'failed' || c.status === 'not-judged').map((c) => c.name);

/**
 * The document as the suite compiles it, read from its file once for both runs on it and for the
 * mock of each (as the CLI hands its compiled spec to the runner): its validators are compiled once,
 * on first use, whichever tool uses them first.
 */
function compiledOnce(spec: string): () => Promise<SuiteSpec> {
  let compiled: Promise<SuiteSpec> | undefined;
  return () => (compiled ??= readContract(spec).then(suiteSpecOf));
}

/** The run against the mock itself, made once per document: its answers tell the breaking run which operations to try. */
function firstRunOnce(spec: string, contract: () => Promise<SuiteSpec>): () => Promise<ContractReport> {
  let run: Promise<ContractReport> | undefined;
  return () => (run ??= contract().then(async (compiled) => (await suiteAgainstMock(spec, compiled)).report));
}

/** The proxy's break: an object into a one-item array, an array into `{items: …}`. */
const breakAnswer = (value: unknown): unknown => (Array.isArray(value) ? { items: value } : value !== null && typeof value === 'object' ? [value] : value);

/**
 * The operations whose 2xx JSON answer in the first run the spec rejects once broken (what the suite
 * behind the proxy must notice), those with the fewest cases first (a create whose body has forty
 * string properties sends hundreds: netlify's createSite alone cost 12 s behind the proxy), then in
 * the report's order.
 */
function breakableOperations(report: ContractReport, contract: SuiteSpec): string[] {
  const breakable = new Set<string>();
  const answered = new Set<string>();
  const cases = new Map<string, number>();
  for (const exchange of report.exchanges) {
    cases.set(exchange.case.operationId, (cases.get(exchange.case.operationId) ?? 0) + 1);
    if (exchange.outcome !== 'response' || exchange.response.status < 200 || exchange.response.status > 299) continue;
    if (!/json/i.test(exchange.response.headers['content-type'] ?? '')) continue;
    let value: unknown;
    try {
      value = JSON.parse(exchange.response.body);
    } catch {
      continue;
    }
    const operation = contract.operations.find((candidate) => candidate.operationId === exchange.case.operationId);
    const validate = operation?.responses.get(exchange.response.status)?.validate;
    if (value === null || typeof value !== 'object') continue;
    answered.add(exchange.case.operationId);
    if (validate && !validate(breakAnswer(value))) breakable.add(exchange.case.operationId);
  }
  const order = report.operations.map((operation) => operation.operationId).filter((id) => breakable.has(id));
  const cheapest = order
    .map((id, at) => ({ id, at, cases: cases.get(id) ?? 0 }))
    .sort((a, b) => a.cases - b.cases || a.at - b.at)
    .map(({ id }) => id)
    .slice(0, BROKEN_OPERATIONS);
  // And the first few in the report's order that answered an object or array: on openfga the cheapest
  // three alone were answered otherwise behind the proxy (one broken answer, not noticed).
  const first = report.operations
    .map((operation) => operation.operationId)
    .filter((id) => answered.has(id))
    .slice(0, BROKEN_OPERATIONS);
  return [...new Set([...cheapest, ...first])];
}

async function suiteAgainstMock(spec: string, contract: SuiteSpec, through?: { breakAnswers: readonly string[] }): Promise<{ report: ContractReport; broken: ReadonlySet<string> }> {
  const mock = await createMockServer({ port: 0, logLevel: 'silent', spec, contract: contract.compiled, tokens: [TOKEN, BASIC] });
  const broken = new Set<string>();
  // Every 2xx JSON object or array answer turned into the other kind (an object into a one-item array,
  // an array into {items: …}): an operation whose schema says which kind its answer is must fail.
  const proxy =
    through === undefined
      ? undefined
      : await startMockProxy(mock.url, async (request, forward) => {
          const answer = await forward();
          const json = /json/i.test(answer.headers['content-type'] ?? '') && answer.status >= 200 && answer.status < 300;
          if (!json) return answer;
          const edited = editJson(answer, breakAnswer);
          if (!edited.body.equals(answer.body)) broken.add(`${request.method} ${new URL(request.url, 'http://x').pathname}`);
          return edited;
        });
  try {
    // Behind the proxy only the check the break is for runs, on valid cases: it alone must fail the run.
    const report = await runContractSuite({
      baseUrl: proxy?.url ?? mock.url,
      token: TOKEN,
      basic: BASIC,
      contract,
      seed: SEED,
      // What is judged is the two tools' agreement, not the mock's speed: on a loaded machine the mock, in
      // this process beside the suite, may take more than the suite's default 10 s to answer.
      timeoutMs: 120_000,
      ...(through ? { generated: { positive: 1, negative: 0, strings: 2, variants: 2 }, checks: ['response_schema_conformance'], includeOperations: through.breakAnswers } : { generated: GENERATED }),
    });
    return { report, broken };
  } finally {
    await proxy?.close();
    await mock.close();
  }
}

/** How many test files share the corpus. */
export const SHARDS = 3;

/**
 * The documents of each shard: heaviest first (by operations, what a run's cost grows with) into the
 * lightest shard so far, so the files take about equal time; each document in exactly one shard.
 */
export function corpusShards(corpus: readonly CorpusEntry[] = CORPUS, count = SHARDS): string[][] {
  const shards = Array.from({ length: count }, () => ({ weight: 0, names: [] as string[] }));
  const heaviestFirst = [...corpus].sort((a, b) => b.operations - a.operations || a.name.localeCompare(b.name));
  for (const entry of heaviestFirst) {
    const lightest = shards.reduce((min, shard) => (shard.weight < min.weight ? shard : min));
    lightest.weight += entry.operations;
    lightest.names.push(entry.name);
  }
  return shards.map((shard) => shard.names);
}

/** The corpus test on the documents of shard `index` (0-based). */
export function describeCorpusShard(index: number): void {
  const names = new Set(corpusShards()[index]);
  const entries = CORPUS.filter((entry) => names.has(entry.name));
  describe.each(entries.map((entry) => [entry.name, entry] as const))('the suite against the mock on %s', describeDocument);
}

function describeDocument(name: string, entry: CorpusEntry): void {
  const spec = `${ROOT}${entry.file}`;
  const contract = compiledOnce(spec);
  const firstRun = firstRunOnce(spec, contract);
  const known = KNOWN[name];
  (known && !process.env.CORPUS_ALL ? it.fails : it)(
    `passes (exit 0)${known ? ` — known: ${known}` : ''}`,
    async () => {
      const report = await firstRun();
      expect(
        report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message.slice(0, 300)}`),
        formatReport(report, { maxFailuresPerCheck: 2 }),
      ).toEqual([]);
      expect(failed(report)).toEqual([]);
      expect(report.ok).toBe(true);
    },
    300_000,
  );

  it('fails (exit 1) naming response_schema_conformance behind a proxy that breaks the 2xx JSON answers', async () => {
    const breakable = breakableOperations(await firstRun(), await contract());
    expect(breakable, 'no 2xx JSON object or array answer to break').not.toEqual([]);
    const tried = breakable;
    const { report, broken } = await suiteAgainstMock(spec, await contract(), { breakAnswers: tried });
    expect(report.operations.map((operation) => operation.operationId).sort()).toEqual([...tried].sort());
    expect(broken.size, 'no 2xx JSON answer broken').toBeGreaterThan(0);
    expect(report.ok).toBe(false);
    expect(failed(report)).toEqual(['response_schema_conformance']);
    const named = report.findings.filter((f) => f.check === 'response_schema_conformance' && f.severity === 'failure');
    expect(named).not.toEqual([]);
    // Every failure is on an answer the proxy broke: the mock's own answers conform.
    expect(named.filter((f) => !broken.has(`${f.exchange.request.method} ${new URL(f.exchange.request.url).pathname}`)).map((f) => f.message.slice(0, 200))).toEqual([]);
  }, 300_000);
}
