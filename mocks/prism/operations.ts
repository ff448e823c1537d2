/**
 * The spec's operations as Prism reads them, with two corrections: @stoplight/http-spec turns
 * `format: int64` into the bounds ±(2^53 − 1), so Prism would reject every id beyond 2^53 that
 * the spec allows. The bounds are put back to the int64 range, written so that a comparison on
 * the doubles of `parseExactJson`'s view decides exactly as on the literal's digits. The
 * parameters are left out: the edge judges them. An operation without responses gets a 204, and
 * the answers' schemas lose their writeOnly properties.
 */
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import type { CompiledContract } from '../../spec/contract.js';

export type HttpOperations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;

/** Prism's operations for the contract's document (read once by the contract, not again by Prism). */
export async function loadPrismOperations(contract: CompiledContract): Promise<HttpOperations> {
  // Prism dereferences the document in place: give it a copy.
  const operations = await getHttpOperationsFromSpec(structuredClone(contract.document));
  widenInt64Bounds(operations, new Set());
  // The edge judges every parameter first, by the contract's readers and validators (./parameters.ts).
  // Prism's own reading of them, left to run after, only refused valid ones (a number read into a
  // double, a spaceDelimited value split on `%20` after decoding) or failed (an absent optional array
  // header): Prism is given the operations without them, and keeps its body and credential checks.
  for (const operation of operations) {
    const request = operation.request;
    if (request) for (const place of PARAMETER_PLACES) delete request[place];
    // An operation that declares no responses answers 204 without a body, as the stateful mock
    // answers it (engine/examples.ts); Prism, given none to pick, fails the request with a 500.
    if (operation.responses.length === 0) operation.responses.push({ id: `${operation.id}-no-responses`, code: '204', headers: [], contents: [] });
    // Prism's static answer (no example given) is sampled with the writeOnly properties in, each a
    // plain "string" that no pattern allows (a card number in a payment's answer); its dynamic
    // one leaves them out, as OpenAPI says a response does. The answers' schemas are given without them.
    const memo = new Map<object, unknown>();
    for (const response of operation.responses) {
      for (const content of response.contents ?? []) if (content.schema) content.schema = withoutWriteOnly(content.schema, memo) as typeof content.schema;
    }
  }
  return operations;
}

const PARAMETER_PLACES = ['path', 'query', 'headers', 'cookie'] as const;

/** Keywords whose value is a subschema, an array of them, or a map of them (JSON Schema 2020-12 applicators). */
const ONE_SCHEMA = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'unevaluatedItems', 'unevaluatedProperties', 'propertyNames'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas'];

/**
 * `schema` as a response reads it: every `properties` without its writeOnly members (nor them in
 * `required`). A copy: the request's schemas may share these objects; `memo` keeps cycles finite.
 */
export function withoutWriteOnly(schema: unknown, memo: Map<object, unknown>): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const known = memo.get(schema);
  if (known !== undefined) return known;
  const node = schema as Record<string, unknown>;
  const copy: Record<string, unknown> = { ...node };
  memo.set(schema, copy);
  const dropped = new Set<string>();
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (map === null || typeof map !== 'object' || Array.isArray(map)) continue;
    const kept: Record<string, unknown> = {};
    for (const [name, inner] of Object.entries(map)) {
      if (key === 'properties' && inner !== null && typeof inner === 'object' && (inner as { writeOnly?: unknown }).writeOnly === true) dropped.add(name);
      else kept[name] = withoutWriteOnly(inner, memo);
    }
    copy[key] = kept;
  }
  for (const key of ONE_SCHEMA) if (key in node) copy[key] = withoutWriteOnly(node[key], memo);
  for (const key of SCHEMA_LISTS) if (Array.isArray(node[key])) copy[key] = (node[key] as unknown[]).map((inner) => withoutWriteOnly(inner, memo));
  if (dropped.size && Array.isArray(node.required)) copy.required = node.required.filter((name) => !dropped.has(name as string));
  return copy;
}

/** Replaces http-spec's safe-integer bounds on int64 schemas, in place. */
export function widenInt64Bounds(value: unknown, seen: Set<object>): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  const node = value as Record<string, unknown>;
  if (node.format === 'int64' && node.minimum === Number.MIN_SAFE_INTEGER && node.maximum === Number.MAX_SAFE_INTEGER) {
    node.minimum = -(2 ** 63);
    delete node.maximum;
    // 2^63 is exact as a double; `<=` against 2^63 − 1 (which rounds to 2^63) would admit it.
    node.exclusiveMaximum = 2 ** 63;
  }
  for (const inner of Object.values(node)) widenInt64Bounds(inner, seen);
}
