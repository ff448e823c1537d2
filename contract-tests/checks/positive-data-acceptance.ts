/**
 * positive_data_acceptance: every valid body sent with a valid credential is accepted. These
 * answers are not failures: a 413 to a body larger than LARGE_BODY_BYTES (the spec declares no
 * size limit, so a limit is the provider's to choose, and a warning; below that size a 413
 * refuses ordinary plants and fails), and, for a case whose id is fixed (an int64 end), the
 * status the provider gave the duplicate probe (the id may be stored from an earlier run). A
 * declared 409 to an action the same run already did on that path (a second cancel of one
 * instance) is the conflict with the record's state RFC 9110 §15.5.10 names, not a refusal.
 */
import { requestPathOf, type Check } from '../model.js';
import { isExpectedSuccess } from '../spec-contract.js';
import { answered, failure, info, isSuccess, providerMessage, reportChoice, warning } from './verdicts.js';

/** The smallest body a provider may refuse as too large (413) without failing: 16 KiB, many times any ordinary plant. */
export const LARGE_BODY_BYTES = 16 * 1024;

/** The request headers whose condition a provider answers 412 when it does not hold (RFC 9110 §13.1). */
const PRECONDITIONS = new Set(['if-match', 'if-none-match', 'if-unmodified-since']);

export const positiveDataAcceptance: Check = {
  name: 'positive_data_acceptance',
  proves: 'valid bodies (fixed and generated: every string class, ids at their range ends, unusual but legal JSON and credentials) are accepted',
  judge(exchange, { contract, duplicateStatus, rejectionStatuses, succeededOn }) {
    const response = answered(exchange);
    const id = contract.requestBody?.identity?.name ?? 'id';
    // A repeat answered like an invalid body (400 for both): "already stored" and "refused" look the same.
    const ambiguous = duplicateStatus !== undefined && !isSuccess(duplicateStatus) && (rejectionStatuses?.has(duplicateStatus) ?? false);
    if (response && exchange.case.expect === 'duplicate') {
      if (ambiguous) {
        return [
          warning(
            `A repeated ${id} is answered ${response.status}, the status this provider also gives bodies the spec rejects: a fixed-id case answered ${response.status} cannot be told from a refused valid body, so those are warnings, not passes (answer repeats with a status of their own, e.g. 409).`,
          ),
        ];
      }
      return [info(`A repeated ${id} is answered ${response.status}; the spec leaves repeats unsaid. Cases whose id is fixed (the range ends) read this answer as "already stored".`)];
    }
    const choice = reportChoice(exchange, 'positive_data_acceptance');
    if (choice) return choice;
    if (!response || exchange.case.expect !== 'accepted') return undefined;
    const { status } = response;
    // An operation declaring only redirects succeeds by one of them.
    if (isSuccess(status) || (contract.redirectOnly && isExpectedSuccess(contract, status))) return [];
    // A request naming a resource by its path (`/plants/{id}`) may name one that does not exist.
    if (status === 404 && !exchange.case.onRecord && contract.parameters.some((p) => p.in === 'path')) {
      return [
        info(
          `Answered 404: the path names a ${contract.parameters
            .filter((p) => p.in === 'path')
            .map((p) => p.name)
            .join(', ')} the provider does not have, so the request could not succeed.`,
        ),
      ];
    }
    // Outside a sequence, a request on a record names one the provider may not have, or one its body contradicts; the sequences judge these operations on real records.
    if (contract.actsOnRecord && !exchange.case.sequence && !exchange.case.onRecord && status >= 400 && status < 500 && status !== 401 && status !== 403) {
      return [
        info(
          `Answered ${status}: ${contract.operationId} acts on a record the request names, which the provider may not have (or which the body contradicts); the stateful sequence judges it on a record it created.` +
            providerMessage(response),
        ),
      ];
    }
    // A precondition the suite made up (RFC 9110 §13.1: If-Match holds the record's current ETag, which the suite cannot know) fails as it should.
    const precondition = Object.keys(exchange.request.headers).find((name) => PRECONDITIONS.has(name.toLowerCase()));
    if (status === 412 && precondition !== undefined) {
      return [
        info(
          `Answered 412 (precondition failed): the request's ${precondition} holds a value the suite made up, not one of the record's current validators, so its condition could not hold (RFC 9110 §13.1).` +
            providerMessage(response),
        ),
      ];
    }
    if (status === 409 && contract.responses.has(409) && succeededOn?.has(requestPathOf(exchange))) {
      return [
        info(
          `Answered 409: ${contract.operationId} already succeeded on ${requestPathOf(exchange)} in this run, so this request met the state that one left (RFC 9110 §15.5.10: a conflict with the target's current state), which the spec declares.` +
            providerMessage(response),
        ),
      ];
    }
    if (exchange.case.fixedId && status === duplicateStatus && ambiguous) {
      return [
        warning(
          `Answered ${status}: as the provider answers a repeated id, but also as it answers an invalid body, so this valid case with a fixed id may have been refused; it is neither passed nor failed.` +
            providerMessage(response),
        ),
      ];
    }
    if (exchange.case.fixedId && status === duplicateStatus) {
      return [info(`Answered ${status}, as the provider answers a repeated id: this id is fixed by the case, so an earlier run (or another form of it in this run) may have stored it.`)];
    }
    const sent = exchange.case.request.body;
    const size = sent === undefined ? 0 : Buffer.byteLength(sent);
    if (status === 413 && size >= LARGE_BODY_BYTES) {
      return [
        warning(
          `Refused a valid ${size}-byte body with 413; the spec declares no size limit, so this is the provider's choice (declare it in the spec, e.g. with maxLength, to make it part of the contract).`,
        ),
      ];
    }
    if (status === 413) {
      return [
        failure(
          `Refused a valid ${size}-byte body with 413 (too large); a provider may limit sizes, but only bodies of ${LARGE_BODY_BYTES} bytes or more may be refused as too large.` +
            providerMessage(response),
        ),
      ];
    }
    return [
      failure(
        `A valid ${contract.requestBody ? contract.requestBody.schemaName : `${contract.operationId} request`} with a valid credential was refused with ${status}; the spec says ${contract.successStatus ?? '2xx'}.` +
          providerMessage(response) +
          (exchange.case.request.id !== undefined ? ` (id ${exchange.case.request.id})` : ''),
      ),
    ];
  },
};
