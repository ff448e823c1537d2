/**
 * The spec's operations as Prism reads them, with one correction: @stoplight/http-spec turns
 * `format: int64` into the bounds ±(2^53 − 1), so Prism would reject every id beyond 2^53 that
 * the spec allows. The bounds are put back to the int64 range, written so that a comparison on
 * the doubles of `parseExactJson`'s view decides exactly as on the literal's digits; a
 * parameter's, which Prism reads into a plain double, so that the double of 2^63 − 1 passes.
 */
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import type { CompiledContract } from '../../spec/contract.js';

export type HttpOperations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;

/** Prism's operations for the contract's document (read once by the contract, not again by Prism). */
export async function loadPrismOperations(contract: CompiledContract): Promise<HttpOperations> {
  // Prism dereferences the document in place: give it a copy.
  const operations = await getHttpOperationsFromSpec(structuredClone(contract.document));
  widenInt64Bounds(operations, new Set());
  for (const operation of operations) {
    for (const place of PARAMETER_PLACES) {
      for (const parameter of operation.request?.[place] ?? []) if (parameter.schema) parameter.schema = withDoubleInt64Ends(parameter.schema) as typeof parameter.schema;
    }
  }
  return operations;
}

const PARAMETER_PLACES = ['path', 'query', 'headers', 'cookie'] as const;

/**
 * A parameter's schema whose int64 ends Prism can hold: Prism reads a parameter's number into a
 * double, so 2^63 − 1 arrives as 2^63 and the exact exclusive bound refused it. The edge has judged
 * every parameter exactly before Prism sees it (./parameters.ts); Prism's bound then only has to
 * let the doubles of the valid values through. A copy (a body may share the schema; cycles kept).
 */
function withDoubleInt64Ends(value: unknown, copies = new Map<object, unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const list: unknown[] = [];
    copies.set(value, list);
    for (const item of value) list.push(withDoubleInt64Ends(item, copies));
    return list;
  }
  const node: Record<string, unknown> = {};
  copies.set(value, node);
  for (const [key, inner] of Object.entries(value)) node[key] = withDoubleInt64Ends(inner, copies);
  if (node.format === 'int64' && node.exclusiveMaximum === 2 ** 63) {
    delete node.exclusiveMaximum;
    node.maximum = 2 ** 63;
  }
  return node;
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
