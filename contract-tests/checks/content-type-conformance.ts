/**
 * content_type_conformance: an answer with a status the spec declares carries the media type
 * the spec gives it (application/json). Parameters such as charset are allowed.
 */
import type { Check } from '../model.js';
import { createPlantContract } from '../spec-contract.js';
import { answered, failure, mediaTypeOf } from './verdicts.js';

export const contentTypeConformance: Check = {
  name: 'content_type_conformance',
  proves: 'answers with a declared status (200, 400) say Content-Type: application/json (parameters allowed)',
  judge(exchange) {
    const response = answered(exchange);
    const declared = response && createPlantContract().responses.get(response.status);
    if (!response || !declared?.mediaTypes.length) return undefined;
    const mediaType = mediaTypeOf(response);
    const expected = declared.mediaTypes.join(' or ');
    if (mediaType === undefined) return [failure(`The ${response.status} answer has no Content-Type header; the spec says ${expected}.`)];
    if (declared.mediaTypes.includes(mediaType)) return [];
    return [failure(`The ${response.status} answer says Content-Type: ${response.headers['content-type']}; the spec says ${expected}.`)];
  },
};
