/**
 * response_headers_conformance: an answer with a status the spec declares carries every header the
 * spec marks `required` for it (a create's `Location`, a rate limit), in any letter case, and each
 * header it declares for that status that the answer carries is what its schema says, read as
 * OpenAPI writes a header (style simple: `"5"` an integer, `a,b` an array; openapi/operations/response-headers.ts).
 * Undeclared headers and undeclared statuses are not this check's business. The one judge decides
 * (./judged-answer.ts); this check words it.
 */
import { problemsText } from '../../openapi/schema/problems.js';
import type { Check, Problem } from '../model.js';
import { declaredResponse } from '../spec-contract.js';
import { judgedAnswer, violationsOf } from './judged-answer.js';
import { failure } from './verdicts.js';

export const responseHeadersConformance: Check = {
  name: 'response_headers_conformance',
  proves: "answers with a declared status carry every header the spec marks required for that status, each declared header's value valid against its schema",
  judge(exchange, run) {
    const judged = judgedAnswer(exchange, run);
    const declared = judged && declaredResponse(run.contract, judged.response.status);
    // Judged wherever a status is declared, required headers or none: a spec whose only required
    // header is on a status the suite never meets still has this check pass rather than go unjudged.
    if (!judged || !declared) return undefined;
    const { status } = judged.response;
    const problems: Problem[] = [];
    for (const { code, facts } of violationsOf(judged, 'UPSTREAM_MISSING_HEADER', 'UPSTREAM_INVALID_HEADER')) {
      if (code === 'UPSTREAM_MISSING_HEADER') {
        const missing = facts.headers;
        const names = missing.map((name) => `'${name}'`).join(', ');
        problems.push(failure(`The ${status} answer has no ${names} header${missing.length > 1 ? 's' : ''}; the spec marks ${missing.length > 1 ? 'them' : 'it'} required for ${declared.status}.`));
      } else {
        const wrong = problemsText({ sentences: facts.problems, more: facts.more ?? 0, fields: [] });
        problems.push(failure(`The ${status} answer's '${facts.header}' header ${facts.value} is not what the spec declares for ${declared.status}: ${wrong}.`));
      }
    }
    return problems;
  },
};
