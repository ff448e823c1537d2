/**
 * One run of the contract suite: render the fixtures and the generated cases with fresh ids,
 * send each once (bounded concurrency, bounded time), let every check judge every exchange,
 * and count what each check found.
 */
import { createIdSource, loadFixtures, renderFixture, type FixtureCase, type RenderContext } from '../fixtures/index.js';
import { CHECKS } from './checks/index.js';
import { generateBodies } from './generated.js';
import type { CheckResult, ContractCase, ContractReport, Exchange, Finding, SentRequest } from './model.js';
import { resolveOptions, type ContractOptions, type ResolvedOptions } from './options.js';
import { assertReachable } from './reachability.js';
import { createPlantContract } from './spec-contract.js';
import { createTransport } from './transport.js';

/** Runs the suite against `options.baseUrl`. Throws ContractUsageError or UnreachableTargetError. */
export async function runContractSuite(options: ContractOptions): Promise<ContractReport> {
  const resolved = resolveOptions(options);
  const startedAt = new Date();
  const started = performance.now();
  const contract = createPlantContract();
  const endpoint = resolved.endpoint(contract.path);
  await assertReachable(endpoint, Math.min(resolved.timeoutMs, 10_000));

  const cases = buildCases(resolved, options.fixtures ?? loadFixtures());
  const exchanges = await sendAll(cases, endpoint, resolved, options.onExchange);
  const { checks, findings } = judgeAll(exchanges, resolved);
  return {
    baseUrl: resolved.baseUrl,
    seed: resolved.seed,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    cases: cases.length,
    checks,
    findings,
    exchanges,
    ok: checks.every((check) => check.status !== 'failed'),
  };
}

/** The run's cases: every fixture, then the generated positives and negatives. */
export function buildCases(options: ResolvedOptions, fixtures: readonly FixtureCase[]): ContractCase[] {
  const ids = createIdSource();
  const context: RenderContext = { token: options.token, invalidToken: options.invalidToken, ids, headers: options.headers };
  const cases: ContractCase[] = fixtures.map((fixture) => ({
    id: `fixture:${fixture.name}`,
    source: 'fixture',
    description: fixture.description,
    expect: fixture.expect,
    request: renderFixture(fixture, context),
  }));
  const generated = generateBodies({
    seed: options.seed,
    positive: options.generated.positive,
    negative: options.generated.negative,
    ids,
    validateNewPlant: createPlantContract().validateNewPlant,
  });
  const asCase = (kind: 'positive' | 'negative', index: number, body: (typeof generated.positive)[number]): ContractCase => {
    const fixture: FixtureCase = {
      name: `${kind}-${index}`,
      description: body.description,
      expect: kind === 'positive' ? 'accepted' : 'rejected-body',
      file: '(generated)',
      request: { auth: 'bearer', contentType: 'application/json', headers: {}, body: { text: body.text } },
    };
    const request = renderFixture(fixture, context);
    if (body.plant) request.plant = body.plant;
    const suffix = kind === 'negative' ? `-${body.label}` : '';
    return { id: `generated:${kind}-${index}${suffix}`, source: 'generated', description: body.description, expect: fixture.expect, request };
  };
  generated.positive.forEach((body, i) => cases.push(asCase('positive', i + 1, body)));
  generated.negative.forEach((body, i) => cases.push(asCase('negative', i + 1, body)));
  return cases;
}

async function sendAll(
  cases: readonly ContractCase[],
  endpoint: URL,
  options: ResolvedOptions,
  onExchange: ((exchange: Exchange) => void) | undefined,
): Promise<Exchange[]> {
  const transport = createTransport({ timeoutMs: options.timeoutMs, concurrency: options.concurrency });
  const exchanges: Exchange[] = new Array(cases.length);
  let next = 0;
  let timeouts = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const index = next++;
      const contractCase = cases[index] as ContractCase;
      const request = sentRequest(contractCase, endpoint, options);
      let exchange: Exchange;
      if (timeouts >= options.maxTimeouts) {
        const reason = `not sent: the provider had already timed out ${timeouts} times (each after ${options.timeoutMs} ms), so the suite stopped sending`;
        exchange = { case: contractCase, request, elapsedMs: 0, outcome: 'not-sent', reason };
      } else {
        const outcome = await transport.send({ url: endpoint, method: 'POST', headers: contractCase.request.headers, body: contractCase.request.body });
        if (outcome.outcome === 'timeout') timeouts++;
        exchange = { case: contractCase, request, ...outcome };
      }
      exchanges[index] = exchange;
      onExchange?.(exchange);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, cases.length) }, worker));
  } finally {
    transport.close();
  }
  return exchanges;
}

/** The request as the report shows it: exact, but with the provider's secrets masked. */
function sentRequest(contractCase: ContractCase, endpoint: URL, options: ResolvedOptions): SentRequest {
  const headers: Record<string, string> = { host: endpoint.host };
  for (const [name, value] of Object.entries(contractCase.request.headers)) {
    if (name === 'authorization') headers[name] = value.replaceAll(options.token, '<token>');
    else if (name in options.headers && options.headers[name] === value) headers[name] = '<value given with --header>';
    else headers[name] = value;
  }
  return { method: 'POST', url: endpoint.href, headers, body: contractCase.request.body };
}

function judgeAll(exchanges: readonly Exchange[], options: ResolvedOptions): { checks: CheckResult[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const checks = CHECKS.map((check): CheckResult => {
    const result: CheckResult = { name: check.name, proves: check.proves, judged: 0, judgedCases: [], passed: 0, failed: 0, warnings: 0, skipped: [], status: 'passed' };
    const rules = options.skip.filter((rule) => rule.check === check.name);
    const whole = rules.find((rule) => rule.cases === undefined);
    if (whole) {
      result.skipped.push({ reason: whole.reason, cases: [] });
      result.status = 'skipped';
      return result;
    }
    const skippedBy = new Map<string, string[]>();
    const skip = (reason: string, caseId: string): void => {
      skippedBy.set(reason, [...(skippedBy.get(reason) ?? []), caseId]);
    };
    for (const exchange of exchanges) {
      const rule = rules.find((r) => r.cases?.includes(exchange.case.id));
      if (rule) {
        skip(rule.reason, exchange.case.id);
        continue;
      }
      if (exchange.outcome === 'not-sent') {
        skip(exchange.reason, exchange.case.id);
        continue;
      }
      const problems = check.judge(exchange);
      if (problems === undefined) continue;
      result.judged++;
      result.judgedCases.push(exchange.case.id);
      const failures = problems.filter((p) => p.severity === 'failure').length;
      if (failures) result.failed++;
      else result.passed++;
      result.warnings += problems.length - failures;
      for (const problem of problems) findings.push({ check: check.name, ...problem, exchange });
    }
    result.skipped = [...skippedBy].map(([reason, cases]) => ({ reason, cases }));
    result.status = result.failed ? 'failed' : result.judged === 0 && result.skipped.length ? 'skipped' : 'passed';
    return result;
  });
  return { checks, findings };
}
