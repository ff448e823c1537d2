/**
 * The one schema toolkit: how every consumer (the compiled contract, the exact JSON reader, the
 * mock's resources, the contract suite) reads schemas out of a loaded document. The document is
 * bundled on load (openapi/document/load.ts), so every `$ref` left is a local JSON pointer (`#/...`) into
 * it; these functions follow them, merge `allOf` parts and list what a schema declares.
 * Plain functions of (schema, document): nothing is cached or mutated.
 */

/** A JSON Schema object as the document writes it. */
export type Schema = Record<string, unknown>;

/** How many `$ref`s in a row are followed before a chain is called a cycle. */
export const MAX_REF_CHAIN = 32;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON pointer token escaped (RFC 6901): `/` → `~1`, `~` → `~0`. */
export function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** A JSON pointer token unescaped (RFC 6901): `~1` → `/`, `~0` → `~` (in that order: `~01` is `~1`). */
export function unescapePointerToken(token: string): string {
  // Most tokens are plain names: nothing to unescape.
  return token.includes('~') ? token.replaceAll('~1', '/').replaceAll('~0', '~') : token;
}

/** A JSON pointer made of `tokens` (`['paths', '/pets', 'get']` → `/paths/~1pets/get`). */
export function jsonPointer(...tokens: readonly (string | number)[]): string {
  return tokens.map((token) => `/${escapePointerToken(String(token))}`).join('');
}

/**
 * The tokens of a JSON pointer in its string form (RFC 6901, section 5): an Ajv `instancePath`, an
 * RFC 6902 JSON Patch `path`. Only `~1` and `~0` are unescaped: `%25` there is three characters.
 */
export function jsonPointerTokens(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointerToken);
}

/**
 * The tokens of a JSON pointer in a URI fragment (RFC 6901, section 6: a local ref's `#/a/b`; the
 * `#` may be left off), unescaped: percent-encoding first, as a URI's fragment has it, then `~1`, `~0`.
 */
export function pointerTokens(pointer: string): string[] {
  const bare = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (bare === '') return [];
  return bare
    .slice(1)
    .split('/')
    .map((token) => {
      // Most tokens are plain names: nothing to decode or unescape.
      if (!token.includes('%') && !token.includes('~')) return token;
      let decoded = token;
      try {
        decoded = decodeURIComponent(token);
      } catch {
        // Not percent-encoded after all: taken as written.
      }
      return unescapePointerToken(decoded);
    });
}

/** What a local ref (`#/a/b`) or a JSON pointer (`/a/b`) names in `root`; undefined when nothing (or the ref is not local). */
export function pointerTarget(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#') && !ref.startsWith('/') && ref !== '') return undefined;
  let value = root;
  for (const token of pointerTokens(ref)) {
    if (Array.isArray(value)) value = /^\d+$/.test(token) ? value[Number(token)] : undefined;
    else if (isObject(value) && Object.hasOwn(value, token)) value = value[token];
    else return undefined;
  }
  return value;
}

/**
 * `value` with its `$ref`s followed (a chain of them too) to what they name in `document`; the
 * value itself when it is no ref. Undefined when a ref names nothing, is not local, or the chain
 * is a cycle: callers that must explain that use `refProblem`.
 */
export function resolveRef(value: unknown, document: unknown): unknown {
  return resolveRefAt(value, document, '').target;
}

/**
 * `resolveRef`, and where what it ends at sits in `document`: `pointer` (where `value` sits) when
 * `value` is no ref, else the pointer of the last ref followed, as written (`#/components/schemas/Pet`
 * → `/components/schemas/Pet`). For a walk that names where it found something.
 */
export function resolveRefAt(value: unknown, document: unknown, pointer: string): { target: unknown; pointer: string } {
  let current = value;
  let at = pointer;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops >= MAX_REF_CHAIN) return { target: undefined, pointer: at };
    const ref = current.$ref;
    at = ref.startsWith('#') ? ref.slice(1) : ref;
    current = pointerTarget(document, ref);
  }
  return { target: current, pointer: at };
}

/** Why `value`'s ref chain does not resolve in `document` (a sentence), or undefined when it does. */
export function refProblem(value: unknown, document: unknown): string | undefined {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops >= MAX_REF_CHAIN) return `the $ref chain is a cycle (more than ${MAX_REF_CHAIN} refs in a row)`;
    const ref = current.$ref;
    if (!ref.startsWith('#')) return `it refers to ${ref}, which is not in the document`;
    current = pointerTarget(document, ref);
    if (current === undefined) return `it refers to ${ref}, which the document does not have`;
  }
  return undefined;
}

/** The component name a schema refers to (`#/components/schemas/NewPet` → `NewPet`); undefined for an inline schema. */
export function refName(schema: unknown): string | undefined {
  const ref = isObject(schema) ? schema.$ref : undefined;
  return typeof ref === 'string' ? pointerTokens(ref).pop() : undefined;
}
