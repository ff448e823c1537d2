/**
 * response_echoes_request: the resource created names exactly what was sent, for every property
 * the success response declares and the request carries (for the bundled spec: name and tag),
 * character for character; a property sent with its schema's `default` may be left out. A declared
 * property that was not sent but comes back is a warning, except in a PATCH's answer (the whole record).
 * A value declared writeOnly there is never answered; one the answer declares with another schema that
 * cannot hold the value sent (a card number answered masked) may differ, a provider choice at most; a
 * wider answer schema (the request's bounds left out) still holds it, so it is compared. A record
 * sent and answered in an envelope (`{"article": {...}}`) is compared inside it, as the mock stores it; one
 * a create answers as the item of a list (`[{...}]`, `{"groups": [{...}], "took": 3}`) is compared in the item.
 * Inside a value sent, objects are compared member by member as the request's schema reads them: a
 * member it declares readOnly (the server's to set) or writeOnly (a nested password) is not expected
 * back, and the answer's object may hold members not sent (the server's, or a default). In a PATCH
 * whose media type is not a patch format (RFC 5789 leaves `application/json` to the API) an object
 * sent may be merged into the record's, as RFC 7396 and OData 4.01 §11.4.3 do (members it does not
 * name kept, a null one removed) or replace it: the answer's object must hold every member sent,
 * either way. Arrays and scalars must come back as sent.
 */
import { exactInteger } from '../../openapi/schema/exact-json.js';
import { isObject } from '../../openapi/schema/resolve.js';
import { abbreviate } from '../generators/json-text.js';
import type { Check, Problem } from '../model.js';
import type { JsonSchema, SuiteContract } from '../spec-contract.js';
import { parsedBodyOf } from '../spec-contract.js';
import { answered, failure, info, isSuccess, warning } from './verdicts.js';

export const responseEchoesRequest: Check = {
  name: 'response_echoes_request',
  proves: 'the created resource names exactly what was sent, for every property the success response declares',
  judge(exchange, { contract }) {
    const response = answered(exchange);
    const sentBody = exchange.case.request.plant;
    const declared = response && contract.responses.get(response.status);
    if (!response || !declared || !isSuccess(response.status) || !sentBody) return undefined;
    const parsed = parsedBodyOf(response);
    const { validate } = declared;
    // A body that is not the declared schema is response_schema_conformance's to report.
    if (!parsed.ok || !validate?.(parsed.value)) return undefined;
    const placed = answeredRecord(parsed.value, contract);
    // An enveloped record (`{"article": {...}}` sent and answered): the values sent and echoed are inside the envelope.
    const member = contract.envelope;
    if (!placed || (member !== undefined && !declared.properties.includes(member))) return undefined;
    const { got, holds: placedIn } = placed;
    const sent = member === undefined ? sentBody : sentBody[member];
    if (!isObject(got) || !isObject(sent)) return undefined;
    /** Whether the answer's schema holds this record in its place. */
    const holds = (record: Record<string, unknown>): boolean => validate(placedIn(record));
    const problems: Problem[] = [];
    const own = member === undefined && contract.createdAs === undefined;
    for (const name of own ? contract.echoed.filter((echoed) => declared.properties.includes(echoed)) : contract.echoed) {
      const had = Object.hasOwn(sent, name);
      const has = Object.hasOwn(got, name);
      // A PATCH's null may remove the member (RFC 7396, JSON merge patch), which many JSON PATCH APIs follow: absent is an answer too.
      if (had && !has && sent[name] === null && contract.method === 'PATCH') continue;
      // A value equal to the schema's default may be left out: the answer still says it.
      if (had && !has && contract.echoDefaults.has(name) && sameValue(sent, { [name]: contract.echoDefaults.get(name) }, name)) continue;
      // A property the answer declares with another schema, whose answer could not hold the value sent (a card number
      // masked), is transformed: its value there is the provider's. A wider schema (no maxLength) still holds it, so it is compared.
      const transformed = contract.transformed?.has(name) === true && (!has || !holds({ ...got, [name]: sent[name] }));
      if (had && !has && !transformed) problems.push(failure(`The answer has no ${name}, but the request sent ${name} ${show(sent, name)}.`));
      else if (had && has && !echoes(sent, got, name, requestSchemaOf(contract, name, member), contract.method === 'PATCH', 0)) {
        problems.push(
          transformed
            ? info(`${difference(name, sent, got)} The answer declares ${name} with another schema than the request, so the provider may transform it.`)
            : failure(difference(name, sent, got)),
        );
      }
      // A PATCH answers the whole record: a property it did not send is the record's own, not an invention.
      else if (!had && has && contract.method !== 'PATCH') problems.push(warning(`The answer has ${name} ${show(got, name)}, but the request sent no ${name}.`));
    }
    return problems;
  },
};

/**
 * The record an answer holds, and the answer with another record in its place: the answer itself, its
 * envelope's member, or the item of the list a create answers what it made in (`[{...}]`, `{"groups": [{...}]}`).
 */
function answeredRecord(value: unknown, contract: SuiteContract): { got: unknown; holds: (record: Record<string, unknown>) => unknown } | undefined {
  const shape = contract.createdAs;
  if (shape?.kind === 'array') return Array.isArray(value) ? { got: value[0], holds: (record) => [record] } : undefined;
  if (!isObject(value)) return undefined;
  if (shape?.kind === 'wrapped') {
    const list = value[shape.property];
    return Array.isArray(list) ? { got: list[0], holds: (record) => ({ ...value, [shape.property]: [record] }) } : undefined;
  }
  const member = contract.envelope;
  return member === undefined ? { got: value, holds: (record) => record } : { got: value[member], holds: (record) => ({ ...value, [member]: record }) };
}

/** The inlined request schema of a property of the record sent (its first variant's): top-level, or inside the envelope. */
function requestSchemaOf(contract: SuiteContract, name: string, envelope: string | undefined): JsonSchema | undefined {
  if (envelope === undefined) return contract.requestBody?.properties.find((p) => p.name === name)?.schema;
  return memberSchemas(contract.requestBody?.properties.find((p) => p.name === envelope)?.schema, name)[0];
}

/** Deeper than this a value is compared as written (JSON text): a bound on the walk, beyond any real body's nesting. */
const MAX_ECHO_DEPTH = 64;

/**
 * Whether `got[key]` says what `sent[key]` said, read by `schema` (the request's, inlined): integers by
 * their exact digits; objects by the members sent, those the schema declares readOnly or writeOnly aside,
 * the answer free to hold more (in a PATCH a member sent null may be gone, RFC 7396); arrays item by item.
 */
function echoes(sentIn: object, gotIn: object, key: string, schema: JsonSchema | undefined, patch: boolean, depth: number): boolean {
  const a = (sentIn as Record<string, unknown>)[key];
  const b = (gotIn as Record<string, unknown>)[key];
  if (typeof a === 'number' && typeof b === 'number') {
    const exact = exactInteger(sentIn, key);
    return exact !== undefined ? exact === exactInteger(gotIn, key) : a === b;
  }
  if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object' || depth > MAX_ECHO_DEPTH) return JSON.stringify(a) === JSON.stringify(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    const items = isObject(schema?.items) ? schema.items : undefined;
    return a.every((_, i) => echoes(a, b, String(i), items, patch, depth + 1));
  }
  for (const member of Object.keys(a)) {
    const candidates = memberSchemas(schema, member);
    // The server's to set (readOnly), or never answered (writeOnly): a provider may answer it otherwise, or not at all.
    if (candidates.some((c) => c.readOnly === true || c.writeOnly === true)) continue;
    if (!Object.hasOwn(b, member)) {
      if (patch && (a as Record<string, unknown>)[member] === null) continue;
      return false;
    }
    if (!echoes(a, b, member, candidates[0], patch, depth + 1)) return false;
  }
  return true;
}

/** The schemas an object schema gives a member: its property's, a union branch's, else its additionalProperties'. */
function memberSchemas(schema: JsonSchema | undefined, member: string): JsonSchema[] {
  if (!schema) return [];
  const out: JsonSchema[] = [];
  const own = isObject(schema.properties) ? schema.properties[member] : undefined;
  if (isObject(own)) out.push(own);
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    for (const branch of Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]) : []) {
      const inBranch = isObject(branch) && isObject(branch.properties) ? branch.properties[member] : undefined;
      if (isObject(inBranch)) out.push(inBranch);
    }
  }
  if (out.length === 0 && isObject(schema.additionalProperties)) out.push(schema.additionalProperties);
  return out;
}

function sameValue(sent: Record<string, unknown>, got: Record<string, unknown>, name: string): boolean {
  const a = sent[name];
  const b = got[name];
  if (typeof a === 'number' && typeof b === 'number') return exactInteger(sent, name) !== undefined ? exactInteger(sent, name) === exactInteger(got, name) : a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A member's value for messages; an integer by its exact digits (as a double, 9007199254740993 and 9007199254740992 read the same). */
function show(container: Record<string, unknown>, name: string): string {
  const value = container[name];
  if (typeof value === 'string') return abbreviate(value);
  if (typeof value === 'number') return String(exactInteger(container, name) ?? value);
  return JSON.stringify(value)?.slice(0, 80) ?? String(value);
}

/** Where two values part, in words: for strings, the first code point that differs. */
function difference(name: string, sentBody: Record<string, unknown>, gotBody: Record<string, unknown>): string {
  const sent = sentBody[name];
  const got = gotBody[name];
  if (typeof sent === 'string' && typeof got === 'string') {
    const a = [...sent];
    const b = [...got];
    let at = 0;
    while (at < a.length && at < b.length && a[at] === b[at]) at++;
    const codePoint = (c: string | undefined) => (c === undefined ? 'the end' : `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
    return (
      `The answer's ${name} is ${abbreviate(got)}, but the request sent ${abbreviate(sent)}: ` +
      `they part at character ${at + 1} (sent ${codePoint(a[at])}, got ${codePoint(b[at])}; ${a.length} characters sent, ${b.length} returned).`
    );
  }
  return `The answer's ${name} is ${show(gotBody, name)}, but the request sent ${show(sentBody, name)}.`;
}
