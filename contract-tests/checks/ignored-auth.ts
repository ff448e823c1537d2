/**
 * ignored_auth: a request without acceptable bearer credentials never succeeds. 401 is the
 * expected refusal; another 4xx refuses too, so it is a warning.
 */
import type { Check } from '../model.js';
import { answered, failure, isSuccess, warning } from './verdicts.js';

export const ignoredAuth: Check = {
  name: 'ignored_auth',
  proves: 'no Authorization header, another scheme, an empty token or an invalid token never succeed',
  judge(exchange) {
    const response = answered(exchange);
    if (!response || exchange.case.expect !== 'unauthenticated') return undefined;
    const { status } = response;
    const sent = exchange.request.headers.authorization;
    const credentials = sent === undefined ? 'no Authorization header' : `Authorization: ${sent}`;
    if (isSuccess(status)) {
      return [failure(`Answered ${status} to a request with ${credentials}; createPlant requires a valid bearer token.`)];
    }
    if (status === 401) return [];
    return [warning(`Refused a request with ${credentials} with ${status}; 401 is the conventional answer for missing or invalid credentials.`)];
  },
};
