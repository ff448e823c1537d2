/**
 * response_headers_conformance: an answer with a status the spec declares carries every header the
 * spec marks `required` for it (a create's `Location`, a rate limit), in any letter case. Headers
 * the spec declares but does not require, and undeclared statuses, are not this check's business.
 */
import type { Check } from '../model.js';
import { declaredResponse } from '../spec-contract.js';
import { answered, failure } from './verdicts.js';

export const responseHeadersConformance: Check = {
  name: 'response_headers_conformance',
  proves: 'answers with a declared status carry every header the spec marks required for that status',
  judge(exchange, { contract }) {
    const response = answered(exchange);
    const declared = response && declaredResponse(contract, response.status);
    // Judged wherever a status is declared, required headers or none: a spec whose only required
    // header is on a status the suite never meets still has this check pass rather than go unjudged.
    if (!response || !declared) return undefined;
    const missing = declared.requiredHeaders.filter((name) => response.headers[name] === undefined);
    if (missing.length === 0) return [];
    const names = missing.map((name) => `'${name}'`).join(', ');
    return [failure(`The ${response.status} answer has no ${names} header${missing.length > 1 ? 's' : ''}; the spec marks ${missing.length > 1 ? 'them' : 'it'} required for ${declared.status}.`)];
  },
};
