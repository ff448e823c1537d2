/** not_a_server_error: every request gets a complete, non-5xx answer within the timeout. */
import type { Check } from '../model.js';
import { failure } from './verdicts.js';

export const notAServerError: Check = {
  name: 'not_a_server_error',
  proves: 'every request gets a complete answer below 500 within the timeout: no crash, no dropped connection, no hang',
  judge(exchange) {
    switch (exchange.outcome) {
      case 'not-sent':
        return undefined;
      case 'timeout':
        return [failure(`No complete answer within ${exchange.timeoutMs} ms: the provider hangs on this request (raise --timeout if it is only slow).`)];
      case 'dropped':
        return [failure(`The connection failed before a complete answer: ${exchange.error}.`)];
      case 'response': {
        const { status } = exchange.response;
        if (status < 500) return [];
        return [failure(`Answered ${status}, a server error: the provider failed on a request it should have answered (its success status or a 4xx).`)];
      }
    }
  },
};
