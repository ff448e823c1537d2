/**
 * The mock's own answers (every rejection of ../errors.ts: 400, 401, 404, 405, 409, 413, 415,
 * 500, 502, 503, 504 …) in the shape the spec declares for them. The catalogue decides the status,
 * the message and the headers; this module decides the body and its media type.
 *
 * Which declaration (the first that applies):
 * 1. the operation's response for that status, else its `4XX`/`5XX` range, else its `default`;
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
 * `detail`. Other required properties get a value their schema allows (const, default, enum,
 * example, a value of the format, the smallest of the type). The body is validated against the
 * schema; what fails is replaced by the response's example's value or removed, and a body that
 * still fails is the response's example itself. A response declared without content is answered
 * without a body; a `text/*` one with the message as text. A response declaring XML and no JSON
 * (`application/xml`, `text/xml`, `+xml`) gets the same members as elements of one root element
 * (the schema's `xml.name`, else its component's name, else `error`; a property's `xml.name` and
 * `xml.attribute` honoured), written by fast-xml-parser, which escapes the text.
 */
import { STATUS_CODES } from 'node:http';
import type { ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import type { XMLBuilder } from 'fast-xml-parser';
import { isJsonMediaType, mediaEssence, pathTemplatePattern, type CompiledContract, type ContractMediaType, type ContractOperation, type ContractResponse, type Schema } from '../../spec/contract.js';
import { isObject as isSchemaObject, refName, resolveRef, typesOf } from '../../spec/schema.js';
import { errorBody, type Rejection } from '../errors.js';
import type { Answer } from '../http/answer.js';

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
  | { kind: 'json'; mediaType: string; media: ContractMediaType; fields: readonly Field[]; example: unknown; whole: 'object' | 'string' | 'integer'; xml?: XmlPlan };

/** How an error body becomes XML: the root element's name and each member's element or attribute name. */
interface XmlPlan {
  builder: XMLBuilder;
  root: string;
  /** Member name → its element name, or its attribute name prefixed with `@_`. */
  names: ReadonlyMap<string, string>;
}

type Source = 'status' | 'message' | 'phrase' | 'code' | 'problem-type' | { value: unknown };

interface Field {
  name: string;
  source: Source;
  /** For the message: the longest the schema allows. */
  maxLength?: number;
}

const OURS: ErrorShape = Object.freeze({ kind: 'ours' });
const EMPTY: ErrorShape = Object.freeze({ kind: 'empty' });

const STATUS_NAMES = new Set(['code', 'status', 'statuscode', 'httpstatus', 'httpstatuscode', 'httpcode', 'error', 'errorcode']);
const MESSAGE_NAMES = new Set(['message', 'detail', 'details', 'description', 'errordescription', 'errormessage', 'msg', 'errormsg', 'developermessage', 'usermessage']);
const PHRASE_NAMES = new Set(['title', 'error', 'reason', 'reasonphrase', 'statustext', 'status', 'summary']);
const CODE_NAMES = new Set(['code', 'errorcode']);

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
  readonly #operations: ReadonlyArray<{ operation: ContractOperation; pattern: RegExp; method: string }>;
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
    const shape = this.shape(rejection.status, place);
    return renderShape(shape, rejection);
  }

  /** An answer that carries a rejection, re-rendered at `place` (everything else it carries kept). */
  render(answer: Answer, place: AnswerPlace): Answer {
    const rejection = answer.rejection;
    if (!rejection) return answer;
    const shape = this.shape(rejection.status, place);
    if (shape.kind === 'ours') return answer;
    const rendered = renderShape(shape, rejection);
    return { ...answer, body: rendered.body, headers: rendered.headers };
  }

  shape(status: number, place: AnswerPlace): ErrorShape {
    if (place.operation) return this.#ofOperation(place.operation, status);
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

/** The response an operation declares for an error status: exact, its range, or default. */
export function declaredFor(operation: ContractOperation, status: number): ContractResponse | undefined {
  return operation.responses.get(status) ?? operation.ranges?.get(`${Math.floor(status / 100)}XX`) ?? operation.responses.get('default');
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
  const media = entries.find((m) => mediaEssence(m.mediaType) === 'application/problem+json') ?? entries.find((m) => isJsonMediaType(mediaEssence(m.mediaType)));
  if (!media) {
    const xml = entries.find((m) => isXmlMediaType(mediaEssence(m.mediaType)));
    if (xml) return xmlShape(xml, document);
    const text = entries.find((m) => mediaEssence(m.mediaType).startsWith('text/'));
    // Other declared types (binary, CSV …): our Error stays JSON rather than a body that only pretends to be of that type.
    return text ? { kind: 'text', mediaType: text.mediaType } : OURS;
  }
  const example = media.examples[0]?.value;
  if (media.type === 'string') return { kind: 'json', mediaType: media.mediaType, media, fields: [], example, whole: 'string' };
  if (media.type === 'integer' || media.type === 'number') return { kind: 'json', mediaType: media.mediaType, media, fields: [], example, whole: 'integer' };
  if (media.schema === undefined) return { kind: 'json', mediaType: media.mediaType, media, fields: OUR_FIELDS, example, whole: 'object' };
  return { kind: 'json', mediaType: media.mediaType, media, fields: fieldsOf(media), example, whole: 'object' };
}

function isXmlMediaType(essence: string): boolean {
  return essence === 'application/xml' || essence === 'text/xml' || essence.endsWith('+xml');
}

/** The members an XML error carries, filled as a JSON one's are, and where each goes in the document. */
function xmlShape(media: ContractMediaType, document: unknown): ErrorShape {
  const resolved = resolveRef(media.schema, document);
  const root = xmlName(isSchemaObject(resolved) ? resolved.xml : undefined) ?? refName(media.schema) ?? 'error';
  const fields = media.schema === undefined || media.type !== 'object' ? OUR_FIELDS : fieldsOf(media);
  const names = new Map<string, string>();
  for (const field of fields) {
    const xml = media.propertySchemas.get(field.name)?.xml;
    const name = xmlName(xml) ?? field.name;
    names.set(field.name, isSchemaObject(xml) && xml.attribute === true ? `@_${elementName(name)}` : elementName(name));
  }
  const example = media.examples[0]?.value;
  return { kind: 'json', mediaType: media.mediaType, media, fields, example, whole: 'object', xml: { builder: xmlBuilder(), root: elementName(root), names } };
}

function xmlName(xml: unknown): string | undefined {
  return isSchemaObject(xml) && typeof xml.name === 'string' && xml.name !== '' ? xml.name : undefined;
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

const OUR_FIELDS: readonly Field[] = [
  { name: 'error', source: 'status' },
  { name: 'message', source: 'message' },
];

/** Which property carries what, in the schema's order. */
function fieldsOf(media: ContractMediaType): Field[] {
  const problem = mediaEssence(media.mediaType) === 'application/problem+json';
  const required = new Set(media.required);
  const fields: Field[] = [];
  const taken = new Set<string>();
  const declared = [...media.propertySchemas];
  const hasMessage = declared.some(([name, schema]) => MESSAGE_NAMES.has(normalised(name)) && typesOf(schema).includes('string'));
  let messageGiven = false;
  let statusGiven = false;
  for (const [name, schema] of declared) {
    const key = normalised(name);
    const types = typesOf(schema);
    let source: Source | undefined;
    if (problem && name === 'type' && types.includes('string')) source = 'problem-type';
    else if (!statusGiven && STATUS_NAMES.has(key) && (types.includes('integer') || types.includes('number'))) source = 'status';
    else if (types.includes('string') && (MESSAGE_NAMES.has(key) || (!hasMessage && !messageGiven && PHRASE_NAMES.has(key) && key !== 'status'))) source = 'message';
    else if (types.includes('string') && CODE_NAMES.has(key)) source = 'code';
    else if (types.includes('string') && PHRASE_NAMES.has(key)) source = 'phrase';
    if (source === 'status') statusGiven = true;
    if (source === 'message') messageGiven = true;
    if (source === undefined) {
      if (!required.has(name)) continue;
      source = { value: sampleOf(schema) };
    }
    taken.add(name);
    fields.push({ name, source, maxLength: typeof schema.maxLength === 'number' ? schema.maxLength : undefined });
  }
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

function renderShape(shape: ErrorShape, rejection: Rejection): Answer {
  if (shape.kind === 'ours') return { status: rejection.status, body: errorBody(rejection), headers: rejection.headers, rejection };
  if (shape.kind === 'empty') return { status: rejection.status, headers: rejection.headers, rejection };
  const headers = { ...rejection.headers, 'content-type': shape.mediaType };
  if (shape.kind === 'text') return { status: rejection.status, body: rejection.message, headers, rejection };
  if (shape.xml) return { status: rejection.status, body: xmlText(shape.xml, bodyOf(shape, rejection)), headers, rejection };
  return { status: rejection.status, body: JSON.stringify(bodyOf(shape, rejection)), headers, rejection };
}

/** The body of a JSON shape for `rejection`, valid against the schema wherever the schema allows it. */
export function bodyOf(shape: Extract<ErrorShape, { kind: 'json' }>, rejection: Pick<Rejection, 'status' | 'message' | 'code'>): unknown {
  const validate = shape.media.schema === undefined ? undefined : shape.media.validate;
  if (shape.whole === 'string') return valid(rejection.message, validate) ? rejection.message : (shape.example ?? rejection.message);
  if (shape.whole === 'integer') return valid(rejection.status, validate) ? rejection.status : (shape.example ?? rejection.status);
  const body: Record<string, unknown> = {};
  for (const field of shape.fields) body[field.name] = valueOf(field, rejection);
  if (!validate || validate(body)) return body;
  return repaired(body, validate, shape) ?? shape.example ?? body;
}

function valueOf(field: Field, rejection: Pick<Rejection, 'status' | 'message' | 'code'>): unknown {
  const { source } = field;
  if (typeof source === 'object') return structuredClone(source.value);
  switch (source) {
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
      const name = error.instancePath === '' ? (error.keyword === 'required' ? String(error.params.missingProperty) : undefined) : topProperty(error.instancePath);
      if (name === undefined) continue;
      if (!replaced.has(name) && name in example) {
        replaced.add(name);
        body[name] = structuredClone(example[name]);
      } else if (!required.has(name)) delete body[name];
      else {
        const schema = shape.media.propertySchemas.get(name);
        body[name] = schema ? sampleOf(schema) : null;
      }
    }
    if (validate(body)) return body;
  }
  return undefined;
}

function topProperty(pointer: string): string {
  const end = pointer.indexOf('/', 1);
  return (end === -1 ? pointer.slice(1) : pointer.slice(1, end)).replaceAll('~1', '/').replaceAll('~0', '~');
}

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '1970-01-01T00:00:00Z',
  date: '1970-01-01',
  time: '00:00:00Z',
  uri: 'about:blank',
  'uri-reference': 'about:blank',
  iri: 'about:blank',
  'iri-reference': 'about:blank',
  url: 'about:blank',
  email: 'mock@example.invalid',
  'idn-email': 'mock@example.invalid',
  hostname: 'example.invalid',
  'idn-hostname': 'example.invalid',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uuid: '00000000-0000-0000-0000-000000000000',
  duration: 'PT0S',
  byte: '',
};

/** A value `schema` allows, without search: const, default, enum, example, the format's, the type's smallest. */
export function sampleOf(schema: Schema, depth = 0): unknown {
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('example' in schema) return schema.example;
  const types = typesOf(schema);
  const type = types.find((t) => t !== 'null') ?? types[0] ?? 'string';
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return false;
    case 'integer':
    case 'number': {
      const low = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
      const high = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : undefined;
      const value = low ?? (high !== undefined && high < 0 ? high : 0);
      return type === 'integer' ? Math.ceil(value) : value;
    }
    case 'array': {
      const count = typeof schema.minItems === 'number' ? Math.min(schema.minItems, 8) : 0;
      const items = isObject(schema.items) ? schema.items : {};
      return Array.from({ length: count }, () => (depth < 4 ? sampleOf(items, depth + 1) : null));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = isObject(schema.properties) ? schema.properties : {};
      if (depth < 4 && Array.isArray(schema.required)) {
        for (const name of schema.required) {
          if (typeof name !== 'string') continue;
          const inner = properties[name];
          out[name] = isObject(inner) ? sampleOf(inner, depth + 1) : null;
        }
      }
      return out;
    }
    default: {
      const format = typeof schema.format === 'string' ? FORMAT_SAMPLES[schema.format] : undefined;
      if (format !== undefined) return format;
      const min = typeof schema.minLength === 'number' ? Math.min(schema.minLength, 1024) : 0;
      return 'x'.repeat(Math.max(min, typeof schema.maxLength === 'number' ? Math.min(1, schema.maxLength) : 1));
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
