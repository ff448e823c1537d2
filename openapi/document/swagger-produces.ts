/**
 * Swagger 2.0's `produces` per operation, which overrides the document's (Swagger 2.0, "Operation
 * Object"). @scalar/openapi-upgrader 0.1 reads `document.produces ?? operation.produces`, so an
 * operation answering `text/plain` beside a global `application/json` was upgraded to answer JSON
 * (and the mock refused the operation's own type with 406). Before the upgrade the global list is
 * written on every operation that has none and taken off the document; after it, the document's
 * own `responses` (which the upgrader gives the global list) get it back.
 */
import { isObject } from '../schema/resolve.js';

/** The methods a Swagger 2.0 path item holds operations under. */
const HTTP_METHODS_OF_SWAGGER = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

/** Moves the document's `produces` onto each operation without its own (in place); returns it, or undefined when there is none. */
export function producesOnEveryOperation(document: Record<string, unknown>): string[] | undefined {
  const global = document.produces;
  if (!Array.isArray(global) || !global.every((type) => typeof type === 'string')) return undefined;
  for (const item of Object.values(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS_OF_SWAGGER) {
      const operation = item[method];
      if (isObject(operation) && operation.produces === undefined) operation.produces = [...global];
    }
  }
  delete document.produces;
  return global as string[];
}

/** The upgraded document's shared responses answered in the document's `produces` again (in place). */
export function producesOnSharedResponses(upgraded: Record<string, unknown>, global: readonly string[]): void {
  const components = isObject(upgraded.components) ? upgraded.components : {};
  for (const response of Object.values(isObject(components.responses) ? components.responses : {})) {
    if (!isObject(response) || !isObject(response.content)) continue;
    const media = response.content['application/json'];
    if (Object.keys(response.content).length !== 1 || !isObject(media)) continue;
    response.content = Object.fromEntries(global.map((type) => [type, { ...media }]));
  }
}
