/**
 * The suite can fail: each provider of providers/flaws.ts is correct but for one realistic flaw,
 * and the run must fail on exactly the check that names that flaw, with a report that says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, runContractSuite, type ContractReport, type Finding } from '../index.js';
import { FLAWS } from './providers/flaws.js';
import { startProvider, type Provider } from './providers/provider.js';

const TOKEN = 'provider-token';
const SEED = 20_240_601;

describe.each(Object.entries(FLAWS).map(([name, flaw]) => ({ name, ...flaw })))('a provider that $flaw ($name)', ({ caughtBy, says, timeoutMs, behaviour }) => {
  let provider: Provider;
  let report: ContractReport;
  beforeAll(async () => {
    provider = await startProvider({ token: TOKEN, behaviour });
    report = await runContractSuite({ baseUrl: provider.url, token: TOKEN, seed: SEED, timeoutMs: timeoutMs ?? 5_000, generated: { positive: 10, negative: 10 } });
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
    expect(text).toMatch(new RegExp(`Replay: {3}(curl -i -X POST '${provider.url}/plants'|the body is \\d+ bytes)`));
    expect(text).toMatch(/^FAILED: 1 of 8 checks failed/m);
    expect(text).not.toContain(TOKEN);
  });
});

describe('a provider that hangs', () => {
  it('stops the run after three timeouts instead of waiting on every case', async () => {
    const provider = await startProvider({ token: TOKEN, behaviour: FLAWS.hangs?.behaviour });
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
      expect(elapsed).toBeLessThan(20 * 200);
    } finally {
      await provider.close();
    }
  });
});
