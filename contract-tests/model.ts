/**
 * The contract suite's vocabulary: cases, the exchanges they produce, and what the checks say
 * about them. Check names are Schemathesis's, which provider teams already know.
 */
import type { Expectation, RenderedRequest } from '../fixtures/index.js';
import type { SuiteContract } from './spec-contract.js';
import type { ResponseViolation } from '../openapi/judge/violation.js';

export const CHECK_NAMES = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'positive_data_acceptance',
  'response_echoes_request',
  'negative_data_rejection',
  'ignored_auth',
  'ensure_resource_availability',
  'resource_consistency',
  'list_honours_parameters',
  'use_after_free',
  'missing_resource_not_found',
  'list_pages_advance',
] as const;

export type CheckName = (typeof CHECK_NAMES)[number];

/**
 * A failure fails the run; a warning is reported and never fails it; info reports what the
 * provider chose where the RFCs or the spec leave it a choice.
 */
export type Severity = 'failure' | 'warning' | 'info';

/**
 * What the contract expects of a case: the fixture format's expectations, plus two the suite
 * uses for itself. provider-choice: the RFCs leave the answer open, so the case only reports
 * what the provider did (a 5xx or a hang still fails). duplicate: the same body sent a second
 * time, to learn how the provider answers a repeated id (the spec leaves it unsaid).
 */
export type CaseExpectation = Expectation | 'provider-choice' | 'duplicate';

/** A request as a case sends it: a rendered fixture, or a generated request (repeated headers, raw bytes). */
export interface CaseRequest extends Omit<RenderedRequest, 'headers' | 'body'> {
  /** Lower-case names (a case may give one in another case on purpose); an array sends the header once per value. */
  headers: Record<string, string | string[]>;
  body: string | Uint8Array | undefined;
}

export interface ContractCase {
  /** Unique in a run: `fixture:<name>`, `cases:<name>` or `generated:<family>-<n>-<label>`. */
  id: string;
  /** The operation the case sends a request to. */
  operationId: string;
  /** fixture: the bundled case files; cases: files given with --cases; generated: made from the spec and the seed. */
  source: 'fixture' | 'cases' | 'generated';
  description: string;
  expect: CaseExpectation;
  request: CaseRequest;
  /** For provider-choice: the check that reports the choice, the rule that leaves it open, and whether accepting is worth a warning. */
  choice?: { check: CheckName; rule: string; warnIfAccepted?: boolean };
  /** Where a case from a file came from (its file, and its origin when it is a recording). */
  origin?: string;
  /**
   * The identity is fixed by the case (an int64 end, -0), not drawn fresh: a provider that kept
   * it from an earlier run (or an earlier form of it in this run) may answer it as a repeat.
   */
  fixedId?: boolean;
  /** probe: sent one at a time before every other case (the duplicate probe). */
  phase?: 'probe';
  /**
   * A credential case whose body is the suite's best attempt, which the spec's validator rejects
   * (a schema the generators cannot satisfy): a success still proves the credential ignored, a
   * refusal other than 401 may be the body's.
   */
  bodyNotValid?: boolean;
  /**
   * The case acts on a record the run created for it (a PUT or PATCH naming it, its body naming it
   * or no record): the record exists, so a valid body refused is the provider's fault.
   */
  onRecord?: boolean;
  /** A step of a stateful sequence (sequences.ts): what the checks of state judge it against. */
  sequence?: SequenceStep;
}

/** One step of a stateful sequence, and what its answer must show. */
export interface SequenceStep {
  /** `list-page`: a further page of a list step, fetched by its offset or page parameter (judged as part of that list step). */
  kind: 'create' | 'read' | 'read-anonymous' | 'list' | 'list-page' | 'update' | 'delete-anonymous' | 'delete' | 'read-deleted' | 'read-missing' | 'delete-missing' | 'list-past-end' | 'cleanup';
  /** The collection path (`/plants`). */
  collection: string;
  /** The identity property's name. */
  identity: string;
  /** An object identity's member holding the key (`value` of `ehr_id: {value}`), when the key is not the property's own value. */
  identityMember?: string;
  /** The record's identity value as JSON text. */
  id?: string;
  /** The delete before this step was answered 202 Accepted: it may not have completed yet. */
  deletePending?: boolean;
  /** A list step's member of a wrapped answer holding the records (the spec's list schema names it). */
  wrapper?: string;
  /** A create's or read's answer holds the record inside this member (an enveloped collection's, `{"article": {...}}`). */
  envelope?: string;
  /** A create whose record its item path names (a read, update or delete): an identity no path segment can carry is a finding. */
  named?: boolean;
  /** A read that follows a delete of the record sent without a credential: the record must still be there. */
  afterAnonymousDelete?: boolean;
  /** What a read must show: the record as last created or updated. */
  record?: Record<string, unknown>;
  /** The record was last written by a PATCH: a nested object sent may read back merged into the stored one (RFC 7396). */
  merged?: boolean;
  /** Ids a list must hold, and ids it must not. */
  contains?: string[];
  lacks?: string[];
  /** A list under another value of a scope parameter than its records were created under (a second workflow a list answered): it must show none of `ids`. */
  apart?: { parameter: string; value: string; ids: string[] };
  /** A limit the list was asked for. */
  limit?: { parameter: string; value: number };
  /** A filter the list was asked for: only records whose property is one of the values (`absent`: the schema's default, what a record without it has). */
  filter?: { parameter: string; property: string; values: Array<string | boolean>; absent?: unknown };
  /** A walk of every page at one record a page: the union of its pages must hold each record once. */
  union?: boolean;
  /** Every record of the list's pages (paging followed), once the step has run. */
  seen?: unknown[];
  /** The list answered a full page and no way to the next one: what it lacks may be further on. */
  truncated?: boolean;
  /** The walk stopped at the suite's bound while the list still offered more: `seen` holds this many pages only. */
  cutAfter?: number;
  /** A next link led to a page already walked (the same URL, or the same records again) after this many pages. */
  repeatedPage?: { url: string; after: number };
  /** A `list-past-end` step: the offset or page number it asked for, past every record seen. */
  page?: { parameter: string; value: number };
  /** A list after an update, where the list is the only read: the record (its identity, JSON text) it must show as last written. */
  showing?: { id: string; record: Record<string, unknown>; merged?: boolean };
}

/** The request exactly as it went on the wire, secrets masked. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body: string | Uint8Array | undefined;
}

export interface ReceivedResponse {
  status: number;
  /** The reason phrase the provider sent. */
  statusText: string;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** The body text (UTF-8), cut at the suite's read limit. */
  body: string;
  truncated: boolean;
}

interface ExchangeBase {
  case: ContractCase;
  request: SentRequest;
  /** When the request started (ISO 8601). */
  startedAt: string;
  elapsedMs: number;
}

export type Exchange =
  | (ExchangeBase & { outcome: 'response'; response: ReceivedResponse })
  /** No complete answer within the timeout. */
  | (ExchangeBase & { outcome: 'timeout'; timeoutMs: number })
  /** The connection failed or closed before a complete answer. */
  | (ExchangeBase & { outcome: 'dropped'; error: string })
  /** Never sent: the suite stopped sending, or the case does not fit the spec (see the reason). */
  | (ExchangeBase & { outcome: 'not-sent'; reason: string });

/** The one judge's verdict on an exchange's answer (checks/judged-answer.ts). */
export interface JudgedAnswer {
  response: ReceivedResponse;
  violations: readonly ResponseViolation[];
  /** Whether the body was read and judged against a schema (a JSON media type the spec declares for the status). */
  bodyJudged: boolean;
  /** Whether the body would have been judged, but was cut at the suite's read limit (so it was not). */
  cut: boolean;
}

/** What every check may consult beyond the exchange: the spec, and what the run learnt. */
export interface RunContext {
  contract: SuiteContract;
  /** How the provider answered a repeated id in the duplicate probe, when it was sent. */
  duplicateStatus?: number;
  /** The statuses the provider gave bodies the spec rejects: a repeat answered with one of them cannot be told from a refusal. */
  rejectionStatuses?: ReadonlySet<number>;
  /** The one judge's verdict on each answer, found once for the checks that word it (checks/judged-answer.ts). */
  judged?: WeakMap<Exchange, JudgedAnswer>;
  /** The request paths this operation was answered a 2xx on in the run: a later valid request there meets the state the first changed. */
  succeededOn?: ReadonlySet<string>;
}

/** One thing a check has to say about one exchange. */
export interface Problem {
  severity: Severity;
  /** Why it fails, in words a provider team can act on. */
  message: string;
}

export interface Check {
  name: CheckName;
  /** What passing this check proves, in one sentence. */
  proves: string;
  /**
   * Judges one exchange: undefined when the check says nothing about it (not applicable),
   * otherwise its problems (none means passed).
   */
  judge(exchange: Exchange, run: RunContext): Problem[] | undefined;
  /**
   * Whether it could judge this case at all, known before the case is sent: a case left out (not sent,
   * or skipped) that it would never judge does not make the check "skipped" when it judged nothing.
   * Every case when omitted.
   */
  considers?(contractCase: ContractCase): boolean;
}

export interface Finding extends Problem {
  check: CheckName;
  exchange: Exchange;
}

/** Turns a check off for some cases (or all), always with the reason shown in the report. */
export interface SkipRule {
  check: CheckName;
  /** Case ids (`fixture:invalid-token`); every case when omitted. */
  cases?: readonly string[];
  reason: string;
  /** The spec gives the check nothing to judge (a stateful check without a collection): not counted among the checks run. */
  notApplicable?: boolean;
}

export interface CheckResult {
  name: CheckName;
  proves: string;
  /** Exchanges the check judged. */
  judged: number;
  /** The ids of the cases it judged, in case order. */
  judgedCases: string[];
  /** Judged exchanges with no failure. */
  passed: number;
  /** Exchanges with at least one failure. */
  failed: number;
  warnings: number;
  infos: number;
  skipped: Array<{ reason: string; cases: string[] }>;
  /** The spec gives the check nothing to judge: left out of the count of checks run. */
  notApplicable?: boolean;
  /** Not judged: the answers that would have given it something to judge (what the spec declares for it). */
  awaited?: readonly string[];
  /** not-judged: selected, applicable to the spec, yet no exchange gave the check anything to judge: the run fails, never counted as passed. */
  status: 'passed' | 'failed' | 'skipped' | 'not-judged';
}

/** What a run did for one operation. */
export interface OperationResult {
  operationId: string;
  method: string;
  path: string;
  /** Cases sent (answered, timed out or dropped). */
  sent: number;
  /** Sent cases no check failed. */
  passed: number;
  /** Sent cases a check failed. */
  failed: number;
  /** Cases not sent, by reason. */
  skipped: Array<{ reason: string; cases: number }>;
}

export interface ContractReport {
  baseUrl: string;
  /** The spec the run tested against, and its first operation under test. */
  spec: { source: string; operationId: string; method: string; path: string };
  /** Every operation under test, with its counts. */
  operations: OperationResult[];
  /** Operations of the spec not tested, with the reason (filtered out, or a scheme the suite cannot send). */
  leftOut: Array<{ operationId: string; method: string; path: string; reason: string }>;
  /** Bundled Plant Store fixture cases offered to another spec's operation, their bodies fitting its schema. */
  fixturesOffered?: number;
  /** Bundled Plant Store fixture cases not offered: they fit no operation of another spec (one line in the report, not one per case). */
  fixturesNotOffered?: number;
  /**
   * The dependency graph of the operations under test (values consumed, operations consuming one), and of
   * the operations below a parent record (`POST /bookings/{bookingId}/payment`), how many ran on one the suite created,
   * and why each other one did not (parent-coverage.ts). Below a record no operation creates (a server only listed),
   * one an answer of the run named counts, and `onAnsweredParent` says how many of them did.
   */
  dependencies?: {
    values: number;
    consumers: number;
    belowParent: number;
    onCreatedParent: number;
    onAnsweredParent?: number;
    notOnCreated: Array<{ operationId: string; reason: string }>;
  };
  /** Records the generated cases created and the run deleted again (where the spec has a delete). */
  cleanedUp?: { deleted: number; of: number };
  /** What a person must read first, when the run says something about itself (every valid request refused). */
  headline?: string;
  /** The fast-check seed of the generated cases; `--seed` reproduces them. */
  seed: number;
  /** With --string-samples below the whole domain: how many samples each string property was sent, of how many. */
  stringSamples?: { sent: number; of: number };
  /**
   * With --variant-samples: the variants of each fixed family each operation was sent, and of the
   * distinct variants offered (per family, by label), how many went to some operation.
   */
  variantSamples?: { perOperation: number; sent: number; of: number };
  startedAt: string;
  durationMs: number;
  cases: number;
  checks: CheckResult[];
  findings: Finding[];
  exchanges: Exchange[];
  /** How the provider answered a repeated id (the duplicate probe), if it was sent. */
  duplicateStatus?: number;
  /** True when no check has a failure. */
  ok: boolean;
}

/** The path a case was sent to, its query left out: the record (or the action on one) it names. */
export function requestPathOf(exchange: Exchange): string {
  const { path } = exchange.case.request;
  const query = path.indexOf('?');
  return query < 0 ? path : path.slice(0, query);
}

/** The exchanges of each operation, in the run's order (one pass: a run holds tens of thousands, over hundreds of operations). */
export function exchangesByOperation(exchanges: readonly Exchange[]): Map<string, Exchange[]> {
  const groups = new Map<string, Exchange[]>();
  for (const exchange of exchanges) {
    const group = groups.get(exchange.case.operationId);
    if (group) group.push(exchange);
    else groups.set(exchange.case.operationId, [exchange]);
  }
  return groups;
}
