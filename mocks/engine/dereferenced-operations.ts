/**
 * The spec's operations as openapi-backend's router gives them (refs followed, the path's
 * parameters merged in), for the inspector's `GET /__mock/spec`: the one use the mock makes of
 * openapi-backend. Routing, security and validation are the compiled contract's (routes.ts,
 * request-path.ts). openapi-backend (its dereferencer, document validator and lodash) is most of
 * a start-up (docs/benchmarks.md, "Start-up"), so it is loaded and built when first asked.
 */
import type { Document, OpenAPIBackend } from 'openapi-backend';

export class DereferencedOperations {
  readonly #document: Record<string, unknown>;
  #backend: Promise<OpenAPIBackend> | undefined;

  constructor(document: Record<string, unknown>) {
    this.#document = document;
  }

  /** The operation `operationId` as openapi-backend's `router.getOperation` gives it. */
  async get(operationId: string): Promise<unknown> {
    const backend = await (this.#backend ??= this.#loadBackend());
    return backend.router.getOperation(operationId);
  }

  async #loadBackend(): Promise<OpenAPIBackend> {
    // module.exports is the default of a CommonJS package in Node and in the start bundle (which gives no named exports); vitest gives them by name.
    const loaded = await import('openapi-backend');
    const { OpenAPIBackend } = loaded.default.OpenAPIBackend === undefined ? loaded : loaded.default;
    const api = new OpenAPIBackend({
      definition: structuredClone(this.#document) as Document,
      // The contract already read the document; openapi-backend's 3.0 meta-schema would refuse valid 3.1.
      quick: true,
      // Validation is the contract's (Ajv 2020-12, exact int64), compiled once.
      validate: false,
      strict: true,
    });
    await api.init();
    return api;
  }
}
