/**
 * Answers taken from the spec rather than the store, as Prism gives them: the response of the
 * status asked for (`Prefer: code=`) or the operation's success status, with the example asked
 * for (`Prefer: example=`), else the first example, else a body generated from the schema —
 * openapi-backend's own `mockResponseForOperation`. Used for every operation the mock serves
 * statelessly and for every forced answer. A forced error without a named example is the mock's
 * own Error saying it was forced.
 */
import type { OpenAPIBackend } from 'openapi-backend';
import type { ContractOperation } from '../../spec/contract.js';
import { forcedRejection, reject } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import { jsonContent } from '../../spec/collections.js';

export interface ExampleRequest {
  /** The status to answer; the operation's success status (or first declared) when undefined. */
  status?: number;
  /** The example's name (`Prefer: example=`). */
  example?: string;
  /** What a forced error of the mock's own table needs when the spec declares no response for it. */
  route: { allow: string; challengeScheme: string | undefined };
}

/** The spec's answer for `operation`. */
export function exampleAnswer(api: OpenAPIBackend, operation: ContractOperation, request: ExampleRequest): Answer {
  const status = request.status ?? operation.successStatus ?? operation.declaredStatuses[0] ?? 200;
  const response = operation.responses.get(status) ?? (status >= 400 ? undefined : operation.responses.get('default'));
  // A forced error says it was forced (nobody should take it for a real fault) unless a named
  // example was asked for; so does one the spec declares no response for.
  if (!response || (status >= 400 && request.example === undefined)) return rejected(forcedRejection(status, request.route));
  const media = jsonContent(response.content) ?? response.content.values().next().value;
  if (!media) return { status };
  // openapi-backend falls back to another example silently; an example that is not there is the client's mistake.
  if (request.example !== undefined && !media.examples.some((example) => example.name === request.example)) {
    const known = media.examples.map((example) => example.name).join(', ') || 'none';
    return rejected(reject('INVALID_PREFER', { problem: `example=${request.example} is not an example the spec gives for ${status} (it has ${known})` }));
  }
  const { mock } = api.mockResponseForOperation(operation.operationId, { code: status, mediaType: media.mediaType, example: request.example });
  const body = JSON.stringify(mock ?? null);
  const headers: Record<string, string> = { 'content-type': media.mediaType };
  // A forced 401 still says how to authenticate (RFC 7235), and a forced 405 what is allowed.
  if (status === 401 || status === 405) Object.assign(headers, forcedRejection(status, request.route).headers);
  return { status, body, headers };
}
