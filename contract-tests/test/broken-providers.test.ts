/**
 * The suite can fail: each provider of providers/flaws.ts is correct but for one realistic flaw,
 * and the run must fail on exactly the check that names that flaw, with a report that says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../../fixtures/index.js';
import { LARGE_BODY_BYTES } from '../checks/positive-data-acceptance.js';
import { formatReport, runContractSuite, type ContractReport, type Finding } from '../index.js';
import { junitXml } from '../junit.js';
import { loadSuiteSpec } from '../spec-contract.js';
import { FLAWS } from './providers/flaws.js';
import { startProvider, type Provider } from './providers/provider.js';

const TOKEN = 'provider-token';
const SEED = 20_240_601;
/**
 * The bundled fixture cases and the compiled spec, each made once for the file's 60 runs (each run
 * would read them again, and compile again the validators it uses): a run only reads them.
 */
const fixtures = loadFixtures();
const contract = loadSuiteSpec();

describe.each(Object.entries(FLAWS).map(([name, flaw]) => ({ name, ...flaw })))('a provider that $flaw ($name)', ({ caughtBy, says, timeoutMs, behaviour }) => {
  let provider: Provider;
  let report: ContractReport;
  beforeAll(async () => {
    provider = await startProvider({ token: TOKEN, behaviour });
    report = await runContractSuite({ baseUrl: provider.url, token: TOKEN, seed: SEED, fixtures, contract, timeoutMs: timeoutMs ?? 30_000, generated: { positive: 10, negative: 10 } });
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
    // Eight checks apply to createPlant: it declares no response header, so response_headers_conformance is not applicable.
    expect(text).toMatch(/^FAILED: 1 of 8 checks failed/m);
    expect(text).not.toContain(TOKEN);
  });
});

describe('a provider that answers 413 to everything', () => {
  it('fails positive_data_acceptance, and shows the checks it gave nothing to judge as not judged, never as passed', async () => {
    const provider = await startProvider({ token: TOKEN, behaviour: FLAWS['too-large-for-everything']?.behaviour });
    try {
      const report = await runContractSuite({ baseUrl: provider.url, token: TOKEN, seed: SEED, fixtures, contract, generated: { positive: 5, negative: 5 } });
      const echoes = report.checks.find((c) => c.name === 'response_echoes_request');
      expect(echoes).toMatchObject({ status: 'not-judged', judged: 0, passed: 0 });
      const text = formatReport(report);
      expect(text).toMatch(/^\? response_echoes_request +0 +0 +0/m);
      expect(text).toMatch(/^FAILED: .*3 check\(s\) not judged: no answer gave them anything to judge \(content_type_conformance, response_schema_conformance, response_echoes_request\)/m);
      // The report names the answers that would have given them something.
      expect(text).toContain('? response_schema_conformance: any of these answers would have given it something:');
      const xml = junitXml(report);
      expect(xml).toMatch(/<testsuite name="response_echoes_request"[^>]*>\s*<properties>[\s\S]*?<testcase classname="response_echoes_request" name="\(not judged\)"[^>]*>\s*<skipped\/>/);
      // Only bodies past the size a provider may refuse are excused, and then with a warning.
      const positive = report.findings.filter((f) => f.check === 'positive_data_acceptance');
      for (const finding of positive.filter((f) => f.exchange.case.expect === 'accepted')) {
        const size = Buffer.byteLength(finding.exchange.case.request.body ?? '');
        // A fixed-id case answered as repeats are (413 here, as invalid bodies are) is ambiguous: a warning.
        expect(finding.severity, `${finding.exchange.case.id} (${size} bytes)`).toBe(size >= LARGE_BODY_BYTES || finding.exchange.case.fixedId ? 'warning' : 'failure');
      }
      expect(positive.some((f) => f.severity === 'warning')).toBe(true);
    } finally {
      await provider.close();
    }
  });
});

describe('a provider that hangs', () => {
  it('stops the run after three timeouts instead of waiting on every case', async () => {
    const provider = await startProvider({ token: TOKEN, behaviour: FLAWS.hangs?.behaviour });
    try {
      const report = await runContractSuite({ baseUrl: provider.url, token: TOKEN, seed: SEED, fixtures, contract, timeoutMs: 200, concurrency: 2, generated: { positive: 5, negative: 5 } });
      const timeouts = report.exchanges.filter((x) => x.outcome === 'timeout').length;
      const notSent = report.exchanges.filter((x) => x.outcome === 'not-sent');
      expect(timeouts).toBeGreaterThanOrEqual(3);
      expect(timeouts).toBeLessThanOrEqual(4); // the requests already in flight when the third timed out
      expect(notSent.length).toBe(report.cases - timeouts);
      // Every other check says why it judged nothing.
      const positive = report.checks.find((c) => c.name === 'positive_data_acceptance');
      expect(positive?.status).toBe('skipped');
      expect(positive?.skipped[0]?.reason).toMatch(/timed out 3 times/);
      // Only the requests already in flight waited: every not-sent case says the suite stopped sending.
      expect(notSent.every((x) => x.outcome === 'not-sent' && /had already timed out 3 times/.test(x.reason))).toBe(true);
    } finally {
      await provider.close();
    }
  });
});
