/**
 * The one module of the suite that reads the OpenAPI document. It compiles what the suite needs
 * from the operation under test (createPlant by default): method and path, the success status,
 * every declared response (media types, body validator, declared properties), the security
 * scheme, and the request body (media types, validator, properties with their constraints).
 * Everything else in the suite receives this object as data; when the project's compiled
 * contract (spec/contract.ts) lands, only this module changes.
 */
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { load as parseYaml } from 'js-yaml';
import { createSpecAjv } from '../spec/ajv.js';
import { parseExactJson } from '../spec/exact-json.js';
import { SPEC_PATH } from '../spec/index.js';

/** A JSON Schema object as the spec writes it (refs resolved where the suite reads it). */
export type JsonSchema = Record<string, unknown>;

/** A spec the suite cannot test against; the CLI exits 2 with its message. */
export class SpecError extends Error {
  override name = 'SpecError';
}

export interface DeclaredResponse {
  status: number;
  mediaTypes: readonly string[];
  /** What the body is called in messages: the component's name, or `the declared schema`. */
  schemaName?: string;
  validate?: ValidateFunction;
  /** The properties the body's schema declares (allOf parts included). */
  properties: readonly string[];
}

/** How the credential (`--token`) is sent, from the operation's security requirement. */
export type SecurityScheme =
  | { kind: 'bearer'; name: string }
  | { kind: 'api-key'; name: string; header: string }
  | { kind: 'none'; reason: string };

export interface RequestProperty {
  name: string;
  required: boolean;
  /** The property's schema, refs resolved and allOf parts merged. */
  schema: JsonSchema;
}

export interface RequestBody {
  mediaTypes: readonly string[];
  /** The media type the suite sends valid bodies as (the first JSON one the spec names). */
  mediaType: string;
  /** What the body is called in messages (`NewPlant`). */
  schemaName: string;
  validate: ValidateFunction;
  properties: readonly RequestProperty[];
  /** The property a fresh id goes in: an integer property named `id`, when the body has one. */
  identity?: RequestProperty;
  /** Whether the body's schema lets undeclared properties in. */
  additionalProperties: boolean;
}

export interface SuiteContract {
  /** The document's path, for messages. */
  source: string;
  operationId: string;
  method: string;
  path: string;
  /** The 2xx status a valid request must get. */
  successStatus: number;
  responses: ReadonlyMap<number, DeclaredResponse>;
  /** Statuses the spec declares, ascending, for messages. */
  declared: readonly number[];
  security: SecurityScheme;
  requestBody: RequestBody;
  /** The properties the success response declares that the request also sends: what it must echo. */
  echoed: readonly string[];
}

export const DEFAULT_OPERATION = 'createPlant';

/** The spec at `path` (the bundled one by default) compiled for the suite. Throws SpecError. */
export function loadSuiteContract(path: string = SPEC_PATH, operationId: string = DEFAULT_OPERATION): SuiteContract {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SpecError(`Cannot read the spec ${path}: ${(error as Error).message}`);
  }
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new SpecError(`The spec ${path} is not YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  return compileSuiteContract(document, path, operationId);
}

/** The contract of an already parsed document; `source` names it in messages. */
export function compileSuiteContract(document: unknown, source: string, operationId: string = DEFAULT_OPERATION): SuiteContract {
  if (!isObject(document) || !isObject(document.paths)) throw new SpecError(`${source} is not an OpenAPI document: it has no paths.`);
  const doc = document as JsonSchema & { paths: Record<string, Record<string, unknown>> };
  const found = findOperation(doc, operationId, source);
  const ajv = createSpecAjv();
  const components = isObject(doc.components) && isObject(doc.components.schemas) ? (doc.components.schemas as Record<string, unknown>) : {};
  const compile = (schema: unknown): ValidateFunction => {
    try {
      return ajv.compile(standalone(schema, components));
    } catch (error) {
      throw new SpecError(`${source}: a schema of ${operationId} does not compile: ${(error as Error).message}`);
    }
  };

  const responses = new Map<number, DeclaredResponse>();
  for (const [code, raw] of Object.entries(isObject(found.operation.responses) ? found.operation.responses : {})) {
    if (!/^\d{3}$/.test(code)) continue;
    const response = resolve(raw, doc) as JsonSchema;
    const content = isObject(response.content) ? (response.content as Record<string, JsonSchema>) : {};
    const mediaTypes = Object.keys(content).map((m) => m.toLowerCase());
    const schema = Object.values(content).find((media) => isObject(media) && media.schema !== undefined)?.schema;
    responses.set(Number(code), {
      status: Number(code),
      mediaTypes,
      ...(schema === undefined ? { properties: [] } : { schemaName: nameOf(schema), validate: compile(schema), properties: [...flatten(schema, doc).properties.keys()] }),
    });
  }
  const declared = [...responses.keys()].sort((a, b) => a - b);
  const successStatus = declared.find((status) => status >= 200 && status < 300);
  if (successStatus === undefined) throw new SpecError(`${source}: ${operationId} declares no 2xx response, so the suite cannot tell success.`);

  const requestBody = compileRequestBody(found.operation, doc, source, operationId, compile);
  const successProperties = responses.get(successStatus)?.properties ?? [];
  const sent = new Set(requestBody.properties.map((p) => p.name));
  return {
    source,
    operationId,
    method: found.method.toUpperCase(),
    path: found.path,
    successStatus,
    responses,
    declared,
    security: securityOf(found.operation, doc, source),
    requestBody,
    echoed: successProperties.filter((name) => sent.has(name)),
  };
}

function compileRequestBody(
  operation: JsonSchema,
  doc: JsonSchema,
  source: string,
  operationId: string,
  compile: (schema: unknown) => ValidateFunction,
): RequestBody {
  const body = resolve(operation.requestBody, doc);
  const content = isObject(body) && isObject(body.content) ? (body.content as Record<string, JsonSchema>) : {};
  const mediaTypes = Object.keys(content).map((m) => m.toLowerCase());
  const mediaType = mediaTypes.find((m) => m === 'application/json' || /^application\/[^;]*\+json$/.test(m));
  const schema = mediaType === undefined ? undefined : Object.entries(content).find(([m]) => m.toLowerCase() === mediaType)?.[1]?.schema;
  if (mediaType === undefined || schema === undefined) {
    throw new SpecError(`${source}: ${operationId} has no JSON request body schema; the suite sends JSON bodies.`);
  }
  const flat = flatten(schema, doc);
  const properties = [...flat.properties].map(([name, propertySchema]) => ({ name, required: flat.required.has(name), schema: propertySchema }));
  const identity = properties.find((p) => p.name === 'id' && typesOf(p.schema).includes('integer'));
  return {
    mediaTypes,
    mediaType,
    schemaName: nameOf(schema) ?? 'request body',
    validate: compile(schema),
    properties,
    ...(identity ? { identity } : {}),
    additionalProperties: flat.additionalProperties,
  };
}

/** Whether `text` is a request body the spec accepts (parsed exactly: int64 on its digits). */
export function isValidRequestBody(contract: SuiteContract, text: string): boolean {
  let value: unknown;
  try {
    value = parseExactJson(text);
  } catch {
    return false;
  }
  return contract.requestBody.validate(value) === true;
}

function findOperation(doc: { paths: Record<string, Record<string, unknown>> }, operationId: string, source: string) {
  const ids: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isObject(operation) || typeof operation.operationId !== 'string') continue;
      ids.push(operation.operationId);
      if (operation.operationId === operationId) return { path, method, operation };
    }
  }
  throw new SpecError(`${source} has no operation ${operationId} (it has: ${ids.join(', ') || 'none'}); the suite tests ${operationId}.`);
}

function securityOf(operation: JsonSchema, doc: JsonSchema, source: string): SecurityScheme {
  const requirements = Array.isArray(operation.security) ? operation.security : Array.isArray(doc.security) ? doc.security : [];
  const first = requirements.find(isObject);
  const name = first ? Object.keys(first)[0] : undefined;
  if (name === undefined) {
    return { kind: 'none', reason: `the spec declares no security for ${String(operation.operationId)}, so there are no credentials to refuse` };
  }
  const schemes = isObject(doc.components) && isObject(doc.components.securitySchemes) ? (doc.components.securitySchemes as Record<string, unknown>) : {};
  const scheme = resolve(schemes[name], doc);
  if (!isObject(scheme)) throw new SpecError(`${source}: the security scheme ${name} is not declared under components.securitySchemes.`);
  const type = String(scheme.type);
  if ((type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') || type === 'oauth2' || type === 'openIdConnect') return { kind: 'bearer', name };
  if (type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string') return { kind: 'api-key', name, header: scheme.name.toLowerCase() };
  throw new SpecError(
    `${source}: the security scheme ${name} (${type}${scheme.scheme ? ` ${String(scheme.scheme)}` : ''}${scheme.in ? ` in ${String(scheme.in)}` : ''}) is not one the suite can send; it sends bearer tokens and API keys in a header.`,
  );
}

/** The component a schema names by `$ref`, for messages. */
function nameOf(schema: unknown): string | undefined {
  const ref = isObject(schema) ? schema.$ref : undefined;
  return typeof ref === 'string' ? ref.split('/').pop() : undefined;
}

/** `$ref`s followed until a value that is not one (local JSON pointers only). */
function resolve(value: unknown, doc: JsonSchema, seen = new Set<string>()): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string') return value;
  const ref = value.$ref;
  if (!ref.startsWith('#/') || seen.has(ref)) return value;
  seen.add(ref);
  let target: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    target = isObject(target) ? target[key] : undefined;
  }
  return resolve(target, doc, seen);
}

interface FlatObject {
  properties: Map<string, JsonSchema>;
  required: Set<string>;
  additionalProperties: boolean;
}

/** An object schema's properties and required names, refs followed and allOf parts merged. */
function flatten(schema: unknown, doc: JsonSchema): FlatObject {
  const flat: FlatObject = { properties: new Map(), required: new Set(), additionalProperties: true };
  const visit = (raw: unknown): void => {
    const part = resolve(raw, doc);
    if (!isObject(part)) return;
    for (const [name, property] of Object.entries(isObject(part.properties) ? part.properties : {})) {
      flat.properties.set(name, mergeSchema(flat.properties.get(name), property, doc));
    }
    for (const name of Array.isArray(part.required) ? part.required : []) flat.required.add(String(name));
    if (part.additionalProperties === false || part.unevaluatedProperties === false) flat.additionalProperties = false;
    for (const inner of Array.isArray(part.allOf) ? part.allOf : []) visit(inner);
  };
  visit(schema);
  return flat;
}

/** A property's schema with refs followed and allOf parts merged (later keywords win). */
function mergeSchema(earlier: JsonSchema | undefined, raw: unknown, doc: JsonSchema): JsonSchema {
  const part = resolve(raw, doc);
  if (!isObject(part)) return earlier ?? {};
  let merged: JsonSchema = { ...(earlier ?? {}) };
  for (const inner of Array.isArray(part.allOf) ? part.allOf : []) merged = mergeSchema(merged, inner, doc);
  const { allOf: _allOf, $ref: _ref, ...own } = part;
  return { ...merged, ...own };
}

/** The JSON types a schema admits (`type` may be a list; none means any). */
export function typesOf(schema: JsonSchema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.map(String);
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonType))];
  if ('const' in schema) return [jsonType(schema.const)];
  return [];
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A schema that Ajv compiles on its own: local refs point into `$defs`, components carried along. */
function standalone(schema: unknown, components: Record<string, unknown>): object {
  return {
    ...(rewriteRefs(schema) as object),
    $defs: Object.fromEntries(Object.entries(components).map(([key, value]) => [key, rewriteRefs(value)])),
  };
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (isObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) =>
        key === '$ref' && typeof inner === 'string' ? [key, inner.replace('#/components/schemas/', '#/$defs/')] : [key, rewriteRefs(inner)],
      ),
    );
  }
  return value;
}

function isObject(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false; problem: string };

/** A response body parsed losslessly (an int64 keeps its real digits). */
export function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { ok: false, problem: 'the body is empty' };
  try {
    return { ok: true, value: parseExactJson(text) };
  } catch (error) {
    return { ok: false, problem: `the body is not JSON (${(error as Error).message})` };
  }
}

/** Ajv's verdict as short phrases: `/name must be string`, `must have required property 'message'`. */
export function schemaProblems(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  const problems = new Set<string>();
  for (const error of validate.errors ?? []) {
    const at = error.instancePath === '' ? 'the body' : error.instancePath.slice(1).replaceAll('/', '.');
    const detail =
      error.keyword === 'format'
        ? `must be ${(error.params as { format: string }).format}`
        : error.keyword === 'required'
          ? `must have the required field '${(error.params as { missingProperty: string }).missingProperty}'`
          : (error.message ?? 'is invalid');
    problems.add(`${at} ${detail}`);
  }
  return [...problems];
}
