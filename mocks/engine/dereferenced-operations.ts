/**
 * The spec's operations as openapi-backend's router gives them (refs followed, the path's
 * parameters merged in), for the inspector's `GET /__mock/spec`: the one use the mock makes of
 * openapi-backend. Routing, security and validation are the compiled contract's (routes.ts,
 * request-path.ts). openapi-backend (its dereferencer, document validator and lodash) is most of
 * a start-up (docs/benchmarks.md, "Start-up"), so it is loaded and built when first asked.
 */
import type { Document, OpenAPIBackend } from 'openapi-backend';
import { pointerTarget } from '../../openapi/schema/resolve.js';

/** Where refs openapi-backend's quick dereferencer cannot follow are given a plain pointer (see plainPointers). */
const PLAIN = 'x-mock-ref-targets';

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
      definition: plainPointers(structuredClone(this.#document)) as Document,
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

/**
 * The document with every local ref the quick dereferencer would misread pointed at a copy of its
 * target under PLAIN instead. That dereferencer splits a ref on `/` without decoding `~1`, `~0` or
 * percent-escapes, and throws on the dead end: a bundled multi-file spec refers into `#/paths/~1auth/…`
 * (Pi-hole's does, 477 times), and the whole `GET /__mock/spec` answered 500. The copies keep their
 * own refs (rewritten the same way), so a cycle stays a ref, never an object cycle.
 */
export function plainPointers(document: Record<string, unknown>): Record<string, unknown> {
  const targets: Record<string, unknown> = {};
  const slots = new Map<string, string>();
  const pending: unknown[] = [document];
  const slotOf = (ref: string): string | undefined => {
    let slot = slots.get(ref);
    if (slot !== undefined) return slot;
    const target = pointerTarget(document, ref);
    if (target === undefined) return undefined;
    slot = String(slots.size);
    slots.set(ref, slot);
    targets[slot] = structuredClone(target);
    pending.push(targets[slot]);
    return slot;
  };
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      pending.push(...(node as unknown[]));
      continue;
    }
    const object = node as Record<string, unknown>;
    const ref = object.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/') && /[~%]/.test(ref)) {
      const slot = slotOf(ref);
      if (slot !== undefined) object.$ref = `#/${PLAIN}/${slot}`;
    }
    pending.push(...Object.values(object));
  }
  if (slots.size > 0) document[PLAIN] = targets;
  return document;
}
