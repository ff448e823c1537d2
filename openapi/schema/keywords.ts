/**
 * The one table of the keywords that hold schemas (JSON Schema 2020-12, OpenAPI 3.1's dialect, and
 * the `definitions` older documents keep), and the walkers every schema pass uses: a pass that
 * needs a new keyword gets it here, once. Each keyword says how it holds its schemas (one, a list,
 * a map by name) and which part of the value they judge (`judges`): the value itself (`allOf`),
 * under a condition (`then`), as a test whose outcome only decides (`not`, `if`), a property, the items …
 * — what a cycle, an exact-number plan, a merge or a bound on a made-up answer must tell apart.
 * `$ref` is no entry: callers resolve it (resolve.ts) as their pass needs.
 */
import { isObject } from './resolve.js';

export type Holds = 'one' | 'list' | 'map';

/** Which part of the value the schemas a keyword holds judge. */
export type Judges =
  /** The value itself: a part of what it must be, or an alternative (`allOf`, `anyOf`, `oneOf`). */
  | 'value'
  /** The value itself, when a condition holds: the `if` beside them (`then`, `else`), a member present (`dependentSchemas`, `dependencies`). */
  | 'valueWhen'
  /** The value itself, as a test whose outcome decides rather than a shape the value takes (`not`, `if`). */
  | 'condition'
  /** The member the schema's name in the map names (`properties`). */
  | 'property'
  /** The members whose names match the schema's name, a pattern (`patternProperties`). */
  | 'patternProperty'
  /** The members no other keyword judges (`additionalProperties`, `unevaluatedProperties`). */
  | 'otherProperties'
  /** The members' names (`propertyNames`). */
  | 'propertyName'
  /** Every item, or the ones no other keyword judges (`items`, `unevaluatedItems`, `contains`). */
  | 'item'
  /** The item at the schema's index (`prefixItems`). */
  | 'prefixItem'
  /** The document a string holds (`contentSchema`). */
  | 'content'
  /** Nothing where they stand: definitions a `$ref` names (`$defs`, `definitions`). */
  | 'nothing';

export interface SchemaKeyword {
  holds: Holds;
  judges: Judges;
  /** The schemas it holds judge the very value the schema holding them judges (`value`, `valueWhen`, `condition`). */
  sameValue: boolean;
  /** Its schemas are only definitions, judging nothing where they stand (`$defs`). */
  definitions?: true;
}

function keyword(holds: Holds, judges: Judges): SchemaKeyword {
  return { holds, judges, sameValue: judges === 'value' || judges === 'valueWhen' || judges === 'condition', ...(judges === 'nothing' ? { definitions: true as const } : {}) };
}

export const SCHEMA_KEYWORDS: Readonly<Record<string, SchemaKeyword>> = {
  allOf: keyword('list', 'value'),
  anyOf: keyword('list', 'value'),
  oneOf: keyword('list', 'value'),
  not: keyword('one', 'condition'),
  if: keyword('one', 'condition'),
  then: keyword('one', 'valueWhen'),
  else: keyword('one', 'valueWhen'),
  dependentSchemas: keyword('map', 'valueWhen'),
  // Draft 7's, which 2020-12 keeps (deprecated) and Ajv still applies: a member is a schema or a list of names.
  dependencies: keyword('map', 'valueWhen'),
  properties: keyword('map', 'property'),
  patternProperties: keyword('map', 'patternProperty'),
  additionalProperties: keyword('one', 'otherProperties'),
  unevaluatedProperties: keyword('one', 'otherProperties'),
  propertyNames: keyword('one', 'propertyName'),
  items: keyword('one', 'item'),
  prefixItems: keyword('list', 'prefixItem'),
  unevaluatedItems: keyword('one', 'item'),
  contains: keyword('one', 'item'),
  contentSchema: keyword('one', 'content'),
  $defs: keyword('map', 'nothing'),
  definitions: keyword('map', 'nothing'),
};

const ENTRIES = Object.entries(SCHEMA_KEYWORDS);
const BY_NAME: ReadonlyMap<string, SchemaKeyword> = new Map(ENTRIES);

/** The keywords whose schemas judge the same value (`allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`, `else`, `dependentSchemas`, `dependencies`). */
export const SAME_VALUE_KEYWORDS: readonly string[] = ENTRIES.filter(([, keyword]) => keyword.sameValue).map(([name]) => name);

/**
 * The keywords that hold schemas by name (`properties`, `$defs` …): a key in their map is a name
 * (a property may be called `pattern` or `example`), never a keyword. Walkers of a whole document
 * read this beside OpenAPI's own maps of names (`paths`, `responses`, `schemas` …).
 */
export const NAMED_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set(ENTRIES.filter(([, keyword]) => keyword.holds === 'map').map(([name]) => name));

/**
 * The keywords whose values are data, never schemas: JSON Schema's `const`, `enum`, `default`
 * and `examples`, and OpenAPI's `example`. An object there that says `pattern` or `nullable` is a
 * value (walkers of a whole document skip them).
 */
export const VALUE_KEYWORDS: ReadonlySet<string> = new Set(['const', 'enum', 'default', 'examples', 'example']);

/** One schema a keyword holds: the keyword, its index or name within it, and the schema. */
export interface Subschema {
  keyword: string;
  /** The index in a list, the name in a map; undefined for a keyword holding one schema. */
  key: string | undefined;
  schema: unknown;
  judges: Judges;
  sameValue: boolean;
}

/** Which of the table's keywords a pass visits. */
export interface SubschemaFilter {
  /** Only those judging the same value. */
  sameValueOnly?: boolean;
  /** Leave `$defs` and `definitions` out. */
  skipDefinitions?: boolean;
}

/**
 * Every schema `node` holds directly, in the table's order, each keyword's schemas in document
 * order. Only schemas (objects and booleans): `dependencies`' lists of names, or what a document
 * that breaks the meta-schema holds there (`items: [...]`), are no schemas to walk.
 */
export function* subschemas(node: unknown, filter: SubschemaFilter = {}): Generator<Subschema> {
  if (!isObject(node)) return;
  for (const [keyword, { holds, judges, sameValue, definitions }] of ENTRIES) {
    if ((filter.sameValueOnly && !sameValue) || (filter.skipDefinitions && definitions)) continue;
    const held = node[keyword];
    if (held === undefined) continue;
    if (holds === 'one') {
      if (isSchema(held)) yield { keyword, key: undefined, schema: held, judges, sameValue };
    } else if (holds === 'list') {
      if (Array.isArray(held)) for (const [index, schema] of held.entries()) if (isSchema(schema)) yield { keyword, key: String(index), schema, judges, sameValue };
    } else if (isObject(held)) for (const [name, schema] of Object.entries(held)) if (isSchema(schema)) yield { keyword, key: name, schema, judges, sameValue };
  }
}

function isSchema(value: unknown): boolean {
  return typeof value === 'boolean' || isObject(value);
}

/**
 * `node` with each schema it holds directly replaced by `rewrite(schema, where)`; `node` itself
 * when nothing changed (identity kept, so unchanged parts stay shared), else a shallow copy. With
 * `into` (a shallow copy of `node` the caller made already: one a cycle's walk must find before
 * the walk is done), the rewritten schemas are written there, and `into` is returned. The
 * keywords are visited in `node`'s own order (one pass over its keys: inlining a large document
 * rewrites millions of nodes), each keyword's schemas in document order.
 */
export function mapSubschemas(
  node: Record<string, unknown>,
  rewrite: (schema: unknown, where: Subschema) => unknown,
  filter: SubschemaFilter = {},
  into?: Record<string, unknown>,
): Record<string, unknown> {
  let out = into;
  for (const keyword in node) {
    const entry = BY_NAME.get(keyword);
    if (entry === undefined || (filter.sameValueOnly && !entry.sameValue) || (filter.skipDefinitions && entry.definitions)) continue;
    const { holds, judges, sameValue } = entry;
    const held = node[keyword];
    if (holds === 'one') {
      if (!isSchema(held)) continue;
      const rewritten = rewrite(held, { keyword, key: undefined, schema: held, judges, sameValue });
      if (rewritten !== held) (out ??= { ...node })[keyword] = rewritten;
    } else if (holds === 'list') {
      if (!Array.isArray(held)) continue;
      let copy: unknown[] | undefined;
      for (let index = 0; index < held.length; index++) {
        const schema: unknown = held[index];
        if (!isSchema(schema)) continue;
        const rewritten = rewrite(schema, { keyword, key: String(index), schema, judges, sameValue });
        if (rewritten !== schema) (copy ??= [...held])[index] = rewritten;
      }
      if (copy) (out ??= { ...node })[keyword] = copy;
    } else if (isObject(held)) {
      let copy: Record<string, unknown> | undefined;
      for (const name of Object.keys(held)) {
        const schema = held[name];
        if (!isSchema(schema)) continue;
        const rewritten = rewrite(schema, { keyword, key: name, schema, judges, sameValue });
        if (rewritten !== schema) (copy ??= { ...held })[name] = rewritten;
      }
      if (copy) (out ??= { ...node })[keyword] = copy;
    }
  }
  return out ?? node;
}
