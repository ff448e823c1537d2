/**
 * content_type_conformance: an answer with a status the spec declares carries a media type the
 * spec gives that status. Parameters such as charset are allowed; undeclared statuses (a 401 as
 * application/problem+json) are the spec's silence, not this check's business.
 */
import type { Check } from '../model.js';
import { matchingMedia } from '../../openapi/media-types.js';
import { declaredResponse } from '../spec-contract.js';
import { answered, failure } from './verdicts.js';

export const contentTypeConformance: Check = {
  name: 'content_type_conformance',
  proves: 'answers with a declared status carry the media type the spec declares for it (parameters allowed)',
  judge(exchange, { contract }) {
    const response = answered(exchange);
    const declared = response && declaredResponse(contract, response.status);
    if (!response || !declared?.mediaTypes.length) return undefined;
    const contentType = response.headers['content-type'];
    const expected = declared.mediaTypes.join(' or ');
    if (contentType === undefined) return [failure(`The ${response.status} answer has no Content-Type header; the spec says ${expected}.`)];
    if (matchingMedia(declared.mediaTypes, contentType) !== undefined) return [];
    return [failure(`The ${response.status} answer says Content-Type: ${response.headers['content-type']}; the spec says ${expected}.`)];
  },
};
