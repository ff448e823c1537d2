/**
 * The contract suite against both of our mocks, in-process over real HTTP: one suite, many
 * targets. A check that cannot hold for a target is skipped with its reason, both in the
 * suite's own report and in this test's name — never silently.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/server.js';
import { startPrismMock } from '../../mocks/prism/server.js';
import { CHECKS, formatReport, runContractSuite, type ContractReport, type SkipRule } from '../index.js';
import { resolveOptions } from '../options.js';

const TOKEN = 'contract-token';
/** Checks the bundled spec gives nothing to judge (the stateful ones: it has no read or list), with the suite's reason. */
const NOT_APPLICABLE = resolveOptions({ baseUrl: 'http://127.0.0.1:9', token: TOKEN }).skip.filter((rule) => rule.notApplicable);
const SEED = Number(process.env.CONTRACT_SEED ?? 4_242);

interface Target {
  name: string;
  start(): Promise<{ url: string; close(): Promise<void> }>;
  /** What cannot hold for this target, and why. */
  skip: SkipRule[];
  /** A long-lived target that rejects repeated ids: run the suite twice on one instance. */
  runs: number;
}

const TARGETS: Target[] = [
  {
    name: 'the stateful mock',
    // Started with a token allow-list, so the invalid-token case has a token to be refused.
    start: () => createMockServer({ port: 0, logLevel: 'silent', tokens: [TOKEN] }),
    skip: [],
    runs: 2,
  },
  {
    name: 'the Prism mock',
    start: () => startPrismMock({ port: 0 }),
    skip: [
      { check: 'response_echoes_request', reason: "Prism is stateless: it answers the spec's example Plant (Monstera), not the plant that was sent" },
      {
        check: 'ignored_auth',
        cases: ['fixture:invalid-token', 'generated:auth-token-other-case', 'generated:auth-token-with-suffix', 'generated:auth-token-prefix', 'generated:auth-lower-case-scheme-invalid-token'],
        reason: 'Prism checks that a bearer token is present, not which one: it has no list of valid tokens',
      },
    ],
    runs: 1,
  },
];

describe.each(TARGETS)('the contract suite against $name', (target) => {
  let stop: () => Promise<void>;
  const reports: ContractReport[] = [];
  beforeAll(async () => {
    const started = await target.start();
    stop = () => started.close();
    for (let run = 0; run < target.runs; run++) {
      reports.push(await runContractSuite({ baseUrl: started.url, token: TOKEN, seed: SEED, skip: target.skip, generated: { positive: 20, negative: 20 } }));
    }
  });
  afterAll(() => stop?.());

  for (const check of CHECKS) {
    const notApplicable = NOT_APPLICABLE.find((rule) => rule.check === check.name);
    if (notApplicable) {
      it.skip(`${check.name} — not applicable to the bundled spec: ${notApplicable.reason}`, () => {});
      continue;
    }
    const whole = target.skip.find((rule) => rule.check === check.name && !rule.cases);
    if (whole) {
      it.skip(`${check.name} — skipped: ${whole.reason}`, () => {});
      continue;
    }
    const partial = target.skip.filter((rule) => rule.check === check.name && rule.cases);
    const note = partial.map((rule) => ` (${rule.cases?.join(', ')} skipped: ${rule.reason})`).join('');
    it(`${check.name} passes${target.runs > 1 ? ` on each of ${target.runs} runs` : ''}${note}`, () => {
      for (const report of reports) {
        const result = report.checks.find((c) => c.name === check.name);
        const failures = report.findings.filter((f) => f.check === check.name && f.severity === 'failure');
        expect(failures.map((f) => `${f.exchange.case.id}: ${f.message}`)).toEqual([]);
        expect(result?.status).toBe('passed');
        expect(result?.judged).toBeGreaterThan(0);
      }
    });
  }

  it('shows every skip with its reason in the report', () => {
    const text = formatReport(reports[0] as ContractReport);
    for (const rule of target.skip) expect(text).toContain(rule.reason);
    expect(text).toMatch(/^PASSED: /m);
  });
});

describe('the Prism skips', () => {
  it('are needed: without them exactly the skipped cases fail', async () => {
    const prism = await startPrismMock({ port: 0 });
    try {
      const report = await runContractSuite({ baseUrl: prism.url, token: TOKEN, seed: SEED, generated: { positive: 5, negative: 5 } });
      const failed = new Set(report.findings.filter((f) => f.severity === 'failure').map((f) => (f.check === 'response_echoes_request' ? f.check : `${f.check} ${f.exchange.case.id}`)));
      const skipped = TARGETS[1]?.skip.flatMap((rule) => (rule.cases ?? []).map((id) => `${rule.check} ${id}`)) ?? [];
      expect([...failed].sort()).toEqual([...skipped, 'response_echoes_request'].sort());
    } finally {
      await prism.close();
    }
  });
});
