/**
 * content_type_conformance: an answer with a status the spec declares carries a media type the
 * spec gives that status. A body where the status declares no content is a warning, not a failure:
 * a Response Object without `content` leaves its payload undescribed, and many correct providers
 * answer a 400 or 401 declared that way with an error body (Schemathesis judges it no more). Parameters such as charset are allowed;
 * undeclared statuses (a 401 as application/problem+json) are the spec's silence, not this
 * check's business. The one judge decides (./judged-answer.ts); this check words it.
 */
import type { Check } from '../model.js';
import { declaredResponse } from '../spec-contract.js';
import { judgedAnswer, violationsOf } from './judged-answer.js';
import { failure, warning } from './verdicts.js';

export const contentTypeConformance: Check = {
  name: 'content_type_conformance',
  proves: 'answers with a declared status carry the media type the spec declares for it (parameters allowed)',
  judge(exchange, run) {
    const judged = judgedAnswer(exchange, run);
    const declared = judged && declaredResponse(run.contract, judged.response.status);
    if (!judged || !declared) return undefined;
    const { status, headers } = judged.response;
    const found = violationsOf(judged, 'UPSTREAM_MEDIA_TYPE', 'UPSTREAM_UNDECLARED_BODY');
    // A status that declares no body is judged only when a body came with it.
    if (!declared.mediaTypes.length && !found.length) return undefined;
    const expected = declared.mediaTypes.join(' or ');
    return found.map(({ code }) => {
      if (code === 'UPSTREAM_UNDECLARED_BODY') return warning(`The ${status} answer carries a body; the spec declares none for ${declared.status}.`);
      if (headers['content-type'] === undefined) return failure(`The ${status} answer has no Content-Type header; the spec says ${expected}.`);
      return failure(`The ${status} answer says Content-Type: ${headers['content-type']}; the spec says ${expected}.`);
    });
  },
};
