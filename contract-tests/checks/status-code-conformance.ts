/**
 * status_code_conformance: a valid body is answered with a success status the spec declares exactly, and
 * every status is one the spec declares (the one judge decides: ./judged-answer.ts). An undeclared
 * error status is conventional (the spec leaves those unsaid), so it is a warning; an undeclared
 * success or redirect is a failure.
 */
import type { Check } from '../model.js';
import { declaredText, isExpectedSuccess } from '../spec-contract.js';
import { judgedAnswer, violationsOf } from './judged-answer.js';
import { failure, isSuccess, warning } from './verdicts.js';

const CONVENTIONAL: Record<number, string> = {
  401: 'missing or invalid credentials',
  403: 'credentials without permission',
  404: 'an unknown route',
  405: 'a method the route does not take',
  409: 'a duplicate id',
  413: 'a body that is too large',
  415: 'a media type other than JSON',
  422: 'a body the schema rejects',
  429: 'rate limiting',
};

export const statusCodeConformance: Check = {
  name: 'status_code_conformance',
  proves: 'valid bodies are answered with a declared success status exactly, and no answer uses a success or redirect status the spec does not declare',
  judge(exchange, run) {
    const { contract } = run;
    const judged = judgedAnswer(exchange, run);
    if (!judged) return undefined;
    const { status } = judged.response;
    const { successStatus, operationId } = contract;
    const declaredList = declaredText(contract);
    if (exchange.case.expect === 'accepted' && isSuccess(status) && !isExpectedSuccess(contract, status)) {
      const successes = contract.declared.filter(isSuccess);
      const expected = successes.length > 1 ? `success statuses are ${successes.join(' and ')}` : `success status is ${successStatus} exactly`;
      return [failure(`Accepted a valid ${contract.requestBody ? 'body' : 'request'} with ${status}; the spec's ${expected} (declared: ${declaredList}).`)];
    }
    // Exact statuses, 4XX-style ranges and default, as Schemathesis reads them; an operation that
    // declares no response at all (OpenAPI requires one; documents omit it) leaves every status open.
    const undeclared = violationsOf(judged, 'UPSTREAM_UNDECLARED_STATUS')[0];
    if (!undeclared) return [];
    if (undeclared.severity === 'error') {
      return [failure(`Answered ${status}, which the spec does not declare for ${operationId} (declared: ${declaredList}); a client cannot rely on it.`)];
    }
    const usage = CONVENTIONAL[status];
    return [
      warning(
        `Answered ${status}, which the spec does not declare (declared: ${declaredList})` +
          (usage ? `; it is conventional for ${usage}, so this is only a warning.` : '; error statuses are left unsaid by the spec, so this is only a warning.'),
      ),
    ];
  },
};
