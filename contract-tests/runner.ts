/**
 * One run of the contract suite: the file cases (bundled fixtures and --cases files, each fitted
 * to the spec) and the generated cases, with fresh ids; the duplicate probe first, one request
 * at a time, then every other case once (bounded concurrency, bounded time); every selected
 * check judges every exchange, and the report counts what each found.
 */
import { createIdSource, loadFixtures, type FixtureCase } from '../fixtures/index.js';
import { fileCase } from './case-files.js';
import { derivedCredentials } from './generators/auth.js';
import { CHECKS } from './checks/index.js';
import { generateCases, type GeneratedCase } from './generated.js';
import type { CheckResult, ContractCase, ContractReport, Exchange, Finding, RunContext, SentRequest } from './model.js';
import { resolveOptions, type ContractOptions, type ResolvedOptions } from './options.js';
import { assertReachable } from './reachability.js';
import type { SuiteContract } from './spec-contract.js';
import { createTransport } from './transport.js';

/** Runs the suite against `options.baseUrl`. Throws ContractUsageError or UnreachableTargetError. */
export function runContractSuite(options: ContractOptions): Promise<ContractReport> {
  return runResolved(resolveOptions(options), options);
}

/**
 * Runs the suite with options already resolved (the CLI resolves them once, to print the seed
 * before anything is sent). Throws UnreachableTargetError.
 */
export async function runResolved(resolved: ResolvedOptions, options: Pick<ContractOptions, 'fixtures' | 'onExchange'> = {}): Promise<ContractReport> {
  const startedAt = new Date();
  const started = performance.now();
  const { contract } = resolved;
  await assertReachable(resolved.endpoint(contract.path), Math.min(resolved.timeoutMs, 10_000));

  const { cases, unfit } = buildCases(resolved, options.fixtures ?? loadFixtures());
  const notSent: Exchange[] = unfit.map(({ case: contractCase, reason }) => ({
    case: contractCase,
    request: sentRequest(contractCase, resolved),
    startedAt: startedAt.toISOString(),
    elapsedMs: 0,
    outcome: 'not-sent',
    reason,
  }));
  const probes = cases.filter((c) => c.phase === 'probe');
  const probed = await sendAll(probes, resolved, options.onExchange, 1);
  const rest = await sendAll(cases.filter((c) => c.phase !== 'probe'), resolved, options.onExchange, resolved.concurrency, probed.timeouts);
  const exchanges = [...probed.exchanges, ...rest.exchanges, ...notSent];
  const repeat = probed.exchanges.find((x) => x.case.expect === 'duplicate');
  const rejectionStatuses = new Set(exchanges.flatMap((x) => (x.case.expect === 'rejected-body' && x.outcome === 'response' ? [x.response.status] : [])));
  const run: RunContext = { contract, rejectionStatuses, ...(repeat?.outcome === 'response' ? { duplicateStatus: repeat.response.status } : {}) };
  const judged = judgeAll(exchanges, resolved, run);
  // The checks judge what the provider really answered; the report shows it with secrets masked.
  const shown = new Map(exchanges.map((exchange) => [exchange, masked(exchange, resolved)]));
  const findings = judged.findings.map((finding) => ({ ...finding, message: mask(finding.message, resolved), exchange: shown.get(finding.exchange) as Exchange }));
  const { checks } = judged;
  return {
    baseUrl: resolved.baseUrl,
    spec: { source: contract.source, operationId: contract.operationId, method: contract.method, path: contract.path },
    seed: resolved.seed,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    cases: exchanges.length,
    checks,
    findings,
    exchanges: [...shown.values()],
    ...(run.duplicateStatus === undefined ? {} : { duplicateStatus: run.duplicateStatus }),
    ok: checks.every((check) => check.status !== 'failed'),
  };
}

/** The run's cases: file cases that fit the spec, then the generated ones; and the file cases that do not fit and the generated cases excluded, with the reason. */
export function buildCases(options: ResolvedOptions, fixtures: readonly FixtureCase[]): { cases: ContractCase[]; unfit: Array<{ case: ContractCase; reason: string }> } {
  const { contract } = options;
  const ids = createIdSource();
  const context = { token: options.token, invalidToken: options.invalidToken, ids, headers: options.headers };
  const cases: ContractCase[] = [];
  const unfit: Array<{ case: ContractCase; reason: string }> = [];
  const files: Array<[FixtureCase, 'fixture' | 'cases']> = [...fixtures.map((f) => [f, 'fixture'] as [FixtureCase, 'fixture']), ...options.extraCases.map((f) => [f, 'cases'] as [FixtureCase, 'cases'])];
  for (const [fixture, source] of files) {
    const made = fileCase(fixture, source, contract, context);
    if (made.unfit !== undefined) unfit.push({ case: made.case, reason: made.unfit });
    else cases.push(made.case);
  }
  const generation = generateCases({
    contract,
    seed: options.seed,
    positive: options.generated.positive,
    negative: options.generated.negative,
    ids,
    token: options.token,
    invalidToken: options.invalidToken,
  });
  for (const generated of generation.cases) cases.push(generatedCase(generated, options, contract));
  // A case the spec's validator contradicts is reported as not sent, with the reason; it never stops the run.
  for (const { case: generated, reason } of generation.excluded) unfit.push({ case: generatedCase(generated, options, contract), reason });
  return { cases, unfit };
}

function generatedCase(generated: GeneratedCase, options: ResolvedOptions, contract: SuiteContract): ContractCase {
  const headers: Record<string, string | string[]> = { ...options.headers };
  if (generated.credentials) Object.assign(headers, generated.credentials);
  else if (contract.security.kind === 'bearer') headers.authorization = `Bearer ${options.token}`;
  else if (contract.security.kind === 'api-key') headers[contract.security.header] = options.token;
  for (const name of generated.omit ?? []) delete headers[name];
  headers['content-type'] = contract.requestBody.mediaType;
  return {
    id: `generated:${generated.family}-${generated.label}`,
    source: 'generated',
    description: generated.description,
    expect: generated.expect,
    request: {
      method: contract.method,
      path: contract.path,
      headers,
      body: generated.body,
      ...(generated.plant ? { plant: generated.plant } : {}),
    },
    ...(generated.choice ? { choice: generated.choice } : {}),
    ...(generated.fixedId ? { fixedId: true } : {}),
    ...(generated.phase ? { phase: generated.phase } : {}),
  };
}

async function sendAll(
  cases: readonly ContractCase[],
  options: ResolvedOptions,
  onExchange: ((exchange: Exchange) => void) | undefined,
  concurrency: number,
  earlierTimeouts = 0,
): Promise<{ exchanges: Exchange[]; timeouts: number }> {
  const transport = createTransport({ timeoutMs: options.timeoutMs, concurrency });
  const exchanges: Exchange[] = new Array(cases.length);
  let next = 0;
  let timeouts = earlierTimeouts;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const index = next++;
      const contractCase = cases[index] as ContractCase;
      const request = sentRequest(contractCase, options);
      const startedAt = new Date().toISOString();
      let exchange: Exchange;
      if (timeouts >= options.maxTimeouts) {
        const reason = `not sent: the provider had already timed out ${timeouts} times (each after ${options.timeoutMs} ms), so the suite stopped sending`;
        exchange = { case: contractCase, request, startedAt, elapsedMs: 0, outcome: 'not-sent', reason };
      } else {
        const url = options.endpoint(contractCase.request.path);
        const outcome = await transport.send({ url, method: contractCase.request.method, headers: contractCase.request.headers, body: contractCase.request.body });
        if (outcome.outcome === 'timeout') timeouts++;
        exchange = { case: contractCase, request, startedAt, ...outcome };
      }
      exchanges[index] = exchange;
      onExchange?.(exchange);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, cases.length) }, worker));
  } finally {
    transport.close();
  }
  return { exchanges, timeouts };
}

/** Secrets the run must never show: the token, every form of it the auth cases send, and the --header values, longest first. */
export function secrets(options: Pick<ResolvedOptions, 'token' | 'headers'>): Array<[string, string]> {
  const list: Array<[string, string]> = [];
  if (options.token) list.push([options.token, '<token>'], ...derivedCredentials(options.token));
  for (const value of Object.values(options.headers)) if (value.length >= 4) list.push([value, '<value given with --header>']);
  return list.sort((a, b) => b[0].length - a[0].length);
}

const TOKEN_CHAR = "A-Za-z0-9\\-._~+/=";

/**
 * `text` with every secret replaced by its stand-in. A secret of 8 characters or more is masked
 * wherever it appears; a shorter one only where it stands alone (not inside a longer word), so a
 * token such as `T` does not garble every capital T of a report.
 */
function mask(text: string, options: ResolvedOptions): string {
  let out = text;
  for (const [secret, stand] of secrets(options)) {
    if (secret.length >= 8) out = out.replaceAll(secret, stand);
    else out = out.replace(new RegExp(`(?<![${TOKEN_CHAR}])${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![${TOKEN_CHAR}])`, 'g'), stand);
  }
  return out;
}

/** The exchange as reports show it: anything the provider echoed of a secret (headers, status text, body) masked. */
function masked(exchange: Exchange, options: ResolvedOptions): Exchange {
  if (exchange.outcome !== 'response') return exchange;
  const { response } = exchange;
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, mask(value, options)]));
  return { ...exchange, response: { ...response, statusText: mask(response.statusText, options), headers, body: mask(response.body, options) } };
}

/** The request as the reports show it: exact, but with the provider's secrets masked. */
function sentRequest(contractCase: ContractCase, options: ResolvedOptions): SentRequest {
  const url = options.endpoint(contractCase.request.path);
  const headers: Record<string, string | string[]> = { host: url.host };
  const maskValue = (name: string, value: string): string => {
    if (name in options.headers && options.headers[name] === value) return '<value given with --header>';
    return mask(value, options);
  };
  for (const [name, value] of Object.entries(contractCase.request.headers)) {
    headers[name] = Array.isArray(value) ? value.map((v) => maskValue(name, v)) : maskValue(name, value as string);
  }
  const { body } = contractCase.request;
  return { method: contractCase.request.method, url: url.href, headers, body: typeof body === 'string' ? mask(body, options) : body };
}

function judgeAll(exchanges: readonly Exchange[], options: ResolvedOptions, run: RunContext): { checks: CheckResult[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const checks = CHECKS.map((check): CheckResult => {
    const result: CheckResult = { name: check.name, proves: check.proves, judged: 0, judgedCases: [], passed: 0, failed: 0, warnings: 0, infos: 0, skipped: [], status: 'passed' };
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
      const problems = check.judge(exchange, run);
      if (problems === undefined) continue;
      result.judged++;
      result.judgedCases.push(exchange.case.id);
      const failures = problems.filter((p) => p.severity === 'failure').length;
      if (failures) result.failed++;
      else result.passed++;
      result.warnings += problems.filter((p) => p.severity === 'warning').length;
      result.infos += problems.filter((p) => p.severity === 'info').length;
      for (const problem of problems) findings.push({ check: check.name, ...problem, exchange });
    }
    result.skipped = [...skippedBy].map(([reason, cases]) => ({ reason, cases }));
    result.status = result.failed ? 'failed' : result.judged > 0 ? 'passed' : result.skipped.length ? 'skipped' : 'not-judged';
    return result;
  });
  return { checks, findings };
}
