/**
 * The spec's operations as Prism reads them, with two corrections: @stoplight/http-spec turns
 * `format: int64` into the bounds ±(2^53 − 1), so Prism would reject every id beyond 2^53 that
 * the spec allows. The bounds are put back to the int64 range, written so that a comparison on
 * the doubles of `parseExactJson`'s view decides exactly as on the literal's digits. The
 * parameters are left out: the edge judges them. And an operation without responses gets a 204.
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
  }
  return operations;
}

const PARAMETER_PLACES = ['path', 'query', 'headers', 'cookie'] as const;

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
