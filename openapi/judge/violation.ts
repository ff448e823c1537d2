/**
 * What the judge says about an exchange: each way the request or the answer departs from the
 * spec, in the catalogue's words. The proxy's header and journal, the Prism edge, the mock's
 * --self-check and the contract suite all read this one type. An `error` breaks the spec; a
 * `warning` is something the spec leaves unsaid (an undeclared 4xx) or that could not be checked.
 */
import type { ResponseCode, ResponseParams } from './words.js';

export type ViolationSeverity = 'error' | 'warning';

export interface Violation {
  /** Which message of the exchange departs from the spec. */
  in: 'request' | 'response';
  severity: ViolationSeverity;
  /** The catalogue code (mocks/errors.ts, docs/errors.md). */
  code: string;
  message: string;
  /** Each offending field, in words, where the message is about a body or parameters. */
  problems?: readonly string[];
}

/**
 * `first`: stop at the first problem (the mock answers it); `all`: judge every part the exchange
 * has and collect each problem (the proxy, the suite, the Prism edge and --self-check report them all).
 */
export type JudgePolicy = 'first' | 'all';

/**
 * A verdict on an answer with the facts it was worded from, so that a tool with words of its own
 * (the contract suite's checks) says the same thing differently, never something else.
 */
export type ResponseViolation = { [C in ResponseCode]: Violation & { in: 'response'; code: C; facts: ResponseParams<C> } }[ResponseCode];

/** The violation alone, as the journal and the header keep it (no facts). */
export function plainViolation({ in: where, severity, code, message, problems }: Violation): Violation {
  return { in: where, severity, code, message, ...(problems ? { problems } : {}) };
}
