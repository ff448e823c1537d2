/** What every check needs to say something: the answer worth judging, and problems to report. */
import type { ContractCase, Exchange, Problem, ReceivedResponse } from '../model.js';
import { BODY_BUDGET, BODY_LIMIT } from '../transport.js';

/**
 * The response a check other than not_a_server_error judges: none for a timeout, a dropped
 * connection or a 5xx, which say nothing about the rest of the contract.
 */
export function answered(exchange: Exchange): ReceivedResponse | undefined {
  return exchange.outcome === 'response' && exchange.response.status < 500 ? exchange.response : undefined;
}

/**
 * Why a body was not read: the suite keeps at most BODY_LIMIT bytes of an answer (less once a run has kept
 * BODY_BUDGET), so a longer one is cut, and what is cut is never judged as if it were the provider's JSON.
 */
export const cutBody = (what: string): Problem =>
  warning(
    `${what} is longer than the suite's read limit (${BODY_LIMIT / 1024 / 1024} MiB; less once a run has kept ${BODY_BUDGET / 1024 / 1024} MiB of answers) and was cut, so it was not judged. A list that long is best paged (declare its paging parameters).`,
  );

/** `Check.considers` of the checks of state: they judge the steps of a stateful sequence only. */
export const sequenceStepsOnly = (contractCase: ContractCase): boolean => contractCase.sequence !== undefined;

export const isSuccess = (status: number): boolean => status >= 200 && status < 300;

export const failure = (message: string): Problem => ({ severity: 'failure', message });
export const warning = (message: string): Problem => ({ severity: 'warning', message });
export const info = (message: string): Problem => ({ severity: 'info', message });

/** The provider's own explanation, when its body has one, to quote in a report. */
export function providerMessage(response: ReceivedResponse): string {
  try {
    const body = JSON.parse(response.body) as Record<string, unknown>;
    for (const key of ['message', 'detail', 'title', 'error_description', 'error']) {
      if (typeof body?.[key] === 'string') return ` The provider said: ${JSON.stringify(body[key])}.`;
    }
  } catch {
    // Not JSON: nothing to quote.
  }
  return '';
}

/** For a provider-choice case this check reports: what the provider did, as info (or a warning). */
export function reportChoice(exchange: Exchange, check: string): Problem[] | undefined {
  const { choice } = exchange.case;
  const response = answered(exchange);
  if (!response || exchange.case.expect !== 'provider-choice' || choice?.check !== check) return undefined;
  const did = isSuccess(response.status) ? `accepted it (${response.status})` : `refused it (${response.status})`;
  const message = `${exchange.case.description}: the provider ${did}. ${choice.rule}.`;
  return [choice.warnIfAccepted && isSuccess(response.status) ? warning(message) : info(message)];
}
