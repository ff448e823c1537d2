/**
 * The mock's own answers (every rejection of ../errors.ts: 400, 401, 404, 405, 406, 409, 413, 415,
 * 500, 502, 503, 504 …) in the shape the spec declares for them. The catalogue decides the status,
 * the message and the headers; this module decides the body and its media type.
 *
 * Which declaration (the first that applies):
 * 1. the operation's response for that status, else its `4XX`/`5XX` range, else its `default`;
 *    an operation that declares none of them: the declaration every operation that does makes
 *    for that status, when they all agree (one error schema written on most operations);
 * 2. no operation takes the request (an unknown path, a method the path does not take): the
 *    declarations of the path item's operations when they all agree, else the document-wide
 *    choice — the declaration most operations make for that status (by 1.), the first in document
 *    order on a tie;
 * 3. nothing declared: our Error, `{"error": status, "message": "…"}` as application/json.
 *
 * How a declared JSON schema is filled: the status goes into an integer property named like a
 * status (`code`, `status`, `statusCode`, `error`, `errorCode`, `httpStatus`), the explanation
 * into a string property named like one (`message`, `detail`, `description`, `msg`,
 * `error_description` …; else `title`/`error`/`reason`), the status's reason phrase into the
 * remaining `title`/`error`/`reason`/`status` strings, the catalogue code into a string `code`;
 * `application/problem+json` gets RFC 9457's `type` (about:blank), `title`, `status` and
 * `detail`; the failing field's name (`genres[0]`) goes into `field`/`property`/`param`-like
 * strings, its JSON pointer into `pointer` (and, inside a list of errors, `path`). An object or an
 * array of objects (`error: {code, message}`, `errors: [{msg, field}]`) is filled the same way,
 * one item, when it is required or the body has no string for the message; an array of strings
 * gets the message as its one item. Other required properties get a value their schema allows
 * (the core's sampler, openapi/schema/sample.ts, with only what the schema requires). The body is validated against the
 * schema; what fails is replaced by the response's example's value or removed, and a body that
 * still fails is the response's example itself. A response declared without content is answered
 * without a body; a `text/*` one with the message as text. A response declaring XML and no JSON
 * (`application/xml`, `text/xml`, `+xml`) gets the same members as elements of one root element
 * (the schema's `xml.name`, else its component's name, else `error`; a property's `xml.name` and
 * `xml.attribute` honoured), written by fast-xml-parser, which escapes the text. A YAML one gets the
 * JSON body's text (YAML 1.2 holds JSON); a `multipart/*` object its members as parts; any other
 * type (binary, CSV …) our Error as JSON.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import type { XMLBuilder } from 'fast-xml-parser';
import { declaredFor, type CompiledContract, type ContractMediaType, type ContractOperation, type ContractResponse } from '../../openapi/operations/model.js';
import { firstJson, isXmlMediaType, isYamlMediaType, mediaEssence } from '../../openapi/media-types.js';
import { pathTemplatePattern, type PathTemplate } from '../../openapi/operations/paths.js';
import { isObject, jsonPointerTokens, refName, resolveRef, unescapePointerToken, type Schema } from '../../openapi/schema/resolve.js';
import { leastSample } from '../../openapi/schema/sample.js';
import { flattenObject, typesOf } from '../../openapi/schema/shape.js';
import { errorBody, type Rejection } from '../errors.js';
import type { Answer } from '../http/answer.js';

// The rule lives in the spec layer (the contract suite uses it too); re-exported for the mock's modules that import it from here.
export { declaredFor };

/** Where a rejection is answered: by an operation, or at a path no operation of the request's method takes. */
export interface AnswerPlace {
  operation?: ContractOperation;
  /** The request's path, when no operation takes it: its path item's operations may agree on a shape. */
  path?: string;
}

/** How one status is answered at one place. */
export type ErrorShape =
  | { kind: 'ours' }
  | { kind: 'empty' }
  | { kind: 'text'; mediaType: string }
  | {
      kind: 'json';
      mediaType: string;
      media: ContractMediaType;
      fields: readonly Field[];
      example: unknown;
      whole: 'object' | 'string' | 'integer';
      xml?: XmlPlan;
      /** Written as multipart parts, one per member (a `multipart/*` declaration). */
      multipart?: true;
      /** A `oneOf`/`anyOf` of objects: each branch's fields, tried when the body of `fields` fails the schema. */
      branches?: readonly Branch[];
      /** Where the schema's refs point: a member mended after the fact is sampled there. */
      document?: unknown;
    };

/** How an error body becomes XML: the root element's name and each member's element or attribute name. */
interface XmlPlan {
  builder: XMLBuilder;
  root: string;
  /** Member name → its element name, or its attribute name prefixed with `@_`. */
  names: ReadonlyMap<string, string>;
}

/**
 * What a property carries: the rejection's status, message, reason phrase, catalogue code; RFC
 * 9457's type; the failing field's name (`genres[0]`) or JSON pointer; a fixed value; an object of
 * fields of its own (`error: {code, message}`); an array of one such object (`errors: [{msg,
 * field}]`), or of the message alone (`errors: ["…"]`).
 */
type Source =
  | 'status'
  | 'message'
  | 'phrase'
  | 'code'
  | 'problem-type'
  | 'field-name'
  | 'field-pointer'
  | 'messages'
  | { value: unknown }
  | { choices: readonly unknown[] }
  | { object: readonly Field[] }
  | { items: readonly Field[] };

interface Field {
  name: string;
  source: Source;
  /** For the message: the longest the schema allows. */
  maxLength?: number;
  /** The property's schema and whether its object requires it: what mends a value the schema refuses. */
  schema?: Schema;
  required?: boolean;
}

/** A union's branch: its fields (its enum and const members filled, which tell the branches apart) and the names it goes by. */
interface Branch {
  fields: readonly Field[];
  /** Its component's name and title, lower case (`error_401 unauthorized error`): which status it is for. */
  names: string;
}

const OURS: ErrorShape = Object.freeze({ kind: 'ours' });
const EMPTY: ErrorShape = Object.freeze({ kind: 'empty' });

const STATUS_NAMES = new Set(['code', 'status', 'statuscode', 'httpstatus', 'httpstatuscode', 'httpcode', 'error', 'errorcode']);
const MESSAGE_NAMES = new Set(['message', 'detail', 'details', 'description', 'errordescription', 'errormessage', 'msg', 'errormsg', 'developermessage', 'usermessage']);
const PHRASE_NAMES = new Set(['title', 'error', 'reason', 'reasonphrase', 'statustext', 'status', 'summary']);
const CODE_NAMES = new Set(['code', 'errorcode']);
/** Where an error names the field it concerns, by name … */
const FIELD_NAMES = new Set(['field', 'fieldname', 'property', 'propertyname', 'param', 'parameter', 'attribute', 'key']);
/** … or by JSON pointer (`path` only inside an error's list: at the top it is the request's path, as Spring writes it). */
const POINTER_NAMES = new Set(['pointer', 'jsonpointer', 'fieldpointer']);
const NESTED_POINTER_NAMES = new Set(['path', 'fieldpath', 'location', 'loc']);
/** How deep error objects nest (`{error: {details: [{…}]}}`) before the rest is left to sampling. */
const MOST_NESTING = 3;

const normalised = (name: string): string => name.toLowerCase().replace(/[-_]/g, '');

/** The realm of a 401's challenge: the spec's title in lower-case words joined by `-` (`Plant Store` → `plant-store`). */
export function realmOf(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 64) || 'api'
  );
}

/** Renders rejections in the shapes one spec declares; shapes are worked out once per operation and status. */
export class ErrorAnswers {
  readonly #byOperation = new Map<ContractOperation, Map<number, ErrorShape>>();
  readonly #documentWide = new Map<number, ErrorShape>();
  readonly #unanimous = new Map<number, ErrorShape>();
  readonly #operations: ReadonlyArray<{ operation: ContractOperation; pattern: PathTemplate; method: string }>;
  readonly #document: unknown;

  constructor(contract: CompiledContract) {
    this.#document = contract.document;
    this.#operations = [...contract.operations.values()].map((operation) => ({ operation, pattern: pathTemplatePattern(operation.path), method: operation.method.toUpperCase() }));
  }

  /** The operation of the document `method` and `path` reach (a static path before a template), if any. */
  operationAt(method: string, path: string): ContractOperation | undefined {
    let found: ContractOperation | undefined;
    for (const { operation, pattern, method: m } of this.#operations) {
      if (m !== method || !pattern.test(path)) continue;
      if (!operation.path.includes('{')) return operation;
      found ??= operation;
    }
    return found;
  }

  /** The rejection's answer at `place`: its status and headers, the body in the declared shape. */
  answer(rejection: Rejection, place: AnswerPlace): Answer {
    const declared = withDeclaredStatus(rejection, place.operation);
    return renderShape(this.shape(declared.status, place), declared);
  }

  /** An answer that carries a rejection, re-rendered at `place` (everything else it carries kept). */
  render(answer: Answer, place: AnswerPlace): Answer {
    if (!answer.rejection) return answer;
    const rejection = withDeclaredStatus(answer.rejection, place.operation);
    const shape = this.shape(rejection.status, place);
    if (shape.kind === 'ours' && rejection === answer.rejection) return answer;
    const rendered = renderShape(shape, rejection);
    // What the request path added to the rejection's own headers (Preference-Applied on a forced
    // error) stays; the media type is the shape's.
    const added = { ...answer.headers };
    delete added['content-type'];
    return { ...answer, status: rendered.status, rejection, body: rendered.body, headers: { ...added, ...rendered.headers } };
  }

  shape(status: number, place: AnswerPlace): ErrorShape {
    if (place.operation) {
      const own = this.#ofOperation(place.operation, status);
      return declaredFor(place.operation, status) ? own : this.#agreed(status);
    }
    if (place.path !== undefined) {
      const shapes = new Map<string, ErrorShape>();
      for (const { operation, pattern } of this.#operations) {
        if (!pattern.test(place.path)) continue;
        const shape = this.#ofOperation(operation, status);
        shapes.set(keyOf(shape), shape);
      }
      if (shapes.size === 1) return shapes.values().next().value as ErrorShape;
    }
    return this.#ofDocument(status);
  }

  #ofOperation(operation: ContractOperation, status: number): ErrorShape {
    let byStatus = this.#byOperation.get(operation);
    if (!byStatus) this.#byOperation.set(operation, (byStatus = new Map()));
    let shape = byStatus.get(status);
    if (!shape) byStatus.set(status, (shape = shapeOf(declaredFor(operation, status), this.#document)));
    return shape;
  }

  /**
   * For an operation that declares nothing for `status`: the shape every other operation that
   * declares one for it gives (by its status, range or default), when they all agree; else ours.
   * A spec that writes its error schema on most operations then speaks it on the rest too.
   */
  #agreed(status: number): ErrorShape {
    let shape = this.#unanimous.get(status);
    if (shape) return shape;
    const shapes = new Map<string, ErrorShape>();
    for (const { operation } of this.#operations) {
      if (!declaredFor(operation, status)) continue;
      const declared = this.#ofOperation(operation, status);
      shapes.set(keyOf(declared), declared);
      if (shapes.size > 1) break;
    }
    shape = shapes.size === 1 ? (shapes.values().next().value as ErrorShape) : OURS;
    this.#unanimous.set(status, shape);
    return shape;
  }

  #ofDocument(status: number): ErrorShape {
    let shape = this.#documentWide.get(status);
    if (shape) return shape;
    const votes = new Map<string, { shape: ErrorShape; count: number }>();
    for (const { operation } of this.#operations) {
      if (!declaredFor(operation, status)) continue;
      const declared = this.#ofOperation(operation, status);
      const vote = votes.get(keyOf(declared));
      if (vote) vote.count++;
      else votes.set(keyOf(declared), { shape: declared, count: 1 });
    }
    let best: { shape: ErrorShape; count: number } | undefined;
    for (const vote of votes.values()) if (!best || vote.count > best.count) best = vote;
    shape = best?.shape ?? OURS;
    this.#documentWide.set(status, shape);
    return shape;
  }
}

/**
 * A refused request's status as the operation declares it: 400, else the 422 it declares when it
 * declares no 400 (frontend code written for the declared 422 then runs), else 400 under a `4XX`
 * range or `default`.
 */
function withDeclaredStatus(rejection: Rejection, operation: ContractOperation | undefined): Rejection {
  if (rejection.status !== 400 || !operation || operation.responses.has(400) || !operation.responses.has(422)) return rejection;
  return { ...rejection, status: 422 };
}

/**
 * The header that carries a refusal's reason when the declared answer has no body (a `400`
 * declared without content): the developer still reads why. Printable ASCII, bounded.
 */
export const REASON_HEADER = 'plant-store-reason';
const MAX_REASON_CHARS = 1024;

function reasonHeader(message: string): string {
  const text = message.replace(/[^\x20-\x7e]+/g, ' ').trim();
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS - 3)}...` : text;
}

function keyOf(shape: ErrorShape): string {
  if (shape.kind === 'json') return `json ${shape.mediaType} ${JSON.stringify(shape.media.schema ?? null)}`;
  if (shape.kind === 'text') return `text ${shape.mediaType}`;
  return shape.kind;
}

/** How a declared response is answered. */
export function shapeOf(response: ContractResponse | undefined, document?: unknown): ErrorShape {
  if (!response) return OURS;
  if (response.content.size === 0) return EMPTY;
  const entries = [...response.content.values()];
  const media = entries.find((m) => mediaEssence(m.mediaType) === 'application/problem+json') ?? firstJson(response.content);
  if (!media) {
    const xml = entries.find((m) => isXmlMediaType(m.mediaType));
    if (xml) return xmlShape(xml, document);
    // YAML 1.2 holds JSON: the body is filled as a JSON one is, and its JSON text is a YAML document of that value.
    const yaml = entries.find((m) => isYamlMediaType(m.mediaType));
    if (yaml) return filledShape(yaml, document);
    const text = entries.find((m) => mediaEssence(m.mediaType).startsWith('text/'));
    if (text) return { kind: 'text', mediaType: text.mediaType };
    // A multipart object: each member of the filled body one part, named by its property (OpenAPI's multipart).
    const multipart = entries.find((m) => mediaEssence(m.mediaType).startsWith('multipart/') && (m.type === 'object' || m.propertySchemas.size > 0));
    if (multipart) return { ...(filledShape(multipart, document) as Extract<ErrorShape, { kind: 'json' }>), multipart: true };
    // Other declared types (binary, CSV …): our Error stays JSON rather than a body that only pretends to be of that type.
    return OURS;
  }
  return filledShape(media, document);
}

/** A body filled member by member from the media type's schema (JSON, and YAML's JSON text). */
function filledShape(media: ContractMediaType, document: unknown): ErrorShape {
  const example = media.examples[0]?.value;
  if (media.type === 'string') return { kind: 'json', mediaType: media.mediaType, media, fields: [], example, whole: 'string' };
  if (media.type === 'integer' || media.type === 'number') return { kind: 'json', mediaType: media.mediaType, media, fields: [], example, whole: 'integer' };
  if (media.schema === undefined) return { kind: 'json', mediaType: media.mediaType, media, fields: OUR_FIELDS, example, whole: 'object' };
  const branches = branchesOf(media, document);
  return { kind: 'json', mediaType: media.mediaType, media, fields: fieldsOf(media, document), example, whole: 'object', document, ...(branches ? { branches } : {}) };
}

/**
 * The branches of an error schema that is a `oneOf`/`anyOf` of objects (PayPal's error_default:
 * error_400 … error_503, each naming itself by a one-value enum): a body must match exactly one,
 * so each branch's own enum and const members are filled even where optional.
 */
function branchesOf(media: ContractMediaType, document: unknown): Branch[] | undefined {
  const resolved = resolveRef(media.schema, document);
  const listed = isObject(resolved) ? (Array.isArray(resolved.oneOf) ? resolved.oneOf : Array.isArray(resolved.anyOf) ? resolved.anyOf : undefined) : undefined;
  if (!listed?.length) return undefined;
  const problem = mediaEssence(media.mediaType) === 'application/problem+json';
  return listed.map((branch) => {
    const target = resolveRef(branch, document);
    const flat = flattenObject(target, document);
    const fields = propertyFields([...flat.properties], flat.required, { problem, document, depth: 0, union: true });
    const title = isObject(target) && typeof target.title === 'string' ? target.title : '';
    return { fields, names: `${refName(branch) ?? ''} ${title}`.toLowerCase() };
  });
}

/** The branches in the order a status tries them: one named by the status (`error_401`), then by its reason phrase (`Unauthorized Error`), then as listed. */
function byStatus(branches: readonly Branch[], status: number): Branch[] {
  const phrase = (STATUS_CODES[status] ?? '').toLowerCase();
  const number = new RegExp(`(?:^|\\D)${status}(?:\\D|$)`);
  const score = (branch: Branch): number => (number.test(branch.names) ? 2 : phrase !== '' && branch.names.includes(phrase) ? 1 : 0);
  return branches
    .map((branch, index) => ({ branch, index, score: score(branch) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ branch }) => branch);
}

/** The members an XML error carries, filled as a JSON one's are, and where each goes in the document. */
function xmlShape(media: ContractMediaType, document: unknown): ErrorShape {
  const resolved = resolveRef(media.schema, document);
  const root = xmlName(isObject(resolved) ? resolved.xml : undefined) ?? refName(media.schema) ?? 'error';
  const fields = media.schema === undefined || media.type !== 'object' ? OUR_FIELDS : fieldsOf(media, document);
  const names = new Map<string, string>();
  for (const field of fields) {
    const xml = media.propertySchemas.get(field.name)?.xml;
    const name = xmlName(xml) ?? field.name;
    names.set(field.name, isObject(xml) && xml.attribute === true ? `@_${elementName(name)}` : elementName(name));
  }
  const example = media.examples[0]?.value;
  return { kind: 'json', mediaType: media.mediaType, media, fields, example, whole: 'object', xml: { builder: xmlBuilder(), root: elementName(root), names }, document };
}

function xmlName(xml: unknown): string | undefined {
  return isObject(xml) && typeof xml.name === 'string' && xml.name !== '' ? xml.name : undefined;
}

/** A name a spec gives, made a well-formed XML name (a hostile or careless spec's `a b` or `1st` becomes `a_b`, `_1st`). */
function elementName(name: string): string {
  const cleaned = name.replace(/[^\p{L}\p{N}_.-]/gu, '_');
  return /^[\p{L}_]/u.test(cleaned) && !/^xml/i.test(cleaned) ? cleaned : `_${cleaned}`;
}

/** Required when a spec's error is XML (the shape is made on its first use): every other mock starts without the XML library. */
function xmlBuilder(): XMLBuilder {
  const { XMLBuilder: Builder } = createRequire(import.meta.url)('fast-xml-parser') as { XMLBuilder: typeof XMLBuilder };
  return new Builder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: false });
}

/** XML 1.0 cannot carry every character a message may echo (a NUL in a path): those become U+FFFD. */
function xmlSafe(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => xmlSafe(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([name, inner]) => [elementName(name), xmlSafe(inner, depth + 1)]));
}

/** The XML document of an error body; a string (the spec's own XML example) is answered as it is. */
function xmlText(plan: XmlPlan, body: unknown): string {
  if (typeof body === 'string') return body;
  const element: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(isObject(body) ? body : {})) {
    if (value === undefined || value === null) continue;
    element[plan.names.get(name) ?? elementName(name)] = xmlSafe(value, 0);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>${plan.builder.build({ [plan.root]: element }) as string}`;
}

/**
 * A multipart body (RFC 2046) of an error's members: each a part named by its property
 * (`Content-Disposition: form-data; name=…`, as OpenAPI maps an object's properties to parts), a
 * string as text/plain, any other value as JSON (OpenAPI's default encodings); a body without
 * members one JSON part, since a multipart body holds at least one.
 */
function multipartText(body: unknown, boundary: string): string {
  const members = Object.entries(isObject(body) ? body : {}).filter(([, value]) => value !== undefined);
  const part = (headers: string, text: string): string => `--${boundary}\r\n${headers}\r\n\r\n${text}\r\n`;
  const parts = members.length
    ? members.map(([name, value]) =>
        part(
          `Content-Disposition: form-data; name="${name.replace(/["\r\n]/g, (c) => encodeURIComponent(c))}"\r\nContent-Type: ${typeof value === 'string' ? 'text/plain; charset=utf-8' : 'application/json'}`,
          typeof value === 'string' ? value : JSON.stringify(value),
        ),
      )
    : [part('Content-Type: application/json', JSON.stringify(body))];
  return `${parts.join('')}--${boundary}--\r\n`;
}

const OUR_FIELDS: readonly Field[] = [
  { name: 'error', source: 'status' },
  { name: 'message', source: 'message' },
];

/** Which property carries what, in the schema's order. */
function fieldsOf(media: ContractMediaType, document: unknown): Field[] {
  const problem = mediaEssence(media.mediaType) === 'application/problem+json';
  const fields = propertyFields([...media.propertySchemas], new Set(media.required), { problem, document, depth: 0 });
  const taken = new Set(fields.map((field) => field.name));
  // Required properties the schema requires without declaring them (a bare `required`).
  for (const name of media.required) if (!taken.has(name) && !media.propertySchemas.has(name)) fields.push({ name, source: 'message' });
  if (problem) {
    // RFC 9457's members, where the schema did not name them (validation removes what it forbids).
    const fill: Array<[string, Source]> = [
      ['type', 'problem-type'],
      ['title', 'phrase'],
      ['status', 'status'],
      ['detail', 'message'],
    ];
    for (const [name, source] of fill) if (!media.propertySchemas.has(name) && !taken.has(name)) fields.push({ name, source });
  }
  return fields;
}

interface FieldsContext {
  problem: boolean;
  document: unknown;
  /** 0 for the body itself, 1 for an object inside it … */
  depth: number;
  /** A union's branch: its optional enum and const members are filled too, since they tell it from the others. */
  union?: boolean;
}

/**
 * The fields of an object's properties. An object or an array of objects among them carries
 * fields of its own when it is required, or when the object declares no string for the message:
 * `{errors: [{msg, field}]}` says the explanation in `errors[0].msg` rather than nowhere.
 */
function propertyFields(declared: ReadonlyArray<readonly [string, Schema]>, required: ReadonlySet<string>, context: FieldsContext): Field[] {
  const { problem, depth } = context;
  const fields: Field[] = [];
  const hasMessage = declared.some(([name, schema]) => MESSAGE_NAMES.has(normalised(name)) && typesOf(schema).includes('string'));
  let messageGiven = false;
  let statusGiven = false;
  for (const [name, schema] of declared) {
    const key = normalised(name);
    const types = typesOf(schema);
    let source: Source | undefined;
    // A string held to a few values (`const`, `enum`) takes none of ours: it is sampled, if required.
    const free = !('const' in schema) && !Array.isArray(schema.enum);
    if (!free && !types.includes('integer') && !types.includes('number')) source = undefined;
    else if (problem && depth === 0 && name === 'type' && types.includes('string')) source = 'problem-type';
    else if (!statusGiven && STATUS_NAMES.has(key) && (types.includes('integer') || types.includes('number'))) source = 'status';
    else if (types.includes('string') && (MESSAGE_NAMES.has(key) || (!hasMessage && !messageGiven && PHRASE_NAMES.has(key) && key !== 'status'))) source = 'message';
    else if (types.includes('string') && CODE_NAMES.has(key)) source = 'code';
    else if (types.includes('string') && PHRASE_NAMES.has(key)) source = 'phrase';
    else if (types.includes('string') && FIELD_NAMES.has(key)) source = 'field-name';
    else if (types.includes('string') && (POINTER_NAMES.has(key) || (depth > 0 && NESTED_POINTER_NAMES.has(key)))) source = 'field-pointer';
    else if (depth < MOST_NESTING && (required.has(name) || !hasMessage)) source = nestedSource(schema, context);
    if (source === 'status') statusGiven = true;
    if (source === 'message') messageGiven = true;
    if (source === undefined) {
      if (!required.has(name) && !(context.union && !free)) continue;
      // An enum without a const or default: the value that names the status's side, chosen per answer.
      source = Array.isArray(schema.enum) && schema.enum.length > 1 && !('const' in schema) && !('default' in schema) ? { choices: schema.enum } : { value: leastSample(schema, context.document) };
    }
    fields.push({ name, source, maxLength: typeof schema.maxLength === 'number' ? schema.maxLength : undefined, schema, required: required.has(name) });
  }
  return fields;
}

/** The fields of an object property, or of the one item of an array property; undefined when it says nothing of ours. */
function nestedSource(schema: Schema, context: FieldsContext): Source | undefined {
  const types = typesOf(schema);
  const inner = { ...context, depth: context.depth + 1 };
  if (types.includes('object') || (types.length === 0 && isObject(schema.properties))) {
    const fields = objectFields(schema, inner);
    return fields ? { object: fields } : undefined;
  }
  if (!types.includes('array')) return undefined;
  const items = resolveRef(schema.items, context.document);
  if (!isObject(items)) return undefined;
  const itemTypes = typesOf(items);
  if (itemTypes.includes('string') && !itemTypes.includes('object')) return 'messages';
  const fields = objectFields(items, inner);
  return fields ? { items: fields } : undefined;
}

/** An object schema's fields, when one of them carries the message (else the object is just sampled). */
function objectFields(schema: Schema, context: FieldsContext): Field[] | undefined {
  const flat = flattenObject(schema, context.document);
  const fields = propertyFields([...flat.properties], flat.required, context);
  return fields.some(carriesMessage) ? fields : undefined;
}

function carriesMessage(field: Field): boolean {
  const { source } = field;
  if (source === 'message' || source === 'messages') return true;
  if (typeof source !== 'object') return false;
  if ('object' in source) return source.object.some(carriesMessage);
  return 'items' in source && source.items.some(carriesMessage);
}

/** The failing field a rejection names first: its name as a client writes it (`genres[0]`, `items[2].qty`) and its pointer (a body's only). */
export function failingField(rejection: Pick<Rejection, 'fields'>): { name: string; pointer: string | undefined } | undefined {
  const pointer = rejection.fields?.[0];
  if (pointer === undefined || pointer === '') return undefined;
  const tokens = jsonPointerTokens(pointer);
  // A parameter's problems are pointed at as `/query parameter genres/0` (engine/parameter-judge.ts).
  const parameter = /^(?:the )?(?:path|query|header|cookie) parameter (.+)$/.exec(tokens[0] ?? '');
  if (parameter) tokens[0] = parameter[1] as string;
  const name = tokens.map((token, i) => (/^\d+$/.test(token) && i > 0 ? `[${token}]` : i > 0 ? `.${token}` : token)).join('');
  return { name, pointer: parameter ? undefined : pointer };
}

function renderShape(shape: ErrorShape, rejection: Rejection): Answer {
  if (shape.kind === 'ours') return { status: rejection.status, body: errorBody(rejection), headers: rejection.headers, rejection };
  if (shape.kind === 'empty') return { status: rejection.status, headers: { ...rejection.headers, [REASON_HEADER]: reasonHeader(rejection.message) }, rejection };
  const headers = { ...rejection.headers, 'content-type': shape.mediaType };
  if (shape.kind === 'text') return { status: rejection.status, body: rejection.message, headers, rejection };
  if (shape.xml) return { status: rejection.status, body: xmlText(shape.xml, bodyOf(shape, rejection)), headers, rejection };
  if (shape.multipart) {
    // A boundary no echoed request text can guess, so no member can end its part early.
    const boundary = `plant-store-${randomUUID()}`;
    const body = multipartText(bodyOf(shape, rejection), boundary);
    return { status: rejection.status, body, headers: { ...headers, 'content-type': `${mediaEssence(shape.mediaType)}; boundary=${boundary}` }, rejection };
  }
  const body = JSON.stringify(bodyOf(shape, rejection));
  // A schema that leaves the message no room (an enum's fixed text, an example answered): the reason goes in the header.
  const carried = body.includes(JSON.stringify(rejection.message).slice(1, -1));
  return { status: rejection.status, body, headers: carried ? headers : { ...headers, [REASON_HEADER]: reasonHeader(rejection.message) }, rejection };
}

/** The body of a JSON shape for `rejection`, valid against the schema wherever the schema allows it. */
export function bodyOf(shape: Extract<ErrorShape, { kind: 'json' }>, rejection: Pick<Rejection, 'status' | 'message' | 'code' | 'fields'>): unknown {
  const validate = shape.media.schema === undefined ? undefined : shape.media.validate;
  if (shape.whole === 'string') return valid(rejection.message, validate) ? rejection.message : (shape.example ?? rejection.message);
  if (shape.whole === 'integer') return valid(rejection.status, validate) ? rejection.status : (shape.example ?? rejection.status);
  const body = objectOf(shape.fields, rejection);
  if (!validate || validate(body)) return body;
  // A union: the first branch, in the status's order, whose body the whole schema takes (exactly one branch, for a oneOf).
  for (const branch of byStatus(shape.branches ?? [], rejection.status)) {
    const filled = objectOf(branch.fields, rejection);
    if (validate(filled)) return filled;
  }
  validate(body);
  return repaired(body, validate, shape) ?? shape.example ?? body;
}

function objectOf(fields: readonly Field[], rejection: Pick<Rejection, 'status' | 'message' | 'code' | 'fields'>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = valueOf(field, rejection);
    if (value !== undefined) body[field.name] = value;
  }
  return body;
}

/** A field's value; undefined leaves the property out (the failing field, when the rejection names none). */
function valueOf(field: Field, rejection: Pick<Rejection, 'status' | 'message' | 'code' | 'fields'>): unknown {
  const { source } = field;
  if (typeof source === 'object') {
    if ('value' in source) return structuredClone(source.value);
    if ('choices' in source) return chosen(source.choices, rejection.status);
    if ('object' in source) return objectOf(source.object, rejection);
    return [objectOf(source.items, rejection)];
  }
  switch (source) {
    case 'messages':
      return [rejection.message];
    case 'field-name':
      return failingField(rejection)?.name;
    case 'field-pointer':
      return failingField(rejection)?.pointer;
    case 'status':
      return rejection.status;
    case 'message':
      return field.maxLength !== undefined && rejection.message.length > field.maxLength
        ? `${rejection.message.slice(0, Math.max(field.maxLength - 1, 0))}…`.slice(0, field.maxLength)
        : rejection.message;
    case 'phrase':
      return STATUS_CODES[rejection.status] ?? 'Error';
    case 'code':
      return rejection.code;
    case 'problem-type':
      return 'about:blank';
  }
}

/**
 * Of an enum's values, the status itself, else one naming its side (`server` for a 5xx, `client`
 * for a 4xx), else the first that is no other status: an error kind `[client, server]` does not
 * call a 500 the client's.
 */
function chosen(choices: readonly unknown[], status: number): unknown {
  const exact = choices.find((choice) => choice === status || choice === String(status));
  if (exact !== undefined) return structuredClone(exact);
  // Another status's value would misname this one.
  const others = choices.filter((choice) => !/^[1-5]\d\d$/.test(String(choice)));
  const candidates = others.length ? others : choices;
  const side = status >= 500 ? /server|internal|fatal|unavailable/i : /client|invalid|request|validation|user/i;
  const named = candidates.find((choice) => typeof choice === 'string' && side.test(choice));
  return structuredClone(named ?? candidates[0]);
}

function valid(value: unknown, validate: ValidateFunction | undefined): boolean {
  return !validate || validate(value) === true;
}

/**
 * The body with what the schema refuses replaced: a property by the example's value, else
 * removed (a required one: a sampled value); at most a few passes. Undefined when still invalid.
 */
function repaired(body: Record<string, unknown>, validate: ValidateFunction, shape: Extract<ErrorShape, { kind: 'json' }>): Record<string, unknown> | undefined {
  const example = isObject(shape.example) ? shape.example : {};
  const required = new Set(shape.media.required);
  const replaced = new Set<string>();
  for (let pass = 0; pass < 4; pass++) {
    for (const error of validate.errors ?? []) {
      if (error.keyword === 'additionalProperties' && error.instancePath === '') {
        delete body[String(error.params.additionalProperty)];
        continue;
      }
      if (mendNested(body, error, shape)) continue;
      const name = error.instancePath === '' ? (error.keyword === 'required' ? String(error.params.missingProperty) : undefined) : topProperty(error.instancePath);
      if (name === undefined) continue;
      if (!replaced.has(name) && name in example) {
        replaced.add(name);
        body[name] = structuredClone(example[name]);
      } else if (!required.has(name)) delete body[name];
      else {
        const schema = shape.media.propertySchemas.get(name);
        body[name] = schema ? leastSample(schema, shape.document) : null;
      }
    }
    if (validate(body)) return body;
  }
  return undefined;
}

/**
 * Mends what the schema refuses inside a nested error object our fields filled (`/errors/0/field`):
 * a property it forbids or that fails and is optional is left out, a required one sampled. False
 * when the error is not about such a property (the caller mends at the top).
 */
function mendNested(body: Record<string, unknown>, error: ErrorObject, { fields, document }: Extract<ErrorShape, { kind: 'json' }>): boolean {
  const tokens = jsonPointerTokens(error.instancePath);
  const named = error.keyword === 'required' ? String(error.params.missingProperty) : error.keyword === 'additionalProperties' ? String(error.params.additionalProperty) : undefined;
  const target = named === undefined ? tokens : [...tokens, named];
  if (target.length < 2) return false;
  let container: unknown = body;
  let level: readonly Field[] | undefined = fields;
  for (const token of target.slice(0, -1)) {
    if (Array.isArray(container)) {
      container = container[Number(token)];
      continue;
    }
    if (!isObject(container)) return false;
    const source: Source | undefined = level?.find((field) => field.name === token)?.source;
    level = typeof source === 'object' ? ('object' in source ? source.object : 'items' in source ? source.items : undefined) : undefined;
    container = container[token];
  }
  const leaf = target[target.length - 1] as string;
  if (!isObject(container)) return false;
  const field = level?.find((f) => f.name === leaf);
  if (error.keyword === 'additionalProperties' || (error.keyword !== 'required' && !field?.required)) delete container[leaf];
  else container[leaf] = field?.schema ? leastSample(field.schema, document) : null;
  return true;
}

function topProperty(pointer: string): string {
  const end = pointer.indexOf('/', 1);
  return unescapePointerToken(end === -1 ? pointer.slice(1) : pointer.slice(1, end));
}
