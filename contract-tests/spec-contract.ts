/**
 * The suite's view of the project's compiled contract (spec/contract.ts): what it needs of the
 * operation under test (createPlant by default) — method and path, the success status, every
 * declared response (media types, body validator, declared properties), the security scheme, and
 * the request body (media types, validator, properties with their constraints, flattened for the
 * generators). Everything else in the suite receives this object as data.
 */
import type { ValidateFunction } from 'ajv';
import { compileContract, ContractError, isJsonMediaType, loadContract, mediaEssence, type CompiledContract } from '../spec/contract.js';
import { parseExactJson } from '../spec/exact-json.js';
import { describeProblems, problemsText } from '../spec/problems.js';

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
/** An API key the same security requirement demands along with the main credential (OpenAPI: schemes of one requirement object must all be sent). */
export interface AlongsideKey {
  name: string;
  /** Lower case. */
  header: string;
}

/**
 * The credential the suite sends: the main one (the token) and, when the spec's requirement
 * names several schemes together, the API keys sent alongside it (their values come from --header).
 */
export type SecurityScheme =
  | { kind: 'bearer'; name: string; alongside: readonly AlongsideKey[] }
  | { kind: 'api-key'; name: string; header: string; alongside: readonly AlongsideKey[] }
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
export function loadSuiteContract(path?: string, operationId: string = DEFAULT_OPERATION): SuiteContract {
  return suiteContractOf(asSpecError(() => loadContract(path)), operationId);
}

/** The contract of an already parsed document; `source` names it in messages. */
export function compileSuiteContract(document: unknown, source: string, operationId: string = DEFAULT_OPERATION): SuiteContract {
  return suiteContractOf(asSpecError(() => compileContract(document, source)), operationId);
}

/** What the suite needs of one operation of a compiled contract. Throws SpecError. */
export function suiteContractOf(contract: CompiledContract, operationId: string = DEFAULT_OPERATION): SuiteContract {
  const { source } = contract;
  const operation = contract.operations.get(operationId);
  if (!operation) {
    throw new SpecError(`${source} has no operation ${operationId} (it has: ${[...contract.operations.keys()].join(', ') || 'none'}); the suite tests ${operationId}.`);
  }
  const doc = contract.document as JsonSchema;
  const responses = new Map<number, DeclaredResponse>();
  for (const [status, response] of operation.responses) {
    if (status === 'default') continue;
    const media = [...response.content.values()].find((m) => m.schema !== undefined);
    const declared: DeclaredResponse = {
      status,
      mediaTypes: [...response.content.keys()],
      properties: media?.properties ?? [],
      ...(media ? { schemaName: nameOf(media.schema) } : {}),
    };
    // The contract compiles response validators on first use; keep that lazy.
    if (media) Object.defineProperty(declared, 'validate', { enumerable: true, get: () => media.validate });
    responses.set(status, declared);
  }
  const successStatus = operation.successStatus;
  if (successStatus === undefined) throw new SpecError(`${source}: ${operationId} declares no 2xx response, so the suite cannot tell success.`);

  const content = operation.requestBody?.content;
  // A key may carry parameters (`application/json; charset=utf-8`): it is sent as written.
  const mediaType = [...(content?.keys() ?? [])].find((key) => isJsonMediaType(mediaEssence(key)));
  const media = mediaType === undefined ? undefined : content?.get(mediaType);
  if (mediaType === undefined || !media?.schema || !media.validate) {
    throw new SpecError(`${source}: ${operationId} has no JSON request body schema; the suite sends JSON bodies.`);
  }
  const flat = flatten(media.schema, doc);
  const properties = [...flat.properties].map(([name, propertySchema]) => ({ name, required: flat.required.has(name), schema: propertySchema }));
  const identity = properties.find((p) => p.name === 'id' && typesOf(p.schema).includes('integer'));
  const requestBody: RequestBody = {
    mediaTypes: [...(content?.keys() ?? [])],
    mediaType,
    schemaName: nameOf(media.schema) ?? 'request body',
    validate: media.validate,
    properties,
    ...(identity ? { identity } : {}),
    additionalProperties: flat.additionalProperties,
  };
  const successProperties = responses.get(successStatus)?.properties ?? [];
  const sent = new Set(properties.map((p) => p.name));
  return {
    source,
    operationId,
    method: operation.method.toUpperCase(),
    path: operation.path,
    successStatus,
    responses,
    declared: operation.declaredStatuses,
    security: securityOf(contract, operation.security, operationId),
    requestBody,
    echoed: successProperties.filter((name) => sent.has(name)),
  };
}

function asSpecError<T>(compile: () => T): T {
  try {
    return compile();
  } catch (error) {
    if (error instanceof ContractError) throw new SpecError(error.message);
    throw error;
  }
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

function securityOf(contract: CompiledContract, requirements: readonly (readonly string[])[], operationId: string): SecurityScheme {
  const requirement = requirements.find((names) => names.length > 0);
  if (requirement === undefined || requirements.some((names) => names.length === 0)) {
    return { kind: 'none', reason: `the spec declares no security for ${operationId}, so there are no credentials to refuse` };
  }
  // One requirement object's schemes are ANDed: every one of them is sent. The token goes to the bearer scheme if there is one.
  const schemes = requirement.map((name) => {
    const scheme = contract.securitySchemes.get(name);
    if (scheme?.kind === 'http-bearer' || scheme?.kind === 'oauth-bearer') return { kind: 'bearer' as const, name };
    if (scheme?.kind === 'api-key' && scheme.in === 'header') return { kind: 'api-key' as const, name, header: scheme.parameter.toLowerCase() };
    const what =
      scheme?.kind === 'api-key' ? `apiKey in ${scheme.in}` : scheme?.kind === 'unsupported' ? scheme.type : scheme?.kind === 'http-basic' ? 'http basic' : 'undeclared';
    throw new SpecError(`${contract.source}: the security scheme ${name} (${what}) is not one the suite can send; it sends bearer tokens and API keys in a header.`);
  });
  const bearers = schemes.filter((scheme) => scheme.kind === 'bearer');
  if (bearers.length > 1) {
    throw new SpecError(`${contract.source}: ${operationId} requires ${bearers.map((b) => b.name).join(' and ')} together, but one Authorization header carries one bearer token.`);
  }
  const main = bearers[0] ?? schemes[0];
  const alongside = schemes.flatMap((scheme) => (scheme === main || scheme.kind !== 'api-key' ? [] : [{ name: scheme.name, header: scheme.header }]));
  return main?.kind === 'api-key' ? { ...main, alongside } : { kind: 'bearer', name: main?.name ?? '', alongside };
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

/** The spec's verdict on a body in words (spec/problems.ts), empty when it fits the schema. */
export function schemaProblems(validate: ValidateFunction, value: unknown): string {
  if (validate(value)) return '';
  return problemsText(describeProblems(validate.errors, { root: value }));
}
