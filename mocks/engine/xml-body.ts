/**
 * An XML request body read into the value its schema describes (OpenAPI's XML Object: an
 * element per property named by `xml.name`, else the property's name; `xml.attribute` read from
 * the root's attributes; an array's items repeated, or inside one element when `xml.wrapped`),
 * so a create sent as XML stores a record like its JSON twin and finds its identity (issue 37).
 * Scalars are converted to the type the schema gives them. fast-xml-parser is loaded on the first
 * XML body only (the mock starts without it).
 */
import { createRequire } from 'node:module';
import type { XMLParser } from 'fast-xml-parser';
import { isObject, type Schema } from '../../openapi/schema/resolve.js';
import { typesOf } from '../../openapi/schema/shape.js';

/** Deeper than this an element is kept as its text (the body's size already bounds the work). */
const MAX_DEPTH = 32;
const ATTRIBUTE = '@_';
const TEXT = '#text';

let parser: XMLParser | undefined;

function xmlParser(): XMLParser {
  const { XMLParser: Parser } = createRequire(import.meta.url)('fast-xml-parser') as { XMLParser: typeof XMLParser };
  // Every value as its text (converted by the schema), entities of the document itself never expanded.
  return (parser ??= new Parser({
    ignoreAttributes: false,
    attributeNamePrefix: ATTRIBUTE,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    isArray: (_name: string, _path: unknown, _leaf: boolean, attribute: boolean) => !attribute,
  }));
}

/** The object an XML body holds for an object schema (`inlined`: refs followed), or undefined when it is no such document. */
export function xmlBodyValue(text: string, inlined: Schema): Record<string, unknown> | undefined {
  if (!typesOf(inlined).includes('object') && !isObject(inlined.properties)) return undefined;
  let document: unknown;
  try {
    document = xmlParser().parse(text, true);
  } catch {
    return undefined;
  }
  if (!isObject(document)) return undefined;
  // The root: the one element that is not the declaration.
  const roots = Object.entries(document).filter(([name]) => !name.startsWith('?'));
  if (roots.length !== 1) return undefined;
  const root = first((roots[0] as [string, unknown])[1]);
  const value = objectOf(root, inlined, 0);
  return isObject(value) ? value : undefined;
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function xmlOf(schema: Schema): { name?: string; attribute?: boolean; wrapped?: boolean } {
  return isObject(schema.xml) ? (schema.xml as { name?: string; attribute?: boolean; wrapped?: boolean }) : {};
}

function objectOf(element: unknown, schema: Schema, depth: number): unknown {
  if (!isObject(element)) return undefined;
  const properties = isObject(schema.properties) ? (schema.properties as Record<string, Schema>) : {};
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (!isObject(property)) continue;
    const xml = xmlOf(property);
    const tag = typeof xml.name === 'string' ? xml.name : name;
    if (xml.attribute === true) {
      const attribute = element[`${ATTRIBUTE}${tag}`];
      if (typeof attribute === 'string') out[name] = scalarOf(attribute, property);
      continue;
    }
    const types = typesOf(property);
    if (types.includes('array')) {
      const items = isObject(property.items) ? (property.items as Schema) : {};
      const itemTag = typeof xmlOf(items).name === 'string' ? (xmlOf(items).name as string) : tag;
      const holder = xml.wrapped === true ? first(element[tag]) : element;
      if (!isObject(holder)) continue;
      const found = holder[itemTag];
      if (Array.isArray(found)) out[name] = found.map((item) => valueOf(item, items, depth + 1));
      continue;
    }
    const found = element[tag];
    if (found !== undefined) out[name] = valueOf(first(found), property, depth + 1);
  }
  return out;
}

function valueOf(element: unknown, schema: Schema, depth: number): unknown {
  if (depth > MAX_DEPTH) return textOf(element);
  if (typesOf(schema).includes('object') || isObject(schema.properties)) return objectOf(element, schema, depth);
  return scalarOf(textOf(element), schema);
}

function textOf(element: unknown): string {
  if (typeof element === 'string') return element;
  if (isObject(element)) return typeof element[TEXT] === 'string' ? element[TEXT] : '';
  return '';
}

/** A text as the type its schema gives (a number, a boolean); as it is where it is no such value. */
function scalarOf(text: string, schema: Schema): unknown {
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text.trim())) return Number(text.trim());
  if (types.includes('boolean') && (text.trim() === 'true' || text.trim() === 'false')) return text.trim() === 'true';
  return text;
}
