/**
 * The one table of the keywords that hold schemas (JSON Schema 2020-12, OpenAPI 3.1's dialect, and
 * the `definitions` older documents keep), and the walkers every schema pass uses: a pass that
 * needs a new keyword gets it here, once. Each keyword says how it holds its schemas (one, a list,
 * a map by name) and whether they judge the same value as the schema holding them (`allOf`, `not`,
 * `if`) or a part of it (`properties`, `items`) — what a cycle, an exact-number plan or a merge
 * must tell apart. `$ref` is no entry: callers resolve it (resolve.ts) as their pass needs.
 */
import { isObject } from './resolve.js';

export type Holds = 'one' | 'list' | 'map';

export interface SchemaKeyword {
  holds: Holds;
  /** The schemas it holds judge the very value the schema holding them judges. */
  sameValue: boolean;
  /** Its schemas are only definitions, judging nothing where they stand (`$defs`). */
  definitions?: true;
}

export const SCHEMA_KEYWORDS: Readonly<Record<string, SchemaKeyword>> = {
  allOf: { holds: 'list', sameValue: true },
  anyOf: { holds: 'list', sameValue: true },
  oneOf: { holds: 'list', sameValue: true },
  not: { holds: 'one', sameValue: true },
  if: { holds: 'one', sameValue: true },
  then: { holds: 'one', sameValue: true },
  else: { holds: 'one', sameValue: true },
  dependentSchemas: { holds: 'map', sameValue: true },
  properties: { holds: 'map', sameValue: false },
  patternProperties: { holds: 'map', sameValue: false },
  additionalProperties: { holds: 'one', sameValue: false },
  unevaluatedProperties: { holds: 'one', sameValue: false },
  propertyNames: { holds: 'one', sameValue: false },
  items: { holds: 'one', sameValue: false },
  prefixItems: { holds: 'list', sameValue: false },
  unevaluatedItems: { holds: 'one', sameValue: false },
  contains: { holds: 'one', sameValue: false },
  contentSchema: { holds: 'one', sameValue: false },
  $defs: { holds: 'map', sameValue: false, definitions: true },
  definitions: { holds: 'map', sameValue: false, definitions: true },
};

const ENTRIES = Object.entries(SCHEMA_KEYWORDS);

/** The keywords whose schemas judge the same value (`allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`, `else`, `dependentSchemas`). */
export const SAME_VALUE_KEYWORDS: readonly string[] = ENTRIES.filter(([, keyword]) => keyword.sameValue).map(([name]) => name);

/** One schema a keyword holds: the keyword, its index or name within it, and the schema. */
export interface Subschema {
  keyword: string;
  /** The index in a list, the name in a map; undefined for a keyword holding one schema. */
  key: string | undefined;
  schema: unknown;
  sameValue: boolean;
}

/** Which of the table's keywords a pass visits. */
export interface SubschemaFilter {
  /** Only those judging the same value. */
  sameValueOnly?: boolean;
  /** Leave `$defs` and `definitions` out. */
  skipDefinitions?: boolean;
}

/** Every schema `node` holds directly, in the table's order, each keyword's schemas in document order. */
export function* subschemas(node: unknown, filter: SubschemaFilter = {}): Generator<Subschema> {
  if (!isObject(node)) return;
  for (const [keyword, { holds, sameValue, definitions }] of ENTRIES) {
    if ((filter.sameValueOnly && !sameValue) || (filter.skipDefinitions && definitions)) continue;
    const held = node[keyword];
    if (held === undefined) continue;
    if (holds === 'one') yield { keyword, key: undefined, schema: held, sameValue };
    else if (holds === 'list') {
      if (Array.isArray(held)) for (const [index, schema] of held.entries()) yield { keyword, key: String(index), schema, sameValue };
    } else if (isObject(held)) for (const [name, schema] of Object.entries(held)) yield { keyword, key: name, schema, sameValue };
  }
}

/**
 * `node` with each schema it holds directly replaced by `rewrite(schema, where)`; `node` itself
 * when nothing changed (identity kept, so unchanged parts stay shared), else a shallow copy.
 */
export function mapSubschemas(node: Record<string, unknown>, rewrite: (schema: unknown, where: Subschema) => unknown, filter: SubschemaFilter = {}): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const where of subschemas(node, filter)) {
    const rewritten = rewrite(where.schema, where);
    if (rewritten === where.schema) continue;
    out ??= { ...node };
    const { keyword, key } = where;
    if (key === undefined) out[keyword] = rewritten;
    else {
      const held = node[keyword];
      if (out[keyword] === held) out[keyword] = Array.isArray(held) ? [...held] : { ...(held as Record<string, unknown>) };
      (out[keyword] as Record<string, unknown>)[key] = rewritten;
    }
  }
  return out ?? node;
}
