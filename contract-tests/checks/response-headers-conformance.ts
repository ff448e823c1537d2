/**
 * response_headers_conformance: an answer with a status the spec declares carries every header the
 * spec marks `required` for it (a create's `Location`, a rate limit), in any letter case, and each
 * header it declares for that status that the answer carries is what its schema says, read as
 * OpenAPI writes a header (style simple: `"5"` an integer, `a,b` an array; openapi/operations/response-headers.ts).
 * Undeclared headers and undeclared statuses are not this check's business.
 */
import { problemsText } from '../../openapi/schema/problems.js';
import { judgeHeaders } from '../../openapi/operations/response-headers.js';
import type { Check, Problem } from '../model.js';
import { declaredResponse } from '../spec-contract.js';
import { answered, failure } from './verdicts.js';

export const responseHeadersConformance: Check = {
  name: 'response_headers_conformance',
  proves: "answers with a declared status carry every header the spec marks required for that status, each declared header's value valid against its schema",
  judge(exchange, { contract }) {
    const response = answered(exchange);
    const declared = response && declaredResponse(contract, response.status);
    // Judged wherever a status is declared, required headers or none: a spec whose only required
    // header is on a status the suite never meets still has this check pass rather than go unjudged.
    if (!response || !declared) return undefined;
    const { missing, invalid } = judgeHeaders(declared.headerParameters, response.headers);
    const problems: Problem[] = [];
    if (missing.length) {
      const names = missing.map((name) => `'${name}'`).join(', ');
      problems.push(
        failure(`The ${response.status} answer has no ${names} header${missing.length > 1 ? 's' : ''}; the spec marks ${missing.length > 1 ? 'them' : 'it'} required for ${declared.status}.`),
      );
    }
    for (const { name, quoted, problems: wrong } of invalid) {
      problems.push(failure(`The ${response.status} answer's '${name}' header ${quoted} is not what the spec declares for ${declared.status}: ${problemsText(wrong)}.`));
    }
    return problems;
  },
};
