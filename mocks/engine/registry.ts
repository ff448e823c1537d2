/**
 * openapi-backend's registry model without loading openapi-backend at start: handlers keyed by
 * operationId and its hooks, security handlers keyed by scheme name (`register`,
 * `registerSecurityHandler`, as on OpenAPIBackend). The operations come from the compiled
 * contract (routes.ts), which reads them as openapi-backend's router does.
 *
 * openapi-backend itself (with its dereferencer, its document validator and lodash) is most of
 * the mock's start-up (docs/benchmarks.md, "Start-up"); only its dereferenced operations (the
 * inspector's /__mock/spec) are used, so it is loaded and built when they are first asked for.
 * Answers generated from a schema are ./generated-bodies.ts's.
 */
import type { Document, Handler, OpenAPIBackend } from 'openapi-backend';

export class HandlerRegistry {
  readonly handlers: Record<string, Handler> = {};
  readonly securityHandlers: Record<string, Handler> = {};
  readonly #document: Record<string, unknown>;
  #backend: Promise<OpenAPIBackend> | undefined;

  constructor(document: Record<string, unknown>) {
    this.#document = document;
  }

  /** Registers handlers by operationId or hook name (a map of them, or one by name). */
  register(handlers: Record<string, Handler>): void;
  register(name: string, handler: Handler): void;
  register(nameOrHandlers: string | Record<string, Handler>, handler?: Handler): void {
    if (typeof nameOrHandlers === 'string') {
      if (handler) this.handlers[nameOrHandlers] = handler;
      return;
    }
    Object.assign(this.handlers, nameOrHandlers);
  }

  registerSecurityHandler(name: string, handler: Handler): void {
    this.securityHandlers[name] = handler;
  }

  /** The operation as openapi-backend's router gives it (refs followed, the path's parameters merged in). */
  async dereferencedOperation(operationId: string): Promise<unknown> {
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
