/** positive_data_acceptance: every valid NewPlant sent with a valid bearer token is accepted. */
import type { Check } from '../model.js';
import { answered, failure, isSuccess, providerMessage } from './verdicts.js';

export const positiveDataAcceptance: Check = {
  name: 'positive_data_acceptance',
  proves: 'valid NewPlants (fixed and generated: any Unicode name, optional tag, ids across int64) are accepted',
  judge(exchange) {
    const response = answered(exchange);
    if (!response || exchange.case.expect !== 'accepted') return undefined;
    if (isSuccess(response.status)) return [];
    return [
      failure(
        `A valid NewPlant with a valid bearer token was refused with ${response.status}; the spec says 200.` +
          providerMessage(response) +
          (exchange.case.request.id !== undefined ? ` (id ${exchange.case.request.id})` : ''),
      ),
    ];
  },
};
