/**
 * ignored_auth: a request without acceptable credentials never succeeds. 401 is the expected
 * refusal; another 4xx refuses too, so it is a warning. Where the RFCs leave a form open (a tab,
 * two Authorization headers), what the provider did is reported, never failed. A case sent with a
 * body the suite could not make valid fails only on a success.
 */
import type { Check } from '../model.js';
import { schemeTitle } from '../spec-contract.js';
import { answered, failure, info, isSuccess, reportChoice, warning } from './verdicts.js';

export const ignoredAuth: Check = {
  name: 'ignored_auth',
  proves: 'no credential, another scheme, an empty, near-miss or never-issued credential never succeed',
  judge(exchange, { contract }) {
    const choice = reportChoice(exchange, 'ignored_auth');
    if (choice) return choice;
    const response = answered(exchange);
    if (!response || exchange.case.expect !== 'unauthenticated') return undefined;
    const { status } = response;
    const { security } = contract;
    if (security.kind === 'none') return undefined;
    const main = security.kind === 'api-key' ? (security.in === 'header' ? security.header : security.in === 'cookie' ? 'cookie' : '') : 'authorization';
    const shown = (header: string): string => {
      if (header === '') return `the URL ${exchange.request.url}`;
      const sent = exchange.request.headers[header];
      const name = header === 'authorization' ? 'Authorization' : header;
      return sent === undefined ? `no ${name} header` : `${name}: ${[sent].flat().join(' + ')}`;
    };
    const credentials = [main, ...security.alongside.map((key) => key.header)].map(shown).join(' and ');
    const mainWanted = security.kind === 'api-key' ? `a valid API key in the ${security.in} ${security.header}` : security.kind === 'basic' ? 'valid HTTP Basic credentials' : 'a valid bearer token';
    const wanted = [mainWanted, ...security.alongside.map((key) => `a valid API key in ${key.header}`)].join(' and ');
    if (isSuccess(status)) {
      return [failure(`Answered ${status} to a request with ${credentials}; ${contract.operationId} requires ${wanted} (the security scheme ${schemeTitle(security)}).`)];
    }
    if (status === 401) return [];
    // The body was not valid either: validation may come before authentication, so only a success is telling.
    if (exchange.case.bodyNotValid)
      return [info(`Refused a request with ${credentials} with ${status}; its body was not valid either, so the refusal may be the body's (401 would be the credential's).`)];
    return [warning(`Refused a request with ${credentials} with ${status}; 401 is the conventional answer for missing or invalid credentials.`)];
  },
};
