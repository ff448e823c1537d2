/**
 * The contract suite's vocabulary: cases, the exchanges they produce, and what the checks say
 * about them. Check names are Schemathesis's, which provider teams already know.
 */
import type { Expectation, RenderedRequest } from '../fixtures/index.js';

export const CHECK_NAMES = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'positive_data_acceptance',
  'response_echoes_request',
  'negative_data_rejection',
  'ignored_auth',
] as const;

export type CheckName = (typeof CHECK_NAMES)[number];

/** A failure fails the run; a warning is reported and never fails it. */
export type Severity = 'failure' | 'warning';

export interface ContractCase {
  /** Unique in a run: `fixture:<name>` or `generated:<positive|negative>-<n>`. */
  id: string;
  source: 'fixture' | 'generated';
  description: string;
  expect: Expectation;
  request: RenderedRequest;
}

/** The request exactly as it went on the wire. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface ReceivedResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** The body text (UTF-8), cut at the suite's read limit. */
  body: string;
  truncated: boolean;
}

interface ExchangeBase {
  case: ContractCase;
  request: SentRequest;
  elapsedMs: number;
}

export type Exchange =
  | (ExchangeBase & { outcome: 'response'; response: ReceivedResponse })
  /** No complete answer within the timeout. */
  | (ExchangeBase & { outcome: 'timeout'; timeoutMs: number })
  /** The connection failed or closed before a complete answer. */
  | (ExchangeBase & { outcome: 'dropped'; error: string })
  /** Never sent: the suite stopped sending (see the reason). */
  | (ExchangeBase & { outcome: 'not-sent'; reason: string });

export type AnsweredExchange = Extract<Exchange, { outcome: 'response' }>;

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
  judge(exchange: Exchange): Problem[] | undefined;
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
  skipped: Array<{ reason: string; cases: string[] }>;
  status: 'passed' | 'failed' | 'skipped';
}

export interface ContractReport {
  baseUrl: string;
  /** The fast-check seed of the generated cases; `--seed` reproduces them. */
  seed: number;
  startedAt: string;
  durationMs: number;
  cases: number;
  checks: CheckResult[];
  findings: Finding[];
  exchanges: Exchange[];
  /** True when no check has a failure. */
  ok: boolean;
}
