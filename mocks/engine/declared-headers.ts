/**
 * The values the mock writes for the headers a spec requires in an answer when no handler wrote
 * them, found once per header when the engine is built rather than for every answer. A header's
 * value is its schema's sample (the core's sampler, openapi/schema/sample.ts: its const, example,
 * default or first enum value, else a plain value of its type, a string when it says no type),
 * written as OpenAPI writes a header. Where the schema has a `pattern`, a string made from it
 * (openapi/schema/pattern-strings.ts, loaded only for such a header) is what the sampler writes,
 * so the answer passes the spec's own contract suite. A value Node cannot send as a header (a line
 * break, a character past Latin-1) is never written: the header is left out, and the log says so once.
 */
import type { CompiledContract, ContractParameter } from '../../openapi/operations/model.js';
import type { PatternStrings } from '../../openapi/schema/pattern-strings.js';
import { isObject, resolveRef, type Schema } from '../../openapi/schema/resolve.js';
import { leastSample, sample } from '../../openapi/schema/sample.js';
import type { Warn } from './generated-bodies.js';

/** Each required response header's value, by its declaration; a header without one is left out of answers. */
export type HeaderValues = ReadonlyMap<ContractParameter, string>;

/** What Node writes as a header value (its checkInvalidHeaderChar): tab, visible ASCII and Latin-1. */
const SENDABLE = /^[\t\x20-\x7e\x80-\xff]*$/;

export async function declaredHeaderValues(contract: CompiledContract, warn?: Warn): Promise<HeaderValues> {
  const values = new Map<ContractParameter, string>();
  let patterns: PatternStrings | undefined;
  for (const operation of contract.operations.values()) {
    for (const response of [...operation.responses.values(), ...(operation.ranges?.values() ?? [])]) {
      for (const header of response.headerParameters ?? []) {
        if (!header.required || values.has(header)) continue;
        // A header is text: a schema that says no type is sampled as a string.
        const declared = resolveRef(header.schema, contract.document);
        const schema: Schema = isObject(declared) ? ('type' in declared ? declared : { type: 'string', ...declared }) : { type: 'string' };
        let value = headerText(leastSample(schema, contract.document), header.style === 'content', header.explode);
        if (header.style !== 'content' && typeof schema.pattern === 'string' && !takes(header, value)) {
          const strings = (patterns ??= new (await import('../../openapi/schema/pattern-strings.js')).PatternStrings());
          const made = sample(schema, { document: contract.document, least: true, patternString: (keywords) => strings.stringFor(keywords) });
          if (made !== undefined) {
            const text = headerText(made.value, false, header.explode);
            if (SENDABLE.test(text)) value = text;
          }
        }
        if (SENDABLE.test(value)) values.set(header, value);
        else
          warn?.(
            { operationId: operation.operationId, header: header.name },
            `the ${header.name} header the spec requires has no value a header can carry (${JSON.stringify(value.slice(0, 80))}): answers leave it out`,
          );
      }
    }
  }
  return values;
}

/** Whether the header's schema takes `text` as the header's value. */
function takes(header: ContractParameter, text: string): boolean {
  return header.validate === undefined || header.validate(header.read({ path: {}, query: new Map(), headers: { [header.name]: text } }));
}

/** A header's value as OpenAPI writes it: style simple (`a,b`; an object `k,v` or, exploded, `k=v`), or JSON for a `content` header. */
function headerText(value: unknown, content: boolean, explode: boolean): string {
  if (content) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value === null || typeof value !== 'object') return String(value);
  return Object.entries(value)
    .map(([key, inner]) => (explode ? `${key}=${String(inner)}` : `${key},${String(inner)}`))
    .join(',');
}
