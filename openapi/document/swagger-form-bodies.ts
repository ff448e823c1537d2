/**
 * Swagger 2.0's required `formData` parameters make the form body itself required: a request
 * without one leaves the required field out. @scalar/openapi-upgrader 0.1 writes the form's schema
 * with `required: [name]` but leaves `requestBody.required` unset, so OpenAPI 3's default (an
 * optional body) let a request with no body at all through (gotify's `POST /auth/local/login`,
 * `name` required, answered 200 to an empty form). Before the upgrade the operations with a required
 * form field are noted; after it, their request bodies are marked required.
 */
import { isObject } from '../schema/resolve.js';

const HTTP_METHODS_OF_SWAGGER = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

/** `path method` of every operation with a required formData parameter (its own, its path item's, or a shared one by $ref). */
export function requiredForms(document: Record<string, unknown>): Set<string> {
  const shared = isObject(document.parameters) ? document.parameters : {};
  const resolved = (parameter: unknown): unknown => {
    if (!isObject(parameter) || typeof parameter.$ref !== 'string') return parameter;
    const name = /^#\/parameters\/(.+)$/.exec(parameter.$ref)?.[1];
    return name === undefined ? undefined : shared[name.replaceAll('~1', '/').replaceAll('~0', '~')];
  };
  const requiresForm = (parameters: unknown): boolean =>
    Array.isArray(parameters) &&
    parameters.some((p) => {
      const parameter = resolved(p);
      return isObject(parameter) && parameter.in === 'formData' && parameter.required === true;
    });
  const found = new Set<string>();
  for (const [path, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS_OF_SWAGGER) {
      const operation = item[method];
      if (isObject(operation) && (requiresForm(operation.parameters) || requiresForm(item.parameters))) found.add(`${path} ${method}`);
    }
  }
  return found;
}

/** Marks the upgraded request bodies of `operations` (from requiredForms) required (in place). */
export function formBodiesRequired(upgraded: Record<string, unknown>, operations: ReadonlySet<string>): void {
  const paths = isObject(upgraded.paths) ? upgraded.paths : {};
  for (const key of operations) {
    const split = key.lastIndexOf(' ');
    const item = paths[key.slice(0, split)];
    const operation = isObject(item) ? item[key.slice(split + 1)] : undefined;
    if (isObject(operation) && isObject(operation.requestBody) && operation.requestBody.$ref === undefined) operation.requestBody.required = true;
  }
}
