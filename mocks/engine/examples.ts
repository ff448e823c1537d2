/**
 * Answers taken from the spec rather than the store, as Prism gives them: the response of the
 * status asked for (`Prefer: code=`) or the operation's success status — the status's own
 * declaration, else its `4XX`-style range, else `default` — with the example asked for
 * (`Prefer: example=`), else its first example its own schema accepts, else (for a success) a body
 * generated from the schema and checked against it (./generated-bodies.ts). An example the schema
 * refuses (libre-graph's ListMembers gives a bare array where it declares `{value: [...]}`) is
 * passed over unless asked for by name: an answer the spec forbids breaks the client it mocks. A list
 * so answered keeps the records an exact filter of the request asks for (openapi/operations/list-filters.ts).
 * Used for every operation the mock
 * serves statelessly and for every forced answer. A forced error without an example is the
 * mock's own rejection saying it was forced, rendered in the declared shape by the request path
 * (error-answers.ts). An operation that declares no responses answers 204.
 */
import { firstJson, isJsonMediaType } from '../../openapi/media-types.js';
import { listedItems } from '../../openapi/operations/list-filters.js';
import { successOf, type ContractMediaType, type ContractOperation } from '../../openapi/operations/model.js';
import { isObject } from '../../openapi/schema/resolve.js';
import { forcedRejection, quoted, reject } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import { declaredFor } from './error-answers.js';
import type { GeneratedBodies } from './generated-bodies.js';

export interface ExampleRequest {
  /** The status to answer; the operation's success status (or first declared) when undefined. */
  status?: number;
  /** The example's name (`Prefer: example=`). */
  example?: string;
  /** The declared media type to answer in, as `Accept` chose it (./negotiate.ts); the first JSON one, else the first, when undefined. */
  mediaType?: string;
  /** The list's records a filter of the request keeps (./handlers.ts): the example's others are left out. */
  kept?: readonly KeptValue[];
  /** What a forced error of the mock's own table needs when the spec declares no response for it. */
  route: { allow: string; challengeScheme: string | undefined; realm: string };
}

/** The spec's answer for `operation`. */
export async function exampleAnswer(bodies: GeneratedBodies, operation: ContractOperation, request: ExampleRequest): Promise<Answer> {
  if (request.status === undefined && operation.responses.size === 0 && !operation.ranges?.size) return { status: 204 };
  const status = request.status ?? successOf(operation)?.status ?? operation.declaredStatuses[0] ?? 200;
  const response = declaredFor(operation, status);
  const forced = (): Answer => rejected(forcedRejection(status, request.route));
  if (!response) return forced();
  const media = (request.mediaType === undefined ? undefined : response.content.get(request.mediaType)) ?? firstJson(response.content) ?? response.content.values().next().value;
  if (!media) return status >= 400 ? forced() : { status };
  // openapi-backend falls back to another example silently; an example that is not there is the client's mistake.
  const chosen = request.example === undefined ? media.examples.find((example) => accepts(media, example.value)) : media.examples.find((example) => example.name === request.example);
  if (request.example !== undefined && !chosen) {
    const known = media.examples.map((example) => example.name).join(', ') || 'none';
    return rejected(reject('INVALID_PREFER', { problem: `example=${quoted(request.example)} is not an example the spec gives for ${status} (it has ${known})` }));
  }
  // A forced error without an example says it was forced: nobody should take it for a real fault.
  if (!chosen && status >= 400) return forced();
  let value: unknown;
  if (chosen) value = chosen.value;
  else {
    const generated = await bodies.body(media, `${operation.method.toUpperCase()} ${operation.path} ${status}`);
    if ('problem' in generated) return rejected(reject('NO_VALID_BODY', { status, contentType: media.mediaType }));
    value = generated.value;
  }
  if (request.kept?.length && status < 300) value = keptRecords(media, value, request.kept);
  const body = typeof value === 'string' && !isJsonMediaType(media.mediaType) ? value : JSON.stringify(value ?? null);
  const headers: Record<string, string> = { 'content-type': media.mediaType };
  // A forced 401 still says how to authenticate (RFC 7235), and a forced 405 what is allowed.
  if (status === 401 || status === 405) Object.assign(headers, forcedRejection(status, request.route).headers);
  return { status, body, headers };
}

/** Whether a JSON media type's schema accepts an example; a type without a JSON schema takes it as written. */
function accepts(media: ContractMediaType, value: unknown): boolean {
  return !isJsonMediaType(media.mediaType) || media.validate === undefined || media.validate(value) === true;
}

/** A value an exact filter keeps a list's records to: the records whose property is it. */
export interface KeptValue {
  property: string;
  /** The answer's member holding the records; undefined for a bare array. */
  wrapper: string | undefined;
  value: string | boolean;
  /** What a record that leaves the property out has: the property's `default`. */
  absent?: unknown;
}

/**
 * The list answer `value` with only the records every filter keeps (a filter asked for is honoured, as
 * a provider's is, whatever the example shows); as it was where that would break its schema (`minItems`).
 */
function keptRecords(media: ContractMediaType, value: unknown, kept: readonly KeptValue[]): unknown {
  let out = value;
  for (const { property, wrapper, value: wanted, absent } of kept) {
    const items = listedItems(out, wrapper);
    if (!items) continue;
    const matching = items.filter((item) => isObject(item) && (item[property] === undefined ? absent : item[property]) === wanted);
    out = wrapper === undefined ? matching : { ...(out as Record<string, unknown>), [wrapper]: matching };
  }
  return out === value || accepts(media, out) ? out : value;
}
