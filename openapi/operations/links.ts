/**
 * A response's OpenAPI `links` (OpenAPI 3.1, 4.8.20) as the compiled model carries them: each by
 * name, with the operation it leads to and the parameters it passes. A link the model cannot
 * follow (a broken ref, no target) is kept without a target rather than refused: links describe,
 * they judge nothing, and a mock must start whatever they say.
 */
import type { ContractLink } from './model.js';
import { isObject, pointerTarget, pointerTokens, resolveRef } from '../schema/resolve.js';

/**
 * The links of a response (`raw` its `links`, refs followed). `operationAt` names the operation
 * of a path and method (the document's own spelling: `/plants/{id}`, `get`).
 */
export function readLinks(raw: unknown, document: unknown, operationAt: (path: string, method: string) => string | undefined): ContractLink[] {
  const links = resolveRef(raw, document);
  if (!isObject(links)) return [];
  const read: ContractLink[] = [];
  for (const [name, value] of Object.entries(links)) {
    const link = resolveRef(value, document);
    if (!isObject(link)) continue;
    read.push({ name, operationId: targetOf(link, document, operationAt), parameters: new Map(Object.entries(isObject(link.parameters) ? link.parameters : {})) });
  }
  return read;
}

/** The operationId a link names, or the operation its operationRef (a local pointer to a path item's method) points at. */
function targetOf(link: Record<string, unknown>, document: unknown, operationAt: (path: string, method: string) => string | undefined): string | undefined {
  if (typeof link.operationId === 'string') return link.operationId;
  if (typeof link.operationRef !== 'string' || !link.operationRef.startsWith('#/paths/')) return undefined;
  const [, path, method] = pointerTokens(link.operationRef);
  if (path === undefined || method === undefined || pointerTarget(document, link.operationRef) === undefined) return undefined;
  return operationAt(path, method);
}
