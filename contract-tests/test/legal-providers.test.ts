/**
 * The suite never fails a provider for what the spec or the RFCs leave open: each provider of
 * providers/legal.ts makes a different legal choice and passes, twice in a row against the same
 * long-lived instance (so ids never collide across runs, whatever its duplicate policy), and
 * the report says what it chose where that is a warning or a provider choice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContractSuite, type ContractReport } from '../index.js';
import { LEGAL } from './providers/legal.js';
import { startProvider, type Provider } from './providers/provider.js';

const TOKEN = 'provider-token';
/** Fixed, so that a failure reproduces (ids are still drawn fresh on every run). */
const SEED = 4_242;

describe.each(Object.entries(LEGAL).map(([name, legal]) => ({ name, ...legal })))('a correct provider that $variation ($name)', ({ behaviour, reports: says }) => {
  let provider: Provider;
  const reports: ContractReport[] = [];
  beforeAll(async () => {
    provider = await startProvider({ token: TOKEN, behaviour });
    for (let run = 0; run < 2; run++) {
      reports.push(await runContractSuite({ baseUrl: provider.url, token: TOKEN, seed: SEED + run, timeoutMs: 30_000, generated: { positive: 10, negative: 10 } }));
    }
  });
  afterAll(() => provider?.close());

  it('passes, twice in a row on the same instance', () => {
    for (const report of reports) {
      expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
      expect(report.ok).toBe(true);
      // Every check the spec gives something to judge judged something and passed (the stateful ones have no collection in the bundled spec).
      expect(report.checks.filter((check) => !(check.status === 'passed' && check.judged > 0) && !check.notApplicable).map((check) => check.name)).toEqual([]);
    }
  });

  if (says)
    it(`reports its choice (${says.severity})`, () => {
      const found = reports[0]?.findings.filter((f) => f.severity === says.severity && f.check === says.check).map((f) => f.message) ?? [];
      expect(found.join('\n')).toMatch(says.message);
    });
});
