/**
 * One run of the contract suite: the file cases (bundled fixtures and --cases files, each fitted
 * to the spec) and the generated cases, with fresh ids; the duplicate probe first, one request
 * at a time, then every other case once (bounded concurrency, bounded time); every selected
 * check judges every exchange, and the report counts what each found.
 */
import fc from 'fast-check';
import { CREATE_PLANT_OPERATION, createIdSource, loadFixtures, type FixtureCase } from '../fixtures/index.js';
import { fileCase } from './case-files.js';
import { validCredentials } from './generators/auth.js';
import { requestTarget, takesLiteral, validParameterValues } from './generators/parameters.js';
import { judgedReads, planMissingParents, type MissingParent } from './missing-parents.js';
import {
  createdKey,
  envelopePlanOf,
  keyHolder,
  neverMade,
  planSequences,
  createdRecordIn,
  runSequences,
  scopeValues,
  freshTargetKey,
  targetParameter,
  validRecordBody,
  wrapRecord,
  type SequencePlan,
  type StepRequest,
  type StepSender,
} from './sequences.js';
import { callActions, runActionSequences } from './actions.js';
import { listedFilters, runListedFilters, type ListedFilters } from './listed-filters.js';
import { parentNeeds, producedValues, queryValue, resourceQueries, type NamedRecord, type ParentNeed, type ProducedValue, type ResourceQuery } from './dependencies.js';
import { parentCoverage, pathValues, type PinAttempt, type ProducedAttempt } from './parent-coverage.js';
import { dependencyGraph } from '../openapi/operations/dependencies.js';
import { recogniseCollections, type Collection } from '../openapi/operations/collections.js';
import { listedItems } from '../openapi/operations/list-filters.js';
import { freshIdentity, freshKeyMaker } from './generators/identity.js';
import { STRING_DOMAIN } from './generators/strings.js';
import { exactInteger } from '../openapi/schema/exact-json.js';
import { CHECKS } from './checks/index.js';
import { EXCLUDED_VALID, generateCases, VariantTurns, type GeneratedCase, type PinnedRecord } from './generated.js';
import {
  exchangesByOperation,
  requestPathOf,
  type CheckResult,
  type ContractCase,
  type ContractReport,
  type Exchange,
  type Finding,
  type OperationResult,
  type RunContext,
  type SentRequest,
} from './model.js';
import { ContractUsageError, overlaysOf, resolveOptions, ruleTakes, type ContractOptions, type ResolvedOptions } from './options.js';
import { readContract } from '../openapi/operations/compile.js';
import { assertReachable } from './reachability.js';
import { isSpecRefusal, keySchemaOf, parseBody, parsedBodyOf, suiteContractOf, suiteSpecOf, typesOf, type SuiteContract, type SuiteParameter } from './spec-contract.js';
import { createTransport, unsendable, type Transport } from './transport.js';
import { dotSegmentOf, traversalReason } from './dot-segments.js';

/** Runs the suite against `options.baseUrl`. Rejects with ContractUsageError or UnreachableTargetError. */
export async function runContractSuite(options: ContractOptions): Promise<ContractReport> {
  // A spec file is read asynchronously: it may refer to sibling files (bundled by openapi/document/load.ts).
  let given = options;
  const overlays = overlaysOf(options);
  if ((options.spec !== undefined || overlays.length) && options.contract === undefined) {
    try {
      // The overlays go through the core's loader, as the mock's --overlay does: one model of the spec for both.
      given = { ...options, contract: suiteSpecOf(await readContract(options.spec, overlays)) };
    } catch (error) {
      if (isSpecRefusal(error)) throw new ContractUsageError(error.message);
      throw error;
    }
  }
  return runResolved(resolveOptions(given), options);
}

/**
 * Runs the suite with options already resolved (the CLI resolves them once, to print the seed
 * before anything is sent). Throws UnreachableTargetError.
 */
export async function runResolved(resolved: ResolvedOptions, options: Pick<ContractOptions, 'fixtures' | 'onExchange'> = {}): Promise<ContractReport> {
  const startedAt = new Date();
  const started = performance.now();
  const { contract } = resolved;
  await assertReachable(resolved.endpoint(contract.path.replace(/\{[^}]*\}/g, 'x')), Math.min(resolved.timeoutMs, 10_000));

  const sequences = resolved.compiled ? planSequences(resolved.compiled, resolved.operations) : [];
  // Values naming records that lists answer (a booking's `trip_id`), for the records created next to carry.
  const listed = await resourceValues(resolved, []);
  // A record for the PUT and PATCH cases to act on, so that their bodies are judged on a record that exists.
  const { pins, attempts } = await pinRecords(resolved, sequences, listed.bodies, listed.parameters);
  const records = new Map(pins.flatMap((pin) => pin.records));
  // Query parameters and body properties naming other resources (`?origin=` a station): values from the records just created or a list's answer.
  const known = await resourceValues(resolved, pins, listed);
  // Path values only an action's answer gives (an instance a trigger started): the action called once, its answer named.
  const actions = resolved.compiled ? producedValues(dependencyGraph(resolved.compiled), resolved.operations) : [];
  const produced = actions.length
    ? await callQuietly(resolved, (send) => callActions(actions, { operations: resolved.operations, send, seed: resolved.seed, given: listed.parameters, bodies: listed.bodies, records }))
    : { parameters: new Map(), attempts: [] };
  for (const [operationId, values] of produced.parameters) known.parameters.set(operationId, new Map([...(known.parameters.get(operationId) ?? []), ...values]));
  const { cases, unfit, notOffered, offered, variants } = buildCases(resolved, options.fixtures ?? loadFixtures(), records, known.parameters, known.bodies);
  const notSent: Exchange[] = unfit.map(({ case: contractCase, reason }) => ({
    case: contractCase,
    request: sentRequest(contractCase, resolved),
    startedAt: startedAt.toISOString(),
    elapsedMs: 0,
    outcome: 'not-sent',
    reason,
  }));
  // An action on what the run made (the cancel of an instance a trigger started) changes it once: the requests it must refuse for their
  // credential go first, one at a time, so a provider that ignores the credential acts then, and is seen to; after a valid one they would meet the changed state.
  // (A PUT or PATCH on a pinned record may be repeated: its cases keep their place.)
  const methodOf = (id: string): string => resolved.operations.find((o) => o.operationId === id)?.method ?? 'GET';
  const onMade = new Set([
    ...[...produced.parameters.keys()].filter((id) => !['GET', 'HEAD'].includes(methodOf(id))),
    ...[...records.keys()].filter((id) => !['GET', 'HEAD', 'PUT', 'PATCH'].includes(methodOf(id))),
  ]);
  for (const c of cases) if (onMade.has(c.operationId) && c.expect === 'unauthenticated') c.phase = 'probe';
  const probes = cases.filter((c) => c.phase === 'probe');
  const probed = await sendAll(probes, resolved, options.onExchange, 1);
  const rest = await sendAll(
    cases.filter((c) => c.phase !== 'probe'),
    resolved,
    options.onExchange,
    resolved.concurrency,
    probed.timeouts,
  );
  await removePinned(pins, resolved);
  // What the cases created is deleted first, so the sequences' lists hold what was there before the run, and theirs.
  const cleanedUp = await cleanUp([...probed.exchanges, ...rest.exchanges], resolved, sequences);
  const missingParents = resolved.compiled ? planMissingParents(resolved.compiled, resolved.operations, judgedReads(sequences)) : [];
  const lists = resolved.compiled ? listedFilters(resolved.compiled, resolved.operations) : [];
  const stateful =
    sequences.length || missingParents.length || lists.length || actions.some((a) => a.read)
      ? await sendSequences(sequences, resolved, options.onExchange, rest.timeouts, known, missingParents, actions, lists)
      : [];
  const exchanges = [...probed.exchanges, ...rest.exchanges, ...stateful, ...notSent];
  // What the run learnt, per operation: how it answers a repeated id, and bodies the spec rejects.
  const runs = new Map<string, RunContext>();
  const byOperation = exchangesByOperation(exchanges);
  for (const operation of resolved.operations) {
    const own = byOperation.get(operation.operationId) ?? [];
    const repeat = own.find((x) => x.case.expect === 'duplicate');
    const rejectionStatuses = new Set(own.flatMap((x) => (x.case.expect === 'rejected-body' && x.outcome === 'response' ? [x.response.status] : [])));
    const succeededOn = new Set(own.flatMap((x) => (x.outcome === 'response' && x.response.status >= 200 && x.response.status < 300 ? [requestPathOf(x)] : [])));
    runs.set(operation.operationId, {
      contract: operation,
      rejectionStatuses,
      succeededOn,
      judged: new WeakMap(),
      ...(repeat?.outcome === 'response' ? { duplicateStatus: repeat.response.status } : {}),
    });
  }
  const run = runs.get(contract.operationId) as RunContext;
  const judged = judgeAll(exchanges, resolved, runs);
  // The checks judge what the provider really answered; the report shows it with secrets masked.
  const shown = new Map(exchanges.map((exchange) => [exchange, masked(exchange, resolved)]));
  const findings = judged.findings.map((finding) => ({ ...finding, message: resolved.secretMask.mask(finding.message), exchange: shown.get(finding.exchange) as Exchange }));
  const { checks } = judged;
  const headline = refusedEverything(exchanges);
  return {
    baseUrl: resolved.baseUrl,
    spec: { source: contract.source, operationId: contract.operationId, method: contract.method, path: contract.path },
    operations: operationResults(resolved, exchanges, judged.findings),
    leftOut: [...resolved.leftOut],
    ...(notOffered ? { fixturesNotOffered: notOffered } : {}),
    ...(offered ? { fixturesOffered: offered } : {}),
    ...(headline ? { headline } : {}),
    ...(cleanedUp ? { cleanedUp } : {}),
    ...(resolved.compiled ? { dependencies: dependencyCounts(resolved, exchanges, attempts, produced.attempts) } : {}),
    seed: resolved.seed,
    ...(resolved.generated.strings !== undefined && resolved.generated.strings < STRING_DOMAIN.length ? { stringSamples: { sent: resolved.generated.strings, of: STRING_DOMAIN.length } } : {}),
    ...(variants && resolved.generated.variants !== undefined ? { variantSamples: { perOperation: resolved.generated.variants, ...variants } } : {}),
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    cases: exchanges.length,
    checks,
    findings,
    exchanges: [...shown.values()],
    ...(run.duplicateStatus === undefined ? {} : { duplicateStatus: run.duplicateStatus }),
    ok: checks.every((check) => check.status !== 'failed' && check.status !== 'not-judged'),
  };
}

/** Sends the stateful sequences one step at a time; each step an exchange the checks judge. */
async function sendSequences(
  plans: readonly SequencePlan[],
  options: ResolvedOptions,
  onExchange: ((exchange: Exchange) => void) | undefined,
  earlierTimeouts: number,
  known: Pick<KnownValues, 'parameters' | 'bodies'> & Partial<Pick<KnownValues, 'elsewhere'>> = { parameters: new Map(), bodies: new Map() },
  missingParents: readonly MissingParent[] = [],
  actions: readonly ProducedValue[] = [],
  lists: readonly ListedFilters[] = [],
): Promise<Exchange[]> {
  const transport = createTransport({ timeoutMs: options.timeoutMs, concurrency: 1 });
  const exchanges: Exchange[] = [];
  let timeouts = earlierTimeouts;
  const counters = new Map<string, number>();
  const send: StepSender = async (step) => {
    const n = (counters.get(step.step.collection) ?? 0) + 1;
    counters.set(step.step.collection, n);
    const contractCase = stepCase(step, options, n);
    const request = sentRequest(contractCase, options);
    const startedAt = new Date().toISOString();
    let exchange: Exchange;
    const refused = step.notSent ?? unsendable(contractCase.request) ?? traversalReason(contractCase.operationId, contractCase.request.method, contractCase.request.path);
    if (timeouts >= options.maxTimeouts) {
      exchange = { case: contractCase, request, startedAt, elapsedMs: 0, outcome: 'not-sent', reason: `not sent: the provider had already timed out ${timeouts} times, so the suite stopped sending` };
    } else if (refused !== undefined) {
      exchange = { case: contractCase, request, startedAt, elapsedMs: 0, outcome: 'not-sent', reason: refused };
    } else {
      const outcome = await transport.send({
        url: options.endpoint(contractCase.request.path),
        method: contractCase.request.method,
        headers: contractCase.request.headers,
        body: contractCase.request.body,
      });
      if (outcome.outcome === 'timeout') timeouts++;
      exchange = { case: contractCase, request, startedAt, ...outcome };
    }
    exchanges.push(exchange);
    onExchange?.(exchange);
    if (exchange.outcome !== 'response') return {};
    const parsed = parseBody(exchange.response.body);
    return { status: exchange.response.status, headers: exchange.response.headers, ...(parsed.ok ? { body: parsed.value } : {}) };
  };
  const fetchPage = async (operation: SuiteContract, url: string): Promise<{ status?: number; body?: unknown; headers?: Record<string, string> }> => {
    let target: URL;
    try {
      target = new URL(url, options.endpoint(operation.path));
    } catch {
      return {};
    }
    // Only pages of the provider under test: a next link elsewhere is not followed (nor sent the credential).
    if (target.origin !== new URL(options.baseUrl).origin) return {};
    const credentials = validCredentials(operation.security, options.token, options.basic);
    const outcome = await transport.send({ url: target, method: 'GET', headers: { ...options.headers, ...credentials.headers }, body: undefined });
    if (outcome.outcome !== 'response') return {};
    const parsed = parseBody(outcome.response.body);
    return { status: outcome.response.status, headers: outcome.response.headers, ...(parsed.ok ? { body: parsed.value } : {}) };
  };
  try {
    const ids = createIdSource();
    // First, so that what the sequences create is still deleted last.
    await sendMissingParents(missingParents, { send, ids, seed: options.seed, given: known.parameters });
    await runSequences(plans, { ids, seed: options.seed, send, fetchPage, bodies: known.bodies, parameters: known.parameters, ...(known.elsewhere ? { elsewhere: known.elsewhere } : {}) });
    await runActionSequences(actions, { operations: options.operations, send, seed: options.seed, given: known.parameters, bodies: known.bodies });
    await runListedFilters(lists, { send, seed: options.seed, given: known.parameters });
  } finally {
    transport.close();
  }
  return exchanges;
}

/**
 * Each read below a record a client makes, with that record never made (missing-parents.ts): the
 * other path values those earlier answers gave, else valid ones drawn; the missing one a fresh UUID
 * where the parameter takes one, else a value no provider assigns (sequences.ts, neverMade).
 */
async function sendMissingParents(
  missingParents: readonly MissingParent[],
  context: { send: StepSender; ids: ReturnType<typeof createIdSource>; seed: number; given: ReadonlyMap<string, ReadonlyMap<string, string>> },
): Promise<void> {
  let draws = 0;
  const sample = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: (context.seed + 3_571 * ++draws) | 0, numRuns: 1 })[0] as T;
  for (const { operation, parameter, collection } of missingParents) {
    const given = context.given.get(operation.operationId) ?? new Map<string, string>();
    const path = new Map<string, string>();
    for (const [each, literal] of validParameterValues(operation, sample, false)) if (each.in === 'path' && literal !== undefined) path.set(each.name, given.get(each.name) ?? literal);
    const missing = neverMade(
      operation.parameters.find((p) => p.in === 'path' && p.name === parameter),
      context.ids,
    );
    if (missing === undefined) continue;
    await context.send({
      operation,
      step: { kind: 'read-missing', collection, identity: parameter, id: missing },
      description: `${operation.operationId} below a record never made ({${parameter}} ${missing}): the spec declares 404 for it`,
      expect: 'provider-choice',
      parameters: new Map([...path, [parameter, missing]]),
    });
  }
}

/**
 * The scope values (JSON text by parameter) a create of a scoped collection was sent under, read from
 * its path: what it made is deleted there, as no other scope holds it. Empty when the path does not match.
 */
function scopeSent(plan: SequencePlan, sentPath: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, text] of pathValues(plan.create.path, sentPath) ?? []) {
    if (!plan.scope?.includes(name)) continue;
    const parameter = plan.create.parameters.find((p) => p.in === 'path' && p.name === name);
    const numeric = parameter !== undefined && typesOf(parameter.schema).some((type) => type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text);
    values.set(name, numeric ? text : JSON.stringify(text));
  }
  return values;
}

/** The graph's size over the operations under test, and which of those below a parent record ran on one the suite created (parent-coverage.ts). */
function dependencyCounts(
  options: ResolvedOptions,
  exchanges: readonly Exchange[],
  attempts: readonly PinAttempt[],
  produced: readonly ProducedAttempt[],
): NonNullable<ContractReport['dependencies']> {
  const tested = new Set(options.operations.map((o) => o.operationId));
  const compiled = options.compiled as NonNullable<ResolvedOptions['compiled']>;
  const { collections } = recogniseCollections(compiled);
  const graph = dependencyGraph(compiled, collections).filter((entry) => tested.has(entry.operationId));
  return {
    values: graph.reduce((n, entry) => n + entry.consumes.length, 0),
    consumers: graph.filter((entry) => entry.consumes.length).length,
    ...parentCoverage(graph, collections, exchanges, attempts, produced),
  };
}

/** A sequence step as a case: its operation's credential, parameters written by their style, the body. */
function stepCase(step: StepRequest, options: ResolvedOptions, n: number): ContractCase {
  const { operation } = step;
  const values = new Map<SuiteParameter, string>();
  for (const [name, literal] of step.parameters ?? []) {
    const parameter = operation.parameters.find((p) => p.name === name);
    if (parameter) values.set(parameter, literal);
  }
  // A required header, query or cookie parameter the step does not name (an X-Region): a valid value, or a correct provider refuses the step.
  const sample = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: (options.seed + 7_919 * (n + 1)) | 0, numRuns: 1 })[0] as T;
  for (const [parameter, literal] of validParameterValues(operation, sample, false)) {
    if (parameter.in !== 'path' && !values.has(parameter) && literal !== undefined) values.set(parameter, literal);
  }
  const credentials = step.anonymous ? { headers: {} } : validCredentials(operation.security, options.token, options.basic);
  const target = requestTarget(operation, values, { ...(credentials.query ? { query: credentials.query } : {}), ...(credentials.cookies ? { cookies: credentials.cookies } : {}) });
  const headers: Record<string, string | string[]> = { ...options.headers, ...target.headers, ...credentials.headers };
  if (step.body !== undefined && operation.requestBody) headers['content-type'] = operation.requestBody.mediaType;
  return {
    id: `sequence:${step.step.collection.replace(/^\//, '')}-${n}-${step.step.kind}`,
    operationId: operation.operationId,
    source: 'generated',
    description: step.description,
    expect: step.expect,
    request: { method: operation.method, path: target.path, headers, body: step.body },
    sequence: step.step,
  };
}

/**
 * Deletes every record the generated cases created, where the spec has a delete for their
 * collection, so a long-lived provider does not fill up run after run. Not judged; the count is reported.
 */
async function cleanUp(exchanges: readonly Exchange[], options: ResolvedOptions, plans: readonly SequencePlan[]): Promise<{ deleted: number; of: number } | undefined> {
  const targets: Array<{ plan: SequencePlan; id: string; scope: ReadonlyMap<string, string> }> = [];
  for (const plan of plans) {
    if (!plan.remove) continue;
    for (const exchange of exchanges) {
      if (exchange.case.operationId !== plan.create.operationId || exchange.outcome !== 'response' || exchange.response.status < 200 || exchange.response.status > 299) continue;
      const { request } = exchange.case;
      const parsed = typeof request.body === 'string' ? parsedBodyOf(request as { body: string }) : undefined;
      const sent = parsed?.ok && parsed.value !== null && typeof parsed.value === 'object' ? (parsed.value as Record<string, unknown>) : undefined;
      const answer = parsedBodyOf(exchange.response);
      const record = answer.ok ? createdRecordIn(answer.value, plan) : undefined;
      const id =
        keyText(sent, plan.identity, plan.identityMember) ??
        keyText(record !== null && typeof record === 'object' ? (record as Record<string, unknown>) : undefined, plan.identity, plan.identityMember) ??
        createdKey({ headers: exchange.response.headers }, plan);
      const scope = plan.scope ? scopeSent(plan, exchange.case.request.path) : new Map<string, string>();
      const same = (t: (typeof targets)[number]): boolean => t.plan === plan && t.id === id && [...scope].every(([name, value]) => t.scope.get(name) === value);
      // Two cases may create one id (a provider that overwrites): it is deleted once.
      if (id !== undefined && !targets.some(same)) targets.push({ plan, id, scope });
    }
  }
  if (!targets.length) return undefined;
  const transport = createTransport({ timeoutMs: options.timeoutMs, concurrency: options.concurrency });
  let deleted = 0;
  let next = 0;
  let timeouts = 0;
  const worker = async (): Promise<void> => {
    while (next < targets.length && timeouts < options.maxTimeouts) {
      const { plan, id, scope } = targets[next++] as (typeof targets)[number];
      const operation = plan.remove as SuiteContract;
      const step: StepRequest = {
        operation,
        step: { kind: 'cleanup', collection: plan.collection, identity: plan.identity, ...(plan.identityMember === undefined ? {} : { identityMember: plan.identityMember }), id },
        description: 'clean-up',
        expect: 'provider-choice',
        parameters: new Map([...scope, [operation.parameters.find((p) => p.in === 'path' && !scope.has(p.name))?.name ?? 'id', id]]),
      };
      const contractCase = stepCase(step, options, 0);
      // An id a dot segment would delete the collection's parent path instead: never sent.
      if (dotSegmentOf(contractCase.request.path) !== undefined) continue;
      const outcome = await transport.send({ url: options.endpoint(contractCase.request.path), method: operation.method, headers: contractCase.request.headers, body: undefined });
      if (outcome.outcome === 'timeout') timeouts++;
      // 404: already gone (a delete case with a fixed id, such as an int64 end, removed it).
      if (outcome.outcome === 'response' && ((outcome.response.status >= 200 && outcome.response.status < 300) || outcome.response.status === 404)) deleted++;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, targets.length) }, worker));
  } finally {
    transport.close();
  }
  return { deleted, of: targets.length };
}

/** A record created before the cases, for the operations on records (PUT, PATCH) to act on; deleted after them. */
interface Pin {
  plan: Pick<SequencePlan, 'collection' | 'identity' | 'remove' | 'itemParameter'> & { parent?: Pick<ParentPlanOf, 'collection' | 'identity' | 'remove' | 'parameter'> };
  /** The create whose answer gave the record (a query parameter naming such records takes its identity). */
  producer?: string;
  id: string;
  /** A nested collection's parent record, created before the record and deleted after it. */
  parentId?: string;
  /** The path values it was made under: the records it belongs to (a record of a chain: its ancestors are pinned before it) and its scope values. */
  under?: ReadonlyMap<string, string>;
  records: Array<[operationId: string, record: PinnedRecord]>;
}

type ParentPlanOf = NonNullable<SequencePlan['parent']>;

/** What creating a record takes: its collection's create, identity and how the identity is given. */
type RecordPlan = Pick<SequencePlan, 'collection' | 'identity' | 'identityMember' | 'identityType' | 'assigned' | 'create' | 'envelope' | 'createdAs' | 'keyAnswered' | 'atTarget' | 'itemParameter'>;

/**
 * For each collection whose item path takes a PUT or PATCH with a body among the operations under
 * test, one record created with a valid body (not judged: the sequences judge creates), so those
 * operations' cases name a record that exists and their bodies are judged. A nested collection's
 * record gets a parent record created first (one level, as the sequences do), named in its path.
 */
async function pinRecords(
  options: ResolvedOptions,
  plans: readonly SequencePlan[],
  bodies: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(),
  /** Path parameters naming records only a list gives (a scope's `{server_id}`), per operation: what lists answered. */
  given: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(),
): Promise<{ pins: Pin[]; attempts: PinAttempt[] }> {
  const pins: Pin[] = [];
  const ids = createIdSource();
  let draws = 0;
  const sample = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: (options.seed + 6_151 * ++draws) | 0, numRuns: 1 })[0] as T;
  const transport = createTransport({ timeoutMs: options.timeoutMs, concurrency: 1 });
  const attempts: PinAttempt[] = [];
  /** Creates one record of `plan` (its path naming `parameters`); its identity as JSON text, or undefined when it could not (the reason kept for the report). */
  const create = async (plan: RecordPlan, description: string, parameters: ReadonlyMap<string, string> = new Map()): Promise<string | undefined> => {
    const made = await createOnce(plan, description, parameters);
    attempts.push({ collection: plan.collection, ...made });
    return made.id;
  };
  const createOnce = async (plan: RecordPlan, description: string, parameters: ReadonlyMap<string, string>): Promise<{ id?: string; failed?: string }> => {
    const { operationId } = plan.create;
    // An enveloped collection's record is written inside its member (sequences.ts).
    const body = plan.envelope?.create ?? plan.create.requestBody;
    // A create at its own path that takes no body (JupyterHub's POST /groups/{name}): the path alone names the record.
    if (!body && plan.atTarget) return sendCreate(plan, description, parameters, freshTargetKey(plan, ids), undefined);
    if (!body) return { failed: `${operationId} takes no request body the suite writes` };
    const property = body.properties.find((p) => p.name === plan.identity);
    const id = plan.assigned
      ? undefined
      : plan.atTarget && !property
        ? freshTargetKey(plan, ids)
        : property && plan.identityType === 'integer'
          ? freshIdentity(property, ids).toString()
          : property && plan.identityType === 'string'
            ? freshKeyMaker(keySchemaOf(property.schema, plan.identityMember) ?? {}, ids)?.()
            : undefined;
    if (!plan.assigned && id === undefined) return { failed: `no fresh ${plan.identity} could be drawn for ${operationId}` };
    const made = validRecordBody(body, plan.identity, id, 'pinned', sample, bodies.get(plan.create.operationId), plan.identityMember);
    if (!made) return { failed: `no valid body for ${operationId} could be made` };
    return sendCreate(plan, description, parameters, id, wrapRecord(made.text, plan.envelope?.member));
  };
  /** Sends one create of `plan` (`id`, JSON text, the identity it names, when the suite chose it); the record's identity, or why there is none. */
  const sendCreate = async (
    plan: RecordPlan,
    description: string,
    parameters: ReadonlyMap<string, string>,
    id: string | undefined,
    body: string | undefined,
  ): Promise<{ id?: string; failed?: string }> => {
    const { operationId } = plan.create;
    if (plan.atTarget && id === undefined) return { failed: `no fresh ${plan.identity} could be drawn for ${operationId}` };
    const step: StepRequest = {
      operation: plan.create,
      step: { kind: 'create', collection: plan.collection, identity: plan.identity, ...(plan.identityMember === undefined ? {} : { identityMember: plan.identityMember }) },
      description,
      expect: 'provider-choice',
      ...(body === undefined ? {} : { body }),
      parameters: new Map([...parameters, ...targetParameter(plan, id)]),
    };
    const contractCase = stepCase(step, options, 0);
    if (dotSegmentOf(contractCase.request.path) !== undefined) return { failed: `${operationId}'s path would name its parent's path (a dot segment)` };
    const outcome = await transport.send({ url: options.endpoint(contractCase.request.path), method: plan.create.method, headers: contractCase.request.headers, body: contractCase.request.body });
    if (outcome.outcome !== 'response') return { failed: `${operationId} ${outcome.outcome === 'timeout' ? 'timed out' : 'was not answered'}` };
    if (outcome.response.status < 200 || outcome.response.status > 299) return { failed: `${operationId} answered ${outcome.response.status} to a valid body` };
    // A create answering the key it made (collections.ts, keyAnswered) names the record, whatever identity was sent.
    if (id !== undefined && plan.keyAnswered === undefined) return { id };
    const answer = parseBody(outcome.response.body);
    const record = answer.ok ? createdRecordIn(answer.value, plan) : undefined;
    const answered = keyText(record !== null && typeof record === 'object' ? (record as Record<string, unknown>) : undefined, plan.identity, plan.identityMember);
    // An empty identity names no record in a path (sequences.ts createdKey): no record to pin.
    const key = answered === '""' ? undefined : (answered ?? createdKey({ headers: outcome.response.headers }, plan));
    return key === undefined ? { failed: `${operationId}'s answer named no ${plan.identity} (nor a Location)` } : { id: key };
  };
  try {
    for (const plan of plans) {
      const itemPath = (plan.read ?? plan.update ?? plan.remove)?.path;
      // An enveloped record is not pinned for the update cases: their generated bodies would not keep its identity inside the
      // envelope (generated.ts sets a pinned identity at the top level), so they would rename or miss it. Its sequence judges its update.
      if (!plan.create.requestBody || itemPath === undefined || plan.envelope) continue;
      // A create at the item path names a record of its own in each case, never the pinned one.
      const targets = options.operations.filter(
        (o) => o.requestBody && !o.requestBody.form && o.actsOnRecord && o.atTarget === undefined && (o.method === 'PUT' || o.method === 'PATCH') && o.path === itemPath,
      );
      if (!targets.length) continue;
      const { parent } = plan;
      // A scoped record is created, and named, under one value of each scope parameter (its parent too).
      const scope = plan.scope ? scopeValues(plan.create, plan.scope, options.seed, given.get(plan.create.operationId)) : new Map<string, string>();
      if (!scope) continue;
      const parentId = parent ? await create(parent, `creates a ${parent.noun} for the update cases' record to belong to`, scope) : undefined;
      if (parent && parentId === undefined) continue;
      const under = new Map([...scope, ...(parent && parentId !== undefined ? [[parent.parameter, parentId] as const] : [])]);
      const key = await create(plan, 'creates a record for the update cases', under);
      if (key === undefined) {
        if (parent && parentId !== undefined) await removeRecord(transport, options, parent, parentId, scope);
        continue;
      }
      const records = targets.flatMap((operation): Array<[string, PinnedRecord]> => {
        const parameter = operation.parameters.find((p) => p.in === 'path' && (plan.itemParameter === undefined || p.name === plan.itemParameter));
        const owner = parent && parentId !== undefined ? operation.parameters.find((p) => p.in === 'path' && p.name === parent.parameter) : undefined;
        if (!parameter || (parent && !owner)) return [];
        return [
          [
            operation.operationId,
            {
              parameter: parameter.name,
              identity: plan.identity,
              id: key,
              ...(owner && parentId !== undefined ? { parents: [{ parameter: owner.name, id: parentId }] } : {}),
              ...(scope.size ? { scope } : {}),
            },
          ],
        ];
      });
      pins.push({ plan, id: key, ...(parentId === undefined ? {} : { parentId }), under, records });
    }
    // A parent record for every operation below one (`POST /bookings/{bookingId}/payment`), and one of every
    // collection a query parameter names: so that no case is sent to a parent the suite never created.
    for (const need of recordNeeds(options)) {
      // The records a chain names above a nested one first (a site, then its split test), each under the ones before it.
      const chain = [...need.before, { collection: need.collection, parameter: need.children[0]?.parameter ?? need.collection.itemParameter ?? '' }];
      const plans = chain.map(({ collection }) => recordPlanOf(collection, options));
      const unwritable = chain.findIndex((_, at) => !plans[at]);
      if (unwritable >= 0) {
        const { create: maker, noun } = (chain[unwritable] as NamedRecord).collection;
        const why = `${maker.operationId} takes no request body the suite writes`;
        attempts.push({ collection: need.collection.path, failed: unwritable === chain.length - 1 ? why : `the ${noun} it needs first cannot be created: ${why}` });
        continue;
      }
      // A scoped chain is made, and named, under one value of each scope parameter (a nested collection keeps its parents' scopes).
      const deepestPlan = plans.at(-1) as NonNullable<(typeof plans)[number]>;
      const scope = need.collection.scope ? scopeValues(deepestPlan.create, need.collection.scope, options.seed, given.get(deepestPlan.create.operationId)) : new Map<string, string>();
      if (!scope) continue;
      const made: Array<{ plan: NonNullable<(typeof plans)[number]>; parameter: string; id: string; under: Map<string, string> }> = [];
      const values = new Map<string, string>();
      for (const [at, plan] of plans.entries()) {
        const { collection, parameter } = chain[at] as NamedRecord;
        if (!plan) break;
        // Its create's path names the records it belongs to, made before it in this chain.
        const under = new Map<string, string>(scope);
        for (let each = collection; each.parent; each = each.parent.collection) {
          const id = values.get(each.parent.parameter);
          if (id !== undefined) under.set(each.parent.parameter, id);
        }
        const next = chain[at + 1]?.collection;
        const id = await create(plan, next ? `creates a ${plan.noun} for a ${next.noun} to be made after` : `creates a ${plan.noun} for the operations that name one`, under);
        if (id === undefined) break;
        made.push({ plan, parameter, id, under });
        values.set(parameter, id);
      }
      if (made.length < chain.length) {
        // Last in, first out: a record is deleted before the one it belongs to.
        for (const record of made.reverse()) await removeRecord(transport, options, record.plan, record.id, record.under);
        continue;
      }
      const deepest = made.at(-1) as (typeof made)[number];
      const parents = made.slice(0, -1).map(({ parameter, id }) => ({ parameter, id }));
      const records = need.children.map(({ operationId, parameter }): [string, PinnedRecord] => [
        operationId,
        { parameter, identity: deepest.plan.identity, id: deepest.id, owner: true, ...(parents.length ? { parents } : {}), ...(scope.size ? { scope } : {}) },
      ]);
      // Pinned in the order made, so that removePinned (last first) deletes each record before the ones it belongs to.
      for (const record of made) {
        pins.push({
          plan: record.plan,
          producer: record.plan.create.operationId,
          id: record.id,
          under: record.under,
          records: record === deepest ? records.filter(([operationId]) => !pins.some((pin) => pin.records.some(([taken]) => taken === operationId))) : [],
        });
      }
    }
  } finally {
    transport.close();
  }
  return { pins, attempts };
}

/** Runs `use` with a sender whose exchanges are not judged (what the suite sends to set up the cases), over its own transport. */
async function callQuietly<T>(options: ResolvedOptions, use: (send: StepSender) => Promise<T>): Promise<T> {
  const transport = createTransport({ timeoutMs: options.timeoutMs, concurrency: 1 });
  const send: StepSender = async (step) => {
    const { request } = stepCase(step, options, 0);
    if (dotSegmentOf(request.path) !== undefined) return {};
    const outcome = await transport.send({ url: options.endpoint(request.path), method: request.method, headers: request.headers, body: request.body });
    if (outcome.outcome !== 'response') return {};
    const parsed = parseBody(outcome.response.body);
    return { status: outcome.response.status, headers: outcome.response.headers, ...(parsed.ok ? { body: parsed.value } : {}) };
  };
  try {
    return await use(send);
  } finally {
    transport.close();
  }
}

/** The collections whose records the operations under test name: as a parent in their path, or in a query parameter. */
function recordNeeds(options: ResolvedOptions): ParentNeed[] {
  if (!options.compiled) return [];
  const graph = dependencyGraph(options.compiled);
  const { collections } = recogniseCollections(options.compiled);
  const needs = parentNeeds(graph, options.operations, collections);
  for (const query of resourceQueries(graph, options.operations, collections)) {
    const collection = collections.find((c) => c.path === query.collection);
    if (collection && !collection.parent && !needs.some((n) => n.collection === collection)) needs.push({ collection, before: [], children: [] });
  }
  return needs;
}

/** An operation as the suite sends it, under test or not (undefined when the suite cannot send it). */
function contractOf(options: ResolvedOptions, operationId: string): SuiteContract | undefined {
  const tested = options.operations.find((o) => o.operationId === operationId);
  if (tested || !options.compiled) return tested;
  try {
    return suiteContractOf(options.compiled, operationId);
  } catch {
    return undefined;
  }
}

/** How to create and delete a record of `collection`: its create and delete, under test or not (a client creates a parent whatever is tested). */
function recordPlanOf(collection: Collection, options: ResolvedOptions): (RecordPlan & Pick<SequencePlan, 'noun' | 'remove' | 'itemParameter'>) | undefined {
  const create = contractOf(options, collection.create.operationId);
  if (!create || (!create.requestBody && collection.atTarget === undefined) || !options.compiled) return undefined;
  const envelope = envelopePlanOf(options.compiled, collection, create);
  const { stateful } = recogniseCollections(options.compiled);
  const removeId = [...stateful].find(([, op]) => op.collection.path === collection.path && op.role === 'delete')?.[0];
  const remove = removeId === undefined ? undefined : contractOf(options, removeId);
  return {
    collection: collection.path,
    noun: collection.noun,
    identity: collection.identity.property,
    ...(collection.identity.member === undefined ? {} : { identityMember: collection.identity.member }),
    identityType: collection.identity.type,
    assigned: collection.identity.assigned !== undefined,
    create,
    ...(remove ? { remove } : {}),
    ...(collection.itemParameter === undefined ? {} : { itemParameter: collection.itemParameter }),
    ...(envelope ? { envelope } : {}),
    ...(collection.createdAs === undefined ? {} : { createdAs: collection.createdAs }),
    ...(collection.keyAnswered === undefined ? {} : { keyAnswered: collection.keyAnswered }),
    // Created at its own path (Jupyter Server's contents): the suite names the parent's key in that path.
    ...(collection.atTarget === undefined ? {} : { atTarget: true as const }),
  };
}

/** Values naming other resources' records, per operation (JSON text): its parameters' by name, its body's by property. */
export interface KnownValues {
  parameters: Map<string, Map<string, string>>;
  bodies: Map<string, Map<string, string>>;
  /** The first identity seen per producing operation (JSON text). */
  seen: Map<string, string>;
  /**
   * A second record a list answered, per operation and path parameter (JSON text by name): another parent
   * than the one `parameters` names (`{workflowId}`), for a list under it that must not show the records made under the first.
   */
  elsewhere: Map<string, Map<string, string>>;
  /** The second distinct identity of each producing list's answer (JSON text), for `elsewhere`. */
  others: Map<string, string>;
}

/**
 * The values of query parameters and body properties naming other resources, per operation (JSON
 * text by name): the identity of a record the run created of that collection, else the first record
 * of the producing list's answer (one GET, not judged; its own parameters naming records filled the
 * same way, so trips are listed between stations a list answered), else the parameter's example.
 */
async function resourceValues(options: ResolvedOptions, pins: readonly Pin[], earlier?: Pick<KnownValues, 'seen' | 'others'>): Promise<KnownValues> {
  const seen = new Map<string, string>(earlier?.seen);
  const second = new Map<string, string>(earlier?.others);
  const known: KnownValues = { parameters: new Map(), bodies: new Map(), seen, elsewhere: new Map(), others: second };
  if (!options.compiled) return known;
  const { compiled } = options;
  const queries = resourceQueries(dependencyGraph(compiled), options.operations, recogniseCollections(compiled).collections);
  if (!queries.length) return known;
  for (const pin of pins) if (pin.producer !== undefined && !seen.has(pin.producer)) seen.set(pin.producer, pin.id);
  const transport = createTransport({ timeoutMs: options.timeoutMs, concurrency: 1 });
  const asked = new Set<string>();
  const resolved = new Set<ResourceQuery>();
  try {
    // A list that itself takes values naming records (trips between two stations) is asked once those are known: a bounded number of rounds.
    for (let round = 0; round < 3 && resolved.size < queries.length; round++) {
      for (const query of queries) {
        if (resolved.has(query)) continue;
        const producer = compiled.operations.get(query.producer);
        const producerPath = producer ? producerTarget(producer, known.parameters.get(query.producer)) : undefined;
        if (!seen.has(query.producer) && !asked.has(query.producer) && producer?.method === 'get' && producerPath !== undefined) {
          asked.add(query.producer);
          const lister = contractOf(options, query.producer);
          const credentials = lister ? validCredentials(lister.security, options.token, options.basic) : { headers: {} };
          const outcome = await transport.send({ url: options.endpoint(producerPath), method: 'GET', headers: { ...options.headers, ...credentials.headers }, body: undefined });
          const answer = outcome.outcome === 'response' && outcome.response.status < 300 ? parseBody(outcome.response.body) : undefined;
          const items = answer?.ok ? (listedItems(answer.value, undefined, true) ?? listedItems(answer.value, wrapperOf(answer.value), true)) : undefined;
          const keys = (items ?? []).slice(0, 20).map((item) => (item !== null && typeof item === 'object' ? keyText(item as Record<string, unknown>, query.property) : undefined));
          const value = keys[0];
          if (value !== undefined) seen.set(query.producer, value);
          const other = value === undefined ? undefined : keys.find((key) => key !== undefined && key !== value);
          if (other !== undefined) second.set(query.producer, other);
        }
        const operation = options.operations.find((o) => o.operationId === query.operationId);
        const declared = query.in === 'body' ? undefined : compiled.operations.get(query.operationId)?.parameters.find((p) => p.in === query.in && p.name === query.parameter)?.example;
        const parameter = query.in === 'body' ? undefined : operation?.parameters.find((p) => p.in === query.in && p.name === query.parameter);
        const found = queryValue(query, seen, declared);
        // A value the parameter's own schema refuses names nothing it can take (PayPal's `fields`, all|none, read as naming a template by its
        // description): sent, it would make every valid request invalid. The generator's draw stays.
        const value = found !== undefined && parameter !== undefined && !takesLiteral(parameter, found) ? undefined : found;
        if (!operation || value === undefined) {
          // Nothing more can be learnt for it once its producer was asked (or cannot be).
          if (asked.has(query.producer) || producer?.method !== 'get') resolved.add(query);
          continue;
        }
        resolved.add(query);
        const into = query.in === 'body' ? known.bodies : known.parameters;
        into.set(query.operationId, new Map([...(into.get(query.operationId) ?? []), [query.parameter, value]]));
        const other = second.get(query.producer);
        if (query.in === 'path' && value === seen.get(query.producer) && other !== undefined && (parameter === undefined || takesLiteral(parameter, other)))
          known.elsewhere.set(query.operationId, new Map([...(known.elsewhere.get(query.operationId) ?? []), [query.parameter, other]]));
      }
    }
  } finally {
    transport.close();
  }
  return known;
}

/**
 * An operation's path and query with each required parameter written from `values` (names to JSON
 * text) or its example; undefined when a required path or query parameter has neither (or a header or
 * cookie is required).
 */
function producerTarget(
  operation: { path: string; parameters: ReadonlyArray<{ name: string; in: string; required?: boolean; example?: unknown }> },
  values: ReadonlyMap<string, string> = new Map(),
): string | undefined {
  let path = operation.path;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters) {
    if (!parameter.required) continue;
    const given = values.get(parameter.name);
    const text = given !== undefined ? plainText(given) : typeof parameter.example === 'string' || typeof parameter.example === 'number' ? String(parameter.example) : undefined;
    if (text === undefined) return undefined;
    if (parameter.in === 'path') path = path.replaceAll(`{${parameter.name}}`, encodeURIComponent(text));
    else if (parameter.in === 'query') query.append(parameter.name, text);
    else return undefined;
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** A JSON text value as a parameter's plain text (a string without its quotes). */
function plainText(json: string): string {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'string' ? value : json;
  } catch {
    return json;
  }
}

/** The one array member of a wrapped list answer (`{ data: [...] }`), if there is exactly one. */
function wrapperOf(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const arrays = Object.entries(body).filter(([, value]) => Array.isArray(value));
  return arrays.length === 1 ? arrays[0]?.[0] : undefined;
}

/** Deletes the pinned records where the spec has a delete, a nested record before its parent (not judged). */
async function removePinned(pins: readonly Pin[], options: ResolvedOptions): Promise<void> {
  const transport = createTransport({ timeoutMs: options.timeoutMs, concurrency: 1 });
  try {
    // The last created first: a record a later one belongs to outlives it.
    for (const { plan, id, parentId, under: path } of [...pins].reverse()) {
      const under = path ?? new Map(plan.parent && parentId !== undefined ? [[plan.parent.parameter, parentId]] : []);
      await removeRecord(transport, options, plan, id, under);
      // Its parent (update cases' pins) in the scope both were made in.
      const scope = new Map([...under].filter(([name]) => name !== plan.parent?.parameter && name !== plan.itemParameter));
      if (plan.parent && parentId !== undefined) await removeRecord(transport, options, plan.parent, parentId, scope);
    }
  } finally {
    transport.close();
  }
}

/** Sends the delete of record `id` of a collection (its item parameter naming it, `parameters` naming its parent), when the spec has one. */
async function removeRecord(
  transport: Transport,
  options: ResolvedOptions,
  plan: Pick<SequencePlan, 'collection' | 'identity' | 'identityMember' | 'remove' | 'itemParameter'>,
  id: string,
  parameters: ReadonlyMap<string, string> = new Map(),
): Promise<void> {
  const operation = plan.remove;
  if (!operation) return;
  const parameter = operation.parameters.find((p) => p.in === 'path' && !parameters.has(p.name) && (plan.itemParameter === undefined || p.name === plan.itemParameter));
  const step: StepRequest = {
    operation,
    step: { kind: 'cleanup', collection: plan.collection, identity: plan.identity, ...(plan.identityMember === undefined ? {} : { identityMember: plan.identityMember }), id },
    description: 'clean-up',
    expect: 'provider-choice',
    parameters: new Map([...parameters, ...(parameter ? [[parameter.name, id] as const] : [])]),
  };
  const contractCase = stepCase(step, options, 0);
  if (dotSegmentOf(contractCase.request.path) !== undefined) return;
  await transport.send({ url: options.endpoint(contractCase.request.path), method: operation.method, headers: contractCase.request.headers, body: undefined });
}

/** A record's identity as the text a path carries: a number's exact digits, a string as it is (JSON-quoted for the parameter writer). */
function keyText(record: Record<string, unknown> | undefined, identity: string, member?: string): string | undefined {
  // An object identity's key is its member the item path carries (sequences.ts keyHolder).
  const held = keyHolder(record, identity, member);
  const value = held?.holder[held.name];
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'number' || held === undefined) return undefined;
  const exact = exactInteger(held.holder, held.name);
  return exact !== undefined ? exact.toString() : Number.isInteger(value) ? String(value) : undefined;
}

/** When every valid request was refused with 401 or 403, the credential is wrong, not the provider: say so first. */
function refusedEverything(exchanges: readonly Exchange[]): string | undefined {
  const valid = exchanges.filter((x) => x.case.expect === 'accepted' && x.outcome === 'response');
  if (!valid.length || !valid.every((x) => x.outcome === 'response' && (x.response.status === 401 || x.response.status === 403))) return undefined;
  return `every valid request was refused — check --token (all ${valid.length} valid requests were answered 401 or 403: the provider did not accept the credential the suite was given, so the other checks judged refusals)`;
}

/** Per operation: cases sent, passed, failed, and not sent with the reason. */
function operationResults(options: ResolvedOptions, exchanges: readonly Exchange[], findings: readonly Finding[]): OperationResult[] {
  const failedCases = new Set(findings.filter((f) => f.severity === 'failure').map((f) => f.exchange.case.id));
  const byOperation = exchangesByOperation(exchanges);
  return options.operations.map((operation) => {
    const own = byOperation.get(operation.operationId) ?? [];
    const sent = own.filter((x) => x.outcome !== 'not-sent');
    const failed = sent.filter((x) => failedCases.has(x.case.id)).length;
    const reasons = new Map<string, number>();
    for (const x of own) if (x.outcome === 'not-sent') reasons.set(x.reason, (reasons.get(x.reason) ?? 0) + 1);
    return {
      operationId: operation.operationId,
      method: operation.method,
      path: operation.path,
      sent: sent.length,
      passed: sent.length - failed,
      failed,
      skipped: [...reasons].map(([reason, cases]) => ({ reason, cases })),
    };
  });
}

/** The run's cases: file cases that fit the spec, then the generated ones of every operation; and the file cases that do not fit and the generated cases excluded, with the reason. */
export function buildCases(
  options: ResolvedOptions,
  fixtures: readonly FixtureCase[],
  records: ReadonlyMap<string, PinnedRecord> = new Map(),
  known: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(),
  bodies: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(),
): { cases: ContractCase[]; unfit: Array<{ case: ContractCase; reason: string }>; notOffered: number; offered: number; variants?: { sent: number; of: number } } {
  const { operations } = options;
  const ids = createIdSource();
  const variants = options.generated.variants === undefined ? undefined : new VariantTurns(options.generated.variants);
  const context = { token: options.token, invalidToken: options.invalidToken, basic: options.basic, ids, headers: options.headers };
  const cases: ContractCase[] = [];
  const unfit: Array<{ case: ContractCase; reason: string }> = [];
  const files: Array<[FixtureCase, 'fixture' | 'cases']> = [
    ...fixtures.map((f) => [f, 'fixture'] as [FixtureCase, 'fixture']),
    ...options.extraCases.map((f) => [f, 'cases'] as [FixtureCase, 'cases']),
  ];
  let notOffered = 0;
  let offered = 0;
  for (const [fixture, source] of files) {
    const made = fileCase(fixture, source, operations, context);
    const target = operations.find((o) => o.operationId === made.case.operationId);
    // The bundled fixtures are the Plant Store's: offered to another spec's operation only where they fit it.
    const foreign = source === 'fixture' && (target?.method !== CREATE_PLANT_OPERATION.method || target.path !== CREATE_PLANT_OPERATION.path);
    // A Plant body fits another schema only where that schema declares every member it sends: one it merely
    // tolerates (no required member, open to any other) is not what the fixture was written to test.
    if (foreign && (made.unfit !== undefined || !declaresEveryMember(fixture, target))) {
      notOffered++;
      continue;
    }
    if (foreign) offered++;
    if (made.unfit !== undefined) unfit.push({ case: made.case, reason: made.unfit });
    else cases.push(made.case);
  }
  // With one operation the ids stay as the second generation wrote them; with several, each names its operation.
  const named = operations.length > 1;
  for (const contract of operations) {
    const generation = generateCases({
      contract,
      seed: options.seed,
      positive: options.generated.positive,
      negative: options.generated.negative,
      ...(options.generated.strings === undefined ? {} : { strings: options.generated.strings }),
      ...(variants ? { variants } : {}),
      ids,
      token: options.token,
      invalidToken: options.invalidToken,
      basic: options.basic,
      ...(records.has(contract.operationId) ? { record: records.get(contract.operationId) as PinnedRecord } : {}),
      ...(known.has(contract.operationId) ? { known: known.get(contract.operationId) as ReadonlyMap<string, string> } : {}),
      ...(bodies.has(contract.operationId) ? { knownBody: bodies.get(contract.operationId) as ReadonlyMap<string, string> } : {}),
    });
    for (const generated of generation.cases) cases.push(generatedCase(generated, options, contract, named));
    // A case the spec's validator contradicts is reported as not sent, with the reason; it never stops the run.
    for (const { case: generated, reason } of generation.excluded) unfit.push({ case: generatedCase(generated, options, contract, named), reason });
  }
  return { cases, unfit, notOffered, offered, ...(variants ? { variants: variants.coverage() } : {}) };
}

/** Whether the operation's request schema declares every member of the fixture's JSON body (a body-less fixture declares none). */
function declaresEveryMember(fixture: FixtureCase, target: SuiteContract | undefined): boolean {
  const { body } = fixture.request;
  if (!('json' in body) || body.json === null || typeof body.json !== 'object' || Array.isArray(body.json)) return true;
  const declared = new Set((target?.requestBody?.variants ?? []).flatMap((variant) => variant.properties.map((p) => p.name)));
  for (const p of target?.requestBody?.properties ?? []) declared.add(p.name);
  return Object.keys(body.json).every((name) => declared.has(name));
}

function generatedCase(generated: GeneratedCase, options: ResolvedOptions, contract: SuiteContract, named: boolean): ContractCase {
  const credentials = generated.credentials ?? validCredentials(contract.security, options.token, options.basic);
  const target = requestTarget(contract, generated.parameters ?? new Map(), {
    ...(credentials.query ? { query: credentials.query } : {}),
    ...(credentials.cookies ? { cookies: credentials.cookies } : {}),
  });
  const headers: Record<string, string | string[]> = { ...options.headers, ...target.headers, ...credentials.headers };
  for (const name of generated.omit ?? []) delete headers[name];
  const declaredType = contract.requestBody?.mediaType ?? contract.rawBody?.mediaType;
  if (generated.body !== undefined && declaredType !== undefined) headers['content-type'] = generated.contentType ?? declaredType;
  return {
    id: `generated:${named ? `${contract.operationId}/` : ''}${generated.family}-${generated.label}`,
    operationId: contract.operationId,
    source: 'generated',
    description: generated.description,
    expect: generated.expect,
    request: {
      method: contract.method,
      path: target.path,
      headers,
      body: generated.body,
      ...(generated.plant ? { plant: generated.plant } : {}),
    },
    ...(generated.choice ? { choice: generated.choice } : {}),
    ...(generated.fixedId ? { fixedId: true } : {}),
    ...(generated.phase ? { phase: generated.phase } : {}),
    ...(generated.bodyNotValid ? { bodyNotValid: true } : {}),
    ...(generated.onRecord ? { onRecord: true } : {}),
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
      const refused = unsendable(contractCase.request) ?? traversalReason(contractCase.operationId, contractCase.request.method, contractCase.request.path);
      if (timeouts >= options.maxTimeouts) {
        const reason = `not sent: the provider had already timed out ${timeouts} times (each after ${options.timeoutMs} ms), so the suite stopped sending`;
        exchange = { case: contractCase, request, startedAt, elapsedMs: 0, outcome: 'not-sent', reason };
      } else if (refused !== undefined) {
        exchange = { case: contractCase, request, startedAt, elapsedMs: 0, outcome: 'not-sent', reason: refused };
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

/** The exchange as reports show it: anything the provider echoed of a secret (headers, status text, body) masked. */
function masked(exchange: Exchange, options: ResolvedOptions): Exchange {
  if (exchange.outcome !== 'response') return exchange;
  const { response } = exchange;
  const { secretMask } = options;
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, secretMask.mask(value)]));
  return { ...exchange, response: { ...response, statusText: secretMask.mask(response.statusText), headers, body: secretMask.mask(response.body) } };
}

/** The request as the reports show it: exact, but with the provider's secrets masked. */
function sentRequest(contractCase: ContractCase, options: ResolvedOptions): SentRequest {
  const url = options.endpoint(contractCase.request.path);
  const headers: Record<string, string | string[]> = { host: url.host };
  const maskValue = (name: string, value: string): string => {
    if (name in options.headers && options.headers[name] === value) return '<value given with --header>';
    return options.secretMask.mask(value, 'credential');
  };
  for (const [name, value] of Object.entries(contractCase.request.headers)) {
    headers[name] = Array.isArray(value) ? value.map((v) => maskValue(name, v)) : maskValue(name, value as string);
  }
  const { body } = contractCase.request;
  return { method: contractCase.request.method, url: options.secretMask.mask(url.href, 'credential'), headers, body: typeof body === 'string' ? options.secretMask.mask(body) : body };
}

function judgeAll(exchanges: readonly Exchange[], options: ResolvedOptions, runs: ReadonlyMap<string, RunContext>): { checks: CheckResult[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const checks = CHECKS.map((check): CheckResult => {
    const result: CheckResult = { name: check.name, proves: check.proves, judged: 0, judgedCases: [], passed: 0, failed: 0, warnings: 0, infos: 0, skipped: [], status: 'passed' };
    const rules = options.skip.filter((rule) => rule.check === check.name);
    const whole = rules.find((rule) => rule.cases === undefined);
    if (whole) {
      result.skipped.push({ reason: whole.reason, cases: [] });
      if (whole.notApplicable) result.notApplicable = true;
      result.status = 'skipped';
      return result;
    }
    const skippedBy = new Map<string, string[]>();
    // Cases left out that this check could have judged: only they make a check that judged nothing "skipped".
    let skippedOfItsOwn = 0;
    const skip = (reason: string, contractCase: ContractCase): void => {
      skippedBy.set(reason, [...(skippedBy.get(reason) ?? []), contractCase.id]);
      if (check.considers?.(contractCase) ?? true) skippedOfItsOwn++;
    };
    for (const exchange of exchanges) {
      const rule = rules.find((r) => ruleTakes(r, exchange.case.id));
      if (rule) {
        skip(rule.reason, exchange.case);
        continue;
      }
      if (exchange.outcome === 'not-sent') {
        skip(exchange.reason, exchange.case);
        continue;
      }
      const problems = check.judge(exchange, runs.get(exchange.case.operationId) as RunContext);
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
    // Judged nothing: not judged (which fails the run) when no case it could judge was left out, or when cases were
    // left out for want of a valid body — the spec gave the check something to judge, and the suite could not make the request.
    const wantOfBody = result.skipped.some((s) => s.reason.startsWith(EXCLUDED_VALID));
    result.status = result.failed ? 'failed' : result.judged > 0 ? 'passed' : skippedOfItsOwn > 0 && !wantOfBody ? 'skipped' : 'not-judged';
    if (result.status === 'not-judged') result.awaited = options.awaited?.[check.name] ?? [];
    return result;
  });
  return { checks, findings };
}
