/**
 * positive_data_acceptance: every valid body sent with a valid credential is accepted. Two
 * answers are not failures: a 413 (the spec declares no size limit, so a limit is the provider's
 * to choose, and a warning), and, for a case whose id is fixed (an int64 end), the status the
 * provider gave the duplicate probe (the id may be stored from an earlier run).
 */
import type { Check } from '../model.js';
import { answered, failure, info, isSuccess, providerMessage, reportChoice, warning } from './verdicts.js';

export const positiveDataAcceptance: Check = {
  name: 'positive_data_acceptance',
  proves: 'valid bodies (fixed and generated: every string class, ids at their range ends, unusual but legal JSON and credentials) are accepted',
  judge(exchange, { contract, duplicateStatus }) {
    const response = answered(exchange);
    if (response && exchange.case.expect === 'duplicate') {
      return [info(`A repeated ${contract.requestBody.identity?.name ?? 'id'} is answered ${response.status}; the spec leaves repeats unsaid. Cases whose id is fixed (the range ends) read this answer as "already stored".`)];
    }
    const choice = reportChoice(exchange, 'positive_data_acceptance');
    if (choice) return choice;
    if (!response || exchange.case.expect !== 'accepted') return undefined;
    const { status } = response;
    if (isSuccess(status)) return [];
    if (exchange.case.fixedId && status === duplicateStatus) {
      return [info(`Answered ${status}, as the provider answers a repeated id: this id is fixed by the case, so an earlier run (or another form of it in this run) may have stored it.`)];
    }
    const sent = exchange.case.request.body;
    const size = sent === undefined ? 0 : Buffer.byteLength(sent);
    if (status === 413) {
      return [warning(`Refused a valid ${size}-byte body with 413; the spec declares no size limit, so this is the provider's choice (declare it in the spec, e.g. with maxLength, to make it part of the contract).`)];
    }
    return [
      failure(
        `A valid ${contract.requestBody.schemaName} with a valid credential was refused with ${status}; the spec says ${contract.successStatus}.` +
          providerMessage(response) +
          (exchange.case.request.id !== undefined ? ` (id ${exchange.case.request.id})` : ''),
      ),
    ];
  },
};
