/**
 * content_type_conformance: an answer with a status the spec declares carries a media type the
 * spec gives that status. Parameters such as charset are allowed; undeclared statuses (a 401 as
 * application/problem+json) are the spec's silence, not this check's business.
 */
import type { Check } from '../model.js';
import { answered, failure, mediaTypeMatches, mediaTypeOf } from './verdicts.js';

export const contentTypeConformance: Check = {
  name: 'content_type_conformance',
  proves: 'answers with a declared status carry the media type the spec declares for it (parameters allowed)',
  judge(exchange, { contract }) {
    const response = answered(exchange);
    const declared = response && contract.responses.get(response.status);
    if (!response || !declared?.mediaTypes.length) return undefined;
    const mediaType = mediaTypeOf(response);
    const expected = declared.mediaTypes.join(' or ');
    if (mediaType === undefined) return [failure(`The ${response.status} answer has no Content-Type header; the spec says ${expected}.`)];
    if (mediaTypeMatches(mediaType, declared.mediaTypes)) return [];
    return [failure(`The ${response.status} answer says Content-Type: ${response.headers['content-type']}; the spec says ${expected}.`)];
  },
};
