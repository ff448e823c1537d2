/**
 * The one judge of an exchange against the spec: `judge(operation, { request?, response? }, policy)`.
 * The answer is judged here (./response.ts). The request is judged by the request's own compiled
 * judge, handed in as a `RequestUnderJudgement`: the mock's request path (mocks/engine/request-path.ts)
 * routes, checks credentials, reads and parses the body with the catalogue's refusals, and it is
 * the mock's hot path, so it runs its compiled checks itself rather than through an object made per
 * request; the proxy hands the same checks in here with the policy that collects every problem.
 */
import type { ContractOperation } from '../operations/model.js';
import { judgeResponse, type ReceivedResponse } from './response.js';
import type { JudgePolicy, Violation } from './violation.js';

/** A request bound to the compiled judge that knows how to read it (the media type, the body and its schema, the parameters, the credentials). */
export interface RequestUnderJudgement {
  judge(policy: JudgePolicy): readonly Violation[] | Promise<readonly Violation[]>;
}

export interface JudgedExchange {
  request?: RequestUnderJudgement;
  response?: ReceivedResponse;
}

/**
 * Every way the exchange departs from the spec: the request's problems first, then the answer's.
 * With `first`, the first problem alone (an answer is not judged once the request has one). A
 * promise only when the request's judge needs to wait (a body still arriving).
 */
export function judge(operation: ContractOperation | undefined, exchange: JudgedExchange, policy: JudgePolicy): Violation[] | Promise<Violation[]> {
  // A request no operation takes (a route the spec lacks) is judged as such; its answer has nothing to be judged by.
  const answer = (): Violation[] => (operation && exchange.response ? judgeResponse(operation, exchange.response, policy) : []);
  const request = exchange.request?.judge(policy);
  if (request === undefined) return answer();
  const joined = (found: readonly Violation[]): Violation[] => (policy === 'first' && found.length ? found.slice(0, 1) : [...found, ...answer()]);
  return request instanceof Promise ? request.then(joined) : joined(request);
}
