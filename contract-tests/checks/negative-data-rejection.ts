/**
 * negative_data_rejection: a body that is not a NewPlant is never accepted. A valid NewPlant
 * under a non-JSON Content-Type that is accepted is only a warning: the spec names
 * application/json but does not say such a request must fail.
 */
import type { Check } from '../model.js';
import { answered, failure, isSuccess, warning } from './verdicts.js';

export const negativeDataRejection: Check = {
  name: 'negative_data_rejection',
  proves: 'bodies that violate NewPlant (missing or mistyped fields, null, int64 overflow, fractions, malformed JSON) are never accepted',
  judge(exchange) {
    const response = answered(exchange);
    const { expect, description } = exchange.case;
    if (!response || (expect !== 'rejected-body' && expect !== 'unsupported-media-type')) return undefined;
    if (!isSuccess(response.status)) return [];
    if (expect === 'unsupported-media-type') {
      const contentType = exchange.request.headers['content-type'];
      return [
        warning(
          `Accepted (${response.status}) a JSON body sent ${contentType === undefined ? 'without a Content-Type' : `as ${contentType}`}; the spec's request media type is application/json.`,
        ),
      ];
    }
    return [failure(`Accepted (${response.status}) a body that is not a NewPlant: ${description}`)];
  },
};
