/**
 * negative_data_rejection: a body the spec's schema rejects, or text that is not JSON, is never
 * accepted. A valid body under a media type the spec does not name, accepted, is only a warning
 * (the spec names the type but does not say such a request must fail). Where RFC 8259 leaves the
 * parser a choice (a BOM, duplicate names, invalid UTF-8, nesting limits), what the provider did
 * is reported, never failed.
 */
import type { Check } from '../model.js';
import { answered, failure, isSuccess, reportChoice, warning } from './verdicts.js';

export const negativeDataRejection: Check = {
  name: 'negative_data_rejection',
  proves: 'bodies the schema rejects (missing or mistyped fields, values past a bound, malformed JSON) are never accepted',
  judge(exchange, { contract }) {
    const choice = reportChoice(exchange, 'negative_data_rejection');
    if (choice) return choice;
    const response = answered(exchange);
    const { expect, description } = exchange.case;
    if (!response || (expect !== 'rejected-body' && expect !== 'unsupported-media-type')) return undefined;
    if (!isSuccess(response.status)) return [];
    if (expect === 'unsupported-media-type') {
      const contentType = exchange.request.headers['content-type'];
      return [
        warning(
          `Accepted (${response.status}) a JSON body sent ${contentType === undefined ? 'without a Content-Type' : `as ${[contentType].flat().join(', ')}`}; the spec's request media type is ${contract.requestBody?.mediaTypes.join(' or ') ?? 'none'}.`,
        ),
      ];
    }
    if (exchange.case.id.includes('parameter-')) return [failure(`Accepted (${response.status}) a request of ${contract.operationId} the spec rejects: ${description}`)];
    return [failure(`Accepted (${response.status}) a body that is not a ${contract.requestBody?.schemaName ?? 'valid body'}: ${description}`)];
  },
};
