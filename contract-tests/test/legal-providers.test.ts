/**
 * The suite never fails a provider for what the seed leaves unsaid: correct providers that
 * make different legal choices pass, twice in a row against the same long-lived instance
 * (so ids never collide across runs, whatever the duplicate policy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContractSuite, type CheckName, type ContractReport } from '../index.js';
import { startProvider, type LegalChoices, type Provider } from './providers/provider.js';

const TOKEN = 'provider-token';

interface LegalCase {
  name: string;
  choices: LegalChoices;
  /** A warning the choice earns, if any: reported, never failing. */
  warns?: { check: CheckName; message: RegExp };
}

const LEGAL: LegalCase[] = [
  { name: 'rejects duplicate ids with 409 (the reference)', choices: {}, warns: { check: 'status_code_conformance', message: /Answered 401/ } },
  { name: 'adds fields to the Plant (id, createdAt)', choices: { extraResponseFields: true } },
  { name: 'answers 400 instead of 401 for bad credentials', choices: { unauthenticatedStatus: 400 }, warns: { check: 'ignored_auth', message: /with 400; 401 is the conventional answer/ } },
  { name: 'answers 403 for bad credentials', choices: { unauthenticatedStatus: 403 }, warns: { check: 'ignored_auth', message: /with 403/ } },
  { name: 'accepts repeated ids', choices: { duplicates: 'accept' } },
  { name: 'says application/json; charset=utf-8', choices: { charset: true } },
  { name: 'answers invalid bodies 422 application/problem+json', choices: { unprocessableEntity: true }, warns: { check: 'status_code_conformance', message: /Answered 422/ } },
  { name: 'reads JSON whatever the Content-Type', choices: { anyContentType: true }, warns: { check: 'negative_data_rejection', message: /Accepted \(200\) a JSON body sent as text\/plain/ } },
];

describe.each(LEGAL)('a correct provider that $name', ({ choices, warns }) => {
  let provider: Provider;
  const reports: ContractReport[] = [];
  beforeAll(async () => {
    provider = await startProvider({ token: TOKEN, ...choices });
    for (let run = 0; run < 2; run++) {
      reports.push(await runContractSuite({ baseUrl: provider.url, token: TOKEN, timeoutMs: 5_000, generated: { positive: 10, negative: 10 } }));
    }
  });
  afterAll(() => provider?.close());

  it('passes, twice in a row on the same instance', () => {
    for (const report of reports) {
      expect(report.findings.filter((f) => f.severity === 'failure').map((f) => `${f.check} ${f.exchange.case.id}: ${f.message}`)).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.checks.every((check) => check.status === 'passed' && check.judged > 0)).toBe(true);
    }
  });

  if (warns) it('reports its choice as a warning', () => {
    const { check, message } = warns;
    const warnings = reports[0]?.findings.filter((f) => f.severity === 'warning' && f.check === check).map((f) => f.message) ?? [];
    expect(warnings.join('\n')).toMatch(message);
  });
});
