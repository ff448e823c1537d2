/**
 * openapi-backend requires two packages at load that the mock never calls: openapi-schema-validator
 * (used only to validate the document, which quick mode skips) and qs (used only to parse query
 * strings in its parseRequest, which the mock does not call: it routes with matchOperation).
 * Together they were a fifth of the mock's start-up in the CPU profile. This module, imported
 * before openapi-backend, gives openapi-backend stand-ins that load the real package on first use,
 * so nothing changes if a later version of openapi-backend does use them.
 */
import Module, { createRequire } from 'node:module';

const requireFromBackend = createRequire(createRequire(import.meta.url).resolve('openapi-backend'));

/** Package → the value of its `__esModule` marker (read by TypeScript's import helpers at require time). */
const DEFERRED: Record<string, boolean> = { 'openapi-schema-validator': true, qs: false };

/** The packages whose real code has been loaded (for tests). */
export const loadedDeferred = new Set<string>();

for (const [id, esModule] of Object.entries(DEFERRED)) {
  const path = requireFromBackend.resolve(id);
  const cache = requireFromBackend.cache;
  if (cache[path]) continue; // already loaded by someone else: nothing to save
  let real: Record<PropertyKey, unknown> | undefined;
  const load = (): Record<PropertyKey, unknown> => {
    if (!real) {
      delete cache[path];
      real = requireFromBackend(id) as Record<PropertyKey, unknown>;
      loadedDeferred.add(id);
    }
    return real;
  };
  const standIn = new Proxy(
    {},
    {
      get: (_target, key) => (key === '__esModule' && !real ? esModule : Reflect.get(load(), key)),
      has: (_target, key) => Reflect.has(load(), key),
      ownKeys: () => Reflect.ownKeys(load()),
      getOwnPropertyDescriptor: (_target, key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
        return descriptor && { ...descriptor, configurable: true };
      },
    },
  );
  const module = new Module(path);
  module.filename = path;
  module.loaded = true;
  module.exports = standIn;
  cache[path] = module;
}
