/**
 * `--self-check`: the mock's own answers judged by the one judge (openapi/judge/) before they
 * leave, as the proxy judges an upstream's: status, media type, declared headers, body schema,
 * writeOnly properties. An answer that breaks the spec still goes out as made — a 500 in its place
 * would hide what the mock made from the client under test — with the verdict where it is made:
 * the `plant-store-violations` header (the proxy's), the journal entry (the inspector shows it)
 * and a warn line in the log. Off by default: a streamed answer (a list) is gathered to judge it.
 */
import type { CompiledContract } from '../openapi/operations/model.js';
import { judgeResponse } from '../openapi/judge/response.js';
import { plainViolation, type Violation } from '../openapi/judge/violation.js';
import { gathered } from './engine/request-path.js';
import type { Answer } from './http/answer.js';
import { VIOLATIONS_HEADER, violationsHeader } from './proxy/violations.js';

/** Who answered, in the judge's words. */
const MOCK = 'the mock';

/** The answer with the judge's verdict on it, when it answers one of the spec's operations (proxied answers are judged by the proxy). */
export async function selfChecked(answer: Answer, method: string, contract: CompiledContract): Promise<Answer> {
  const operation = answer.send || answer.operationId === undefined ? undefined : contract.operations.get(answer.operationId);
  if (!operation) return answer;
  const whole = answer.stream ? await gathered(answer) : answer;
  // Judged as `respond` writes it (http/respond.ts): a body without a media type goes out as JSON.
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(whole.headers ?? {})) headers[name.toLowerCase()] = value;
  if (whole.body !== undefined) headers['content-type'] ??= 'application/json';
  const violations: Violation[] = judgeResponse(operation, { method, status: whole.status, headers, body: whole.body, by: MOCK }, 'all').map(plainViolation);
  if (!violations.length) return whole;
  return { ...whole, headers: { ...whole.headers, [VIOLATIONS_HEADER]: violationsHeader(violations) }, violations: [...(whole.violations ?? []), ...violations] };
}
