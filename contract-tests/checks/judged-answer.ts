/**
 * The one judge's verdict on an exchange's answer (openapi/judge/response.ts): what
 * status_code_conformance, content_type_conformance, response_headers_conformance and
 * response_schema_conformance each word in their own terms, so that they, the proxy and the Prism
 * edge cannot disagree about an answer. Found once per exchange and run.
 */
import { judgeResponseBody, judgeResponseHead } from '../../openapi/judge/response.js';
import type { ResponseCode } from '../../openapi/judge/words.js';
import type { ResponseViolation } from '../../openapi/judge/violation.js';
import type { Exchange, JudgedAnswer, RunContext } from '../model.js';
import { answered } from './verdicts.js';

/** The verdict on the answer a check judges (none for a timeout, a dropped connection or a 5xx: ./verdicts.ts). */
export function judgedAnswer(exchange: Exchange, run: RunContext): JudgedAnswer | undefined {
  const response = answered(exchange);
  if (!response) return undefined;
  const known = run.judged?.get(exchange);
  if (known) return known;
  const operation = run.contract.operation;
  const head = {
    method: exchange.request.method.toUpperCase(),
    status: response.status,
    headers: response.headers,
    contentType: response.headers['content-type'],
    contentLength: Buffer.byteLength(response.body),
  };
  const verdict = judgeResponseHead(operation, head, 'all');
  // A body cut at the read limit is not the provider's body: judged, its cut end would read as malformed JSON.
  const cut = response.truncated && verdict.body !== undefined;
  const body = verdict.body && !cut ? judgeResponseBody(operation, head, verdict.body, response.body, 'all') : undefined;
  const judged: JudgedAnswer = { response, violations: body ? [...verdict.violations, ...body] : verdict.violations, bodyJudged: body !== undefined, cut };
  run.judged?.set(exchange, judged);
  return judged;
}

/** The violations of the codes a check words. */
export function violationsOf<C extends ResponseCode>(judged: JudgedAnswer, ...codes: C[]): Extract<ResponseViolation, { code: C }>[] {
  return judged.violations.filter((v): v is Extract<ResponseViolation, { code: C }> => (codes as ResponseCode[]).includes(v.code));
}
