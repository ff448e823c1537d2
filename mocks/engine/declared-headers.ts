/**
 * The values the mock writes for the headers a spec requires in an answer when no handler wrote
 * them, found once per header when the engine is built rather than for every answer. A header's
 * value is its schema's own sample (its const, default, first enum value or example, else a plain
 * value of its type: error-answers.ts sampleOf), written as OpenAPI writes a header. Where that
 * sample is a string the schema's `pattern` refuses (`x` for `^req-[0-9a-f]{8}$`), the value is a
 * string made from the pattern (openapi/schema/pattern-strings.ts, loaded only for such a header), so the
 * answer passes the spec's own contract suite. A value Node cannot send as a header (a line break,
 * a character past Latin-1) is never written: the header is left out, and the log says so once.
 */
import type { CompiledContract, ContractParameter } from '../../openapi/operations/model.js';
import type { PatternStrings } from '../../openapi/schema/pattern-strings.js';
import { sampleOf } from './error-answers.js';
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
        let value = headerText(sampleOf(header.schema ?? {}), header.style === 'content', header.explode);
        const pattern = header.style === 'content' ? undefined : header.schema?.pattern;
        if (typeof pattern === 'string' && !takes(header, value)) {
          patterns ??= new (await import('../../openapi/schema/pattern-strings.js')).PatternStrings();
          const { minLength, maxLength, format } = header.schema ?? {};
          const made = patterns.stringFor({
            pattern,
            minLength: typeof minLength === 'number' ? minLength : undefined,
            maxLength: typeof maxLength === 'number' ? maxLength : undefined,
            format: typeof format === 'string' ? format : undefined,
          });
          if (made !== undefined && SENDABLE.test(made)) value = made;
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
