/**
 * Schema keywords the dialect (JSON Schema 2020-12, OpenAPI 3.1's) refuses, dropped where they
 * stand so that the rest of the document can be served: `required: true` on a property, 3.0's
 * `examples` map beside a schema, `type: file`, a `minimum` written as a string, draft-04's `id`.
 * Each dropped keyword is one warning naming its pointer. The compiler calls this only when it
 * refused a schema (openapi/operations/compile.ts): a document that follows its dialect pays nothing.
 */
import { DATA_KEYS, NAME_MAPS } from './name-maps.js';
import { SCHEMA_KEYWORDS, subschemas } from '../schema/keywords.js';
import { validateMetaSchema } from '../schema/meta-schema.gen.js';
import { isObject, jsonPointer, pointerTokens } from '../schema/resolve.js';

/** Deeper than any real document; the loader refuses deeper nesting first. */
const MAX_DEPTH = 512;
/** Rounds of checking one schema again after dropping: each drops at least one keyword. */
const MAX_ROUNDS = 64;

/** Drops, in place, every keyword of every schema in `document` that its dialect refuses; returns one warning per keyword dropped. */
export function dropRefusedKeywords(document: Record<string, unknown>, source: string): string[] {
  const warnings: string[] = [];
  for (const { schema, tokens } of schemaRoots(document)) {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const dropped = [...dropDraft4Ids(schema, tokens), ...(validateMetaSchema(schema) ? [] : dropAt(schema, tokens, validateMetaSchema.errors ?? []))];
      warnings.push(...dropped.map((line) => `${source}#${line}`));
      if (dropped.length === 0) break;
    }
  }
  return warnings;
}

interface Root {
  schema: Record<string, unknown>;
  tokens: string[];
}

/** Every schema the document holds at its top: `components.schemas` members and every `schema` of a parameter, media type or header. */
function schemaRoots(document: Record<string, unknown>): Root[] {
  const roots: Root[] = [];
  const walk = (value: unknown, tokens: string[], namesHere: boolean): void => {
    if (tokens.length > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...tokens, String(index)], false));
      return;
    }
    if (!isObject(value)) return;
    for (const key of Object.keys(value)) {
      const inner = value[key];
      const at = [...tokens, key];
      const componentSchema = namesHere && tokens.length === 2 && tokens[0] === 'components' && tokens[1] === 'schemas';
      if ((componentSchema || (!namesHere && key === 'schema')) && isObject(inner)) roots.push({ schema: inner, tokens: at });
      else if (namesHere || !(DATA_KEYS.has(key) || key.startsWith('x-'))) walk(inner, at, !namesHere && NAME_MAPS.has(key));
    }
  };
  walk(document, [], false);
  return roots;
}

/** Drops the keyword each meta-schema error points at; one line per keyword dropped (`pointer: why`). */
function dropAt(root: Record<string, unknown>, rootTokens: readonly string[], errors: readonly { instancePath: string; message?: string }[]): string[] {
  const lines: string[] = [];
  for (const { instancePath, message } of errors) {
    const found = keywordAt(root, pointerTokens(instancePath));
    if (!found) continue;
    const { holder, keyword, tokens } = found;
    if (!Object.hasOwn(holder, keyword)) continue; // another error about the same keyword dropped it already
    const value = JSON.stringify(holder[keyword]) ?? String(holder[keyword]);
    delete holder[keyword];
    lines.push(`${jsonPointer(...rootTokens, ...tokens)}: ${keyword} ${value.length > 60 ? `${value.slice(0, 57)}...` : value} is not JSON Schema 2020-12 (${message ?? 'refused'}); dropped`);
  }
  return lines;
}

/**
 * The schema (or map of subschemas) holding the keyword an error's path ends in or passes through:
 * down the schema keywords (`properties/name`, `items`, `allOf/0`) while the path names them,
 * then the first token that is no such keyword is the one refused.
 */
function keywordAt(root: Record<string, unknown>, path: readonly string[]): { holder: Record<string, unknown>; keyword: string; tokens: string[] } | undefined {
  let node: Record<string, unknown> = root;
  const tokens: string[] = [];
  for (let index = 0; index < path.length;) {
    const keyword = path[index] as string;
    const entry = SCHEMA_KEYWORDS[keyword];
    const held = node[keyword];
    const last = entry === undefined || index + 1 === path.length;
    if (last || (entry.holds === 'one' && !isObject(held)) || (entry.holds !== 'one' && !(isObject(held) || Array.isArray(held)))) return { holder: node, keyword, tokens: [...tokens, keyword] };
    if (entry.holds === 'one') {
      node = held as Record<string, unknown>;
      tokens.push(keyword);
      index += 1;
      continue;
    }
    const member = path[index + 1] as string;
    const inner = Array.isArray(held) ? held[Number(member)] : (held as Record<string, unknown>)[member];
    // The member itself is no schema (`properties: {name: "string"}`): that member is dropped.
    if (!isObject(inner) || index + 2 === path.length) {
      if (isObject(inner) && index + 2 === path.length) return undefined; // an error about the whole subschema: its own keywords are reported apart
      if (Array.isArray(held)) return { holder: node, keyword, tokens: [...tokens, keyword] };
      return { holder: held as Record<string, unknown>, keyword: member, tokens: [...tokens, keyword, member] };
    }
    node = inner;
    tokens.push(keyword, member);
    index += 2;
  }
  return undefined;
}

/** Draft-04's `id` (a string), which Ajv refuses to compile ("use $id"); dropped wherever a schema holds it. */
function dropDraft4Ids(root: Record<string, unknown>, rootTokens: readonly string[]): string[] {
  const lines: string[] = [];
  const visit = (node: unknown, tokens: string[]): void => {
    if (!isObject(node) || tokens.length > MAX_DEPTH) return;
    if (node.id !== undefined) {
      lines.push(`${jsonPointer(...rootTokens, ...tokens, 'id')}: id ${JSON.stringify(node.id) ?? ''} is draft-04's $id, which JSON Schema 2020-12 does not know; dropped`);
      delete node.id;
    }
    for (const { keyword, key, schema } of subschemas(node)) visit(schema, key === undefined ? [...tokens, keyword] : [...tokens, keyword, key]);
  };
  visit(root, []);
  return lines;
}
