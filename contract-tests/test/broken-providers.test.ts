/**
 * The suite can fail: each provider here is correct but for one deliberate flaw, and the run
 * must fail on exactly the check that names that flaw, with a report that says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, runContractSuite, type CheckName, type ContractReport, type Finding } from '../index.js';
import { startProvider, type Flaw, type Provider } from './providers/provider.js';

const TOKEN = 'provider-token';
const SEED = 20_240_601;

interface BrokenCase {
  flaw: Flaw;
  /** The one check that must fail. */
  caughtBy: CheckName;
  /** Words the failure must contain, so the report explains the flaw. */
  says: RegExp;
  timeoutMs?: number;
}

const BROKEN: BrokenCase[] = [
  { flaw: 'plant-without-name', caughtBy: 'response_schema_conformance', says: /200 body is not a Plant: .*required field 'name'/ },
  { flaw: 'plant-tag-as-number', caughtBy: 'response_schema_conformance', says: /200 body is not a Plant: tag must be string/ },
  { flaw: 'name-echoed-upper-case', caughtBy: 'response_echoes_request', says: /The Plant names "MONSTERA", but the request sent name "Monstera"/ },
  { flaw: 'error-without-message', caughtBy: 'response_schema_conformance', says: /400 body is not a Error: .*required field 'message'/ },
  { flaw: 'error-code-beyond-int32', caughtBy: 'response_schema_conformance', says: /400 body is not a Error: error must be int32/ },
  { flaw: 'server-error-on-non-ascii-name', caughtBy: 'not_a_server_error', says: /Answered 500, a server error/ },
  { flaw: 'created-201', caughtBy: 'status_code_conformance', says: /Accepted a valid NewPlant with 201; the spec's success status is 200 exactly/ },
  { flaw: 'plant-as-text-plain', caughtBy: 'content_type_conformance', says: /200 answer says Content-Type: text\/plain; the spec says application\/json/ },
  { flaw: 'auth-ignored', caughtBy: 'ignored_auth', says: /Answered 200 to a request with no Authorization header/ },
  { flaw: 'any-authorization-accepted', caughtBy: 'ignored_auth', says: /Answered 200 to a request with Authorization: Basic / },
  { flaw: 'bearer-token-not-checked', caughtBy: 'ignored_auth', says: /Answered 200 to a request with Authorization: Bearer contract-suite-invalid-/ },
  { flaw: 'field-types-not-checked', caughtBy: 'negative_data_rejection', says: /Accepted \(200\) a body that is not a NewPlant: name is a string; null is not/ },
  { flaw: 'int64-read-as-double', caughtBy: 'negative_data_rejection', says: /Accepted \(200\) a body that is not a NewPlant: An id from 2\^63/ },
  { flaw: 'ids-beyond-2-53-refused', caughtBy: 'positive_data_acceptance', says: /refused with 400; .*id is too large/ },
  { flaw: 'empty-name-refused', caughtBy: 'positive_data_acceptance', says: /refused with 400; .*name must not be empty/ },
  { flaw: 'hangs', caughtBy: 'not_a_server_error', says: /No complete answer within 300 ms/, timeoutMs: 300 },
  { flaw: 'drops-connection', caughtBy: 'not_a_server_error', says: /connection failed before a complete answer/ },
];

describe.each(BROKEN)('a provider with the flaw $flaw', ({ flaw, caughtBy, says, timeoutMs }) => {
  let provider: Provider;
  let report: ContractReport;
  beforeAll(async () => {
    provider = await startProvider({ token: TOKEN, flaw });
    report = await runContractSuite({
      baseUrl: provider.url,
      token: TOKEN,
      seed: SEED,
      timeoutMs: timeoutMs ?? 5_000,
      generated: { positive: 10, negative: 10 },
    });
  });
  afterAll(() => provider?.close());

  it(`fails ${caughtBy}, and no other check`, () => {
    expect(report.ok).toBe(false);
    expect(report.checks.filter((check) => check.status === 'failed').map((check) => check.name)).toEqual([caughtBy]);
  });

  it('says why, with the exact request and the response, and never the token', () => {
    const failures = report.findings.filter((f) => f.check === caughtBy && f.severity === 'failure');
    expect(failures.map((f) => f.message).join('\n')).toMatch(says);
    const first = failures[0] as Finding;
    const text = formatReport(report);
    expect(text).toContain(`${caughtBy}: ${first.exchange.case.id}`);
    expect(text).toContain(`Request:  POST ${provider.url}/plants`);
    expect(text).toContain('Response: ');
    expect(text).toContain(`Replay:   curl -i -X POST '${provider.url}/plants'`);
    expect(text).toMatch(/^FAILED: 1 of 8 checks failed/m);
    expect(text).not.toContain(TOKEN);
  });
});

describe('a provider that hangs', () => {
  it('stops the run after three timeouts instead of waiting on every case', async () => {
    const provider = await startProvider({ token: TOKEN, flaw: 'hangs' });
    try {
      const started = performance.now();
      const report = await runContractSuite({ baseUrl: provider.url, token: TOKEN, seed: SEED, timeoutMs: 200, concurrency: 2, generated: { positive: 5, negative: 5 } });
      const elapsed = performance.now() - started;
      const timeouts = report.exchanges.filter((x) => x.outcome === 'timeout').length;
      const notSent = report.exchanges.filter((x) => x.outcome === 'not-sent');
      expect(timeouts).toBeGreaterThanOrEqual(3);
      expect(timeouts).toBeLessThanOrEqual(4); // the requests already in flight when the third timed out
      expect(notSent.length).toBe(report.cases - timeouts);
      // Every other check says why it judged nothing.
      const positive = report.checks.find((c) => c.name === 'positive_data_acceptance');
      expect(positive?.status).toBe('skipped');
      expect(positive?.skipped[0]?.reason).toMatch(/timed out 3 times/);
      // Two rounds of timeouts, not one per case (a bound, generous for a busy machine).
      expect(elapsed).toBeLessThan(report.cases * 200);
    } finally {
      await provider.close();
    }
  });
});
