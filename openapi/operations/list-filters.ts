/**
 * The exact filters of a list: a query parameter named as a property its items declare, taking a
 * value from a closed set (a string `enum`, or a boolean), as that property does. A list's query
 * parameter named for its records' property keeps the records whose property has that value (the
 * reading a collection's list gets too: collections.ts, filteredProperty); here only where the client
 * can but pick a value, so that equality is the one reading the spec leaves (a free string might be a
 * search, a prefix, a pattern). The mock keeps a list it answers from the spec to the records that
 * match (mocks/engine/examples.ts); the suite judges a list no client fills on its own records
 * (contract-tests/listed-filters.ts).
 */
import { firstJson } from '../media-types.js';
import { isObject, type Schema } from '../schema/resolve.js';
import { mergeAllOf, typesOf } from '../schema/shape.js';
import { successOf, type ContractMediaType, type ContractOperation } from './model.js';

export interface ExactFilter {
  /** The query parameter. */
  parameter: string;
  /** The items' property it keeps records by: the parameter's own name. */
  property: string;
  /** What the values are: one of the enum's strings, or true and false. */
  kind: 'string' | 'boolean';
  /** The values the parameter takes: the enum's strings, or true and false. */
  values: ReadonlyArray<string | boolean>;
  /** The answer's member holding the items (`data` of `{data: [...]}`); undefined for a bare array. */
  wrapper: string | undefined;
  /** The property's `default`, what an item that leaves it out has. */
  absent?: unknown;
}

/** The exact filters of `operation`, a GET answering a JSON list of objects (bare, or as an object's one array member); none otherwise. */
export function exactFilters(operation: ContractOperation, document: unknown): ExactFilter[] {
  if (operation.method !== 'get') return [];
  const media = firstJson(successOf(operation)?.response.content);
  const list = media && listOf(media, document);
  if (!list) return [];
  return operation.parameters.flatMap((parameter): ExactFilter[] => {
    const property = list.items.get(parameter.name);
    if (parameter.in !== 'query' || parameter.required || !parameter.schema || !property) return [];
    const sent = mergeAllOf(parameter.schema, document);
    const itemProperty = mergeAllOf(property, document);
    const held = typesOf(itemProperty);
    const absent = itemProperty.default === undefined ? {} : { absent: itemProperty.default };
    const values = Array.isArray(sent.enum) ? sent.enum : [];
    if (typesOf(sent).join() === 'string' && values.length > 1 && values.every((v) => typeof v === 'string') && held.includes('string')) {
      return [{ parameter: parameter.name, property: parameter.name, kind: 'string', values: values as string[], wrapper: list.wrapper, ...absent }];
    }
    if (typesOf(sent).join() === 'boolean' && held.includes('boolean'))
      return [{ parameter: parameter.name, property: parameter.name, kind: 'boolean', values: [true, false], wrapper: list.wrapper, ...absent }];
    return [];
  });
}

/** The items' declared properties, and the member holding them. */
function listOf(media: ContractMediaType, document: unknown): { items: ReadonlyMap<string, Schema>; wrapper: string | undefined } | undefined {
  const bare = media.itemObject();
  if (bare) return { items: bare.properties, wrapper: undefined };
  const arrays = [...media.propertySchemas].filter(([, schema]) => isObject(mergeAllOf(schema, document).items));
  if (arrays.length !== 1) return undefined;
  const [wrapper] = arrays[0] as [string, Schema];
  const items = media.itemObject(wrapper);
  return items ? { items: items.properties, wrapper } : undefined;
}

/**
 * The items of a list answer `value`: the bare array, or the wrapper's array; undefined when it holds none.
 * `loose` reads a provider's answer whose shape the caller may not know: a bare array whatever the wrapper,
 * and, where the wrapper is unknown or absent, an object's one array member.
 */
export function listedItems(value: unknown, wrapper: string | undefined, loose = false): unknown[] | undefined {
  if (Array.isArray(value)) return wrapper === undefined || loose ? value : undefined;
  if (!isObject(value)) return undefined;
  const wrapped = wrapper === undefined ? undefined : value[wrapper];
  if (Array.isArray(wrapped)) return wrapped;
  if (!loose) return undefined;
  const arrays = Object.values(value).filter(Array.isArray);
  return arrays.length === 1 ? (arrays[0] as unknown[]) : undefined;
}
