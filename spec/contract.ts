/**
 * One compiled contract: an OpenAPI 3.1 document read once and turned into everything the tools
 * need from it — each operation by operationId (method, path, parameters, security), its request
 * body (media types, a validator), and for each declared response status and media type a
 * validator, the declared properties and the examples. The mock, the Prism mock, the fixture
 * loader and the contract suite all receive this object as data; nothing is bound to the bundled
 * file.
 *
 * Validators are Ajv 2020-12 (OpenAPI 3.1's dialect) with exact int32/int64 (spec/ajv.ts) and run
 * on the view that `parseExactJson` returns.
 */
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { load as parseYaml } from 'js-yaml';
import { createSpecAjv } from './ajv.js';
import { refusedPatterns } from './patterns.js';
import { exactPlanDeclaring, exactPlanOf, READ_EVERY_NUMBER, type ExactPlan } from './exact-json.js';
import { SPEC_PATH } from './index.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A JSON Schema as the document writes it (refs point into `#/components/schemas`). */
export type Schema = Record<string, unknown>;

/** How a security scheme asks for credentials, as far as a mock and a suite can check them. */
export type SecurityScheme =
  | { name: string; kind: 'http-bearer' }
  | { name: string; kind: 'http-basic' }
  | { name: string; kind: 'api-key'; in: 'header' | 'query' | 'cookie'; parameter: string }
  /** oauth2 and openIdConnect send `Authorization: Bearer <access token>` too (RFC 6750). */
  | { name: string; kind: 'oauth-bearer' }
  /** mutualTLS and anything unknown: nothing a request header can satisfy. */
  | { name: string; kind: 'unsupported'; type: string };

/**
 * One way to satisfy an operation's security: every scheme named must be satisfied. An empty
 * requirement (`{}` in the document) is satisfied by any request.
 */
export type SecurityRequirement = readonly string[];

export interface ContractParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema | undefined;
  validate: ValidateFunction | undefined;
}

export interface ContractMediaType {
  mediaType: string;
  schema: Schema | undefined;
  /** The schema compiled; undefined when the media type declares none. */
  validate: ValidateFunction | undefined;
  /** The property names the schema declares (allOf parts, refs and union branches included). */
  properties: readonly string[];
  /** Each declared property's own schema (the first declaration found), refs followed. */
  propertySchemas: ReadonlyMap<string, Schema>;
  /** The properties the schema requires at its top level (its own `required` and its allOf parts', refs followed). */
  required: readonly string[];
  /** The schema's top-level `type`, refs followed. */
  type: string | undefined;
  /** For an array schema: the properties its items declare. */
  itemProperties: ReadonlySet<string> | undefined;
  /** For an array schema: its `maxItems`, when it has one. */
  maxItems: number | undefined;
  /** For an object schema: each array-typed property's item properties (what a wrapped list holds). */
  arrayProperties: ReadonlyMap<string, ReadonlySet<string>>;
  /** `properties` as a set, for projections. */
  propertySet: ReadonlySet<string>;
  /** The examples the document gives, in document order (`example` first, then `examples`). */
  examples: readonly ContractExample[];
  /**
   * Which numbers of a body of this type `parseExactJson` reads from their literal: the integers
   * of the schema and every number of a declared property (kept as received); the rest, fields
   * the schema does not declare, as JSON.parse reads them.
   */
  exactPlan: ExactPlan | undefined;
}

export interface ContractExample {
  name: string;
  value: unknown;
}

export interface ContractResponse {
  /** A three-digit status, or `default`. */
  status: number | 'default';
  description: string;
  /** By media type, in document order; empty for a response without a body. */
  content: ReadonlyMap<string, ContractMediaType>;
  /** Headers the response declares, lower case. */
  headers: readonly string[];
}

export interface ContractOperation {
  operationId: string;
  method: HttpMethod;
  /** The path template as the document writes it (`/plants/{id}`). */
  path: string;
  parameters: readonly ContractParameter[];
  /** Alternatives: any one satisfied suffices; none at all means no credentials are needed. */
  security: readonly SecurityRequirement[];
  requestBody: { required: boolean; content: ReadonlyMap<string, ContractMediaType> } | undefined;
  /** By status; `default` under the key 'default'. */
  responses: ReadonlyMap<number | 'default', ContractResponse>;
  /** Responses declared for a range of statuses, by `1XX` … `5XX` (upper case). */
  ranges?: ReadonlyMap<string, ContractResponse>;
  /** The statuses declared, ascending. */
  declaredStatuses: readonly number[];
  /** The lowest declared 2xx: what a request that succeeds is answered. */
  successStatus: number | undefined;
}

export interface CompiledContract {
  /** Where the document was read from. */
  source: string;
  document: Record<string, unknown>;
  title: string;
  version: string;
  /** Every operation with an operationId, in document order. */
  operations: ReadonlyMap<string, ContractOperation>;
  securitySchemes: ReadonlyMap<string, SecurityScheme>;
  /** A component schema compiled as a standalone validator (for tests and tools). */
  componentValidator(name: string): ValidateFunction;
}

/** Why a document cannot be served or tested; the message names the document and the place. */
export class ContractError extends Error {
  override name = 'ContractError';
}

/** Reads and compiles the document at `path` (the bundled spec by default). */
export function loadContract(path: string = SPEC_PATH): CompiledContract {
  const source = resolvePath(path);
  let text: string;
  try {
    text = readFileSync(source, 'utf8');
  } catch (error) {
    throw new ContractError(`Cannot read the OpenAPI document ${source}: ${(error as Error).message}`);
  }
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new ContractError(`${source} is not valid YAML or JSON: ${(error as Error).message}`);
  }
  return compileContract(document, source);
}

/** Compiles a parsed document; `source` names it in errors. */
export function compileContract(document: unknown, source: string): CompiledContract {
  if (!isObject(document)) throw new ContractError(`${source} is not an OpenAPI document (expected a mapping at the top).`);
  const version = document.openapi;
  if (typeof version !== 'string' || !version.startsWith('3.1')) {
    throw new ContractError(`${source} says openapi: ${JSON.stringify(version)}; the tools read OpenAPI 3.1 documents.`);
  }
  if (!isObject(document.paths)) throw new ContractError(`${source} has no paths.`);
  const refused = refusedPatterns(document);
  if (refused.length > 0) {
    const list = refused.map((r) => `${r.pointer} ${JSON.stringify(r.pattern)}: ${r.reason}`).join('; ');
    throw new ContractError(
      `${source}: ${refused.length === 1 ? 'a pattern uses' : `${refused.length} patterns use`} what a linear-time regular expression engine cannot run (lookaround or backreferences), which would let one request freeze the mock: ${list}. Rewrite it without them.`,
    );
  }
  const compiler = new SchemaCompiler(document, source);
  const securitySchemes = readSecuritySchemes(document, source);
  const globalSecurity = readSecurity(document.security, `${source} (top-level security)`, securitySchemes);
  const operations = new Map<string, ContractOperation>();
  for (const [path, rawItem] of Object.entries(document.paths)) {
    const item = compiler.resolve(rawItem, `paths.${path}`);
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of HTTP_METHODS) {
      const raw = item[method];
      if (!isObject(raw)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const operationId = raw.operationId;
      if (typeof operationId !== 'string' || operationId === '') {
        throw new ContractError(`${source}: ${where} has no operationId; the mock dispatches by operationId, so every operation needs one.`);
      }
      if (operations.has(operationId)) throw new ContractError(`${source}: operationId ${operationId} is used twice.`);
      operations.set(operationId, {
        operationId,
        method,
        path,
        parameters: readParameters([...shared, ...(Array.isArray(raw.parameters) ? raw.parameters : [])], compiler, where),
        security: raw.security === undefined ? globalSecurity : readSecurity(raw.security, `${source}: ${where}`, securitySchemes),
        requestBody: readRequestBody(raw.requestBody, compiler, where),
        ...readResponses(raw.responses, compiler, where),
      });
    }
  }
  const info = isObject(document.info) ? document.info : {};
  return {
    source,
    document,
    title: String(info.title ?? ''),
    version: String(info.version ?? ''),
    operations,
    securitySchemes,
    componentValidator: (name) => compiler.compile({ $ref: `#/components/schemas/${name}` }, `components.schemas.${name}`),
  };
}

/**
 * Compiles the document's schemas with one Ajv. Every `$ref` into `#/components/schemas` is kept
 * resolvable by giving each compiled schema the components under `$defs`; other local refs
 * (responses, parameters, request bodies, examples) are resolved by `resolve`.
 */
class SchemaCompiler {
  readonly #ajv = createSpecAjv({ allErrors: true, verbose: true });
  readonly #defs: Record<string, unknown>;

  constructor(
    private readonly document: Record<string, unknown>,
    private readonly source: string,
  ) {
    const components = isObject(document.components) ? document.components : {};
    const schemas = isObject(components.schemas) ? components.schemas : {};
    this.#defs = Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, rewriteSchemaRefs(schema)]));
  }

  compile(schema: Schema, where: string): ValidateFunction {
    try {
      return this.#ajv.compile({ ...rewriteSchemaRefs(schema), $defs: this.#defs });
    } catch (error) {
      throw new ContractError(`${this.source}: the schema of ${where} cannot be compiled: ${(error as Error).message}`);
    }
  }

  /**
   * A `validate` property compiled on first use. The mock never validates responses, and
   * compiling is most of its start-up; the suite and the proxy compile them when they first judge
   * an answer.
   */
  compileLazily(target: { validate: ValidateFunction | undefined }, schema: Schema | undefined, where: string): void {
    if (!schema) return;
    let compiled: ValidateFunction | undefined;
    Object.defineProperty(target, 'validate', { enumerable: true, get: () => (compiled ??= this.compile(schema, where)) });
  }

  /** The exact-reading plan of a body of `schema` that declares `properties` (see ContractMediaType.exactPlan). */
  exactPlan(schema: Schema | undefined, properties: Iterable<string>): ExactPlan | undefined {
    return schema ? exactPlanDeclaring(exactPlanOf(schema, this.document), properties) : READ_EVERY_NUMBER;
  }

  /** Follows local `$ref`s (`#/components/…`) of non-schema objects to what they name. */
  resolve(value: unknown, where: string, depth = 0): unknown {
    if (!isObject(value) || typeof value.$ref !== 'string') return value;
    if (depth > 32) throw new ContractError(`${this.source}: ${where} is a $ref cycle.`);
    const ref = value.$ref;
    if (!ref.startsWith('#/')) throw new ContractError(`${this.source}: ${where} refers to ${ref}; only references inside the document are supported.`);
    let target: unknown = this.document;
    for (const part of ref.slice(2).split('/')) {
      const key = decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~');
      target = isObject(target) ? target[key] : undefined;
    }
    if (target === undefined) throw new ContractError(`${this.source}: ${where} refers to ${ref}, which the document does not have.`);
    return this.resolve(target, where, depth + 1);
  }

  /** The properties a schema requires at its top level, through refs and allOf (not union branches: either may hold). */
  required(schema: Schema | undefined): string[] {
    const names = new Set<string>();
    const seen = new Set<unknown>();
    const visit = (node: unknown): void => {
      if (!isObject(node) || seen.has(node)) return;
      seen.add(node);
      if (typeof node.$ref === 'string') visit(this.resolve(node, node.$ref));
      if (Array.isArray(node.required)) for (const name of node.required) if (typeof name === 'string') names.add(name);
      if (Array.isArray(node.allOf)) for (const part of node.allOf) visit(part);
    };
    visit(schema);
    return [...names];
  }

  /** The properties a schema declares, through refs, allOf and union branches, with their schemas. */
  properties(schema: Schema | undefined): Map<string, Schema> {
    const names = new Map<string, Schema>();
    const seen = new Set<unknown>();
    const visit = (node: unknown): void => {
      if (!isObject(node) || seen.has(node)) return;
      seen.add(node);
      if (typeof node.$ref === 'string') visit(this.resolve(node, node.$ref));
      if (isObject(node.properties)) {
        for (const [key, inner] of Object.entries(node.properties)) {
          if (!names.has(key)) names.set(key, (isObject(inner) ? this.resolve(inner, key) : {}) as Schema);
        }
      }
      for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
        const parts = node[keyword];
        if (Array.isArray(parts)) for (const part of parts) visit(part);
      }
    };
    visit(schema);
    return names;
  }
}

function readSecuritySchemes(document: Record<string, unknown>, source: string): Map<string, SecurityScheme> {
  const components = isObject(document.components) ? document.components : {};
  const schemes = new Map<string, SecurityScheme>();
  for (const [name, raw] of Object.entries(isObject(components.securitySchemes) ? components.securitySchemes : {})) {
    if (!isObject(raw)) continue;
    const type = String(raw.type ?? '');
    if (type === 'http' && String(raw.scheme ?? '').toLowerCase() === 'bearer') schemes.set(name, { name, kind: 'http-bearer' });
    else if (type === 'http' && String(raw.scheme ?? '').toLowerCase() === 'basic') schemes.set(name, { name, kind: 'http-basic' });
    else if (type === 'apiKey') {
      const where = raw.in;
      if ((where !== 'header' && where !== 'query' && where !== 'cookie') || typeof raw.name !== 'string' || raw.name === '') {
        throw new ContractError(`${source}: the apiKey scheme ${name} needs 'in' (header, query or cookie) and a 'name'.`);
      }
      schemes.set(name, { name, kind: 'api-key', in: where, parameter: where === 'header' ? raw.name.toLowerCase() : raw.name });
    } else if (type === 'oauth2' || type === 'openIdConnect') schemes.set(name, { name, kind: 'oauth-bearer' });
    else schemes.set(name, { name, kind: 'unsupported', type: type === 'http' ? `http ${String(raw.scheme)}` : type });
  }
  return schemes;
}

function readSecurity(raw: unknown, where: string, schemes: ReadonlyMap<string, SecurityScheme>): SecurityRequirement[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ContractError(`${where}: security must be a list of requirements.`);
  return raw.map((requirement) => {
    if (!isObject(requirement)) throw new ContractError(`${where}: each security requirement must be a mapping.`);
    const names = Object.keys(requirement);
    for (const name of names) {
      if (!schemes.has(name)) throw new ContractError(`${where}: security names ${name}, which components.securitySchemes does not declare.`);
    }
    return names;
  });
}

function readParameters(raw: unknown[], compiler: SchemaCompiler, where: string): ContractParameter[] {
  const byKey = new Map<string, ContractParameter>();
  for (const [index, entry] of raw.entries()) {
    const parameter = compiler.resolve(entry, `${where} parameter ${index}`);
    if (!isObject(parameter) || typeof parameter.name !== 'string') continue;
    const location = parameter.in;
    if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie') continue;
    const name = location === 'header' ? parameter.name.toLowerCase() : parameter.name;
    const key = `${location}:${name}`;
    // Operation parameters come first and win over the path item's (OpenAPI 3.1, 4.8.9.1).
    if (byKey.has(key)) continue;
    const schema = isObject(parameter.schema) ? parameter.schema : undefined;
    byKey.set(key, {
      name,
      in: location,
      required: location === 'path' || parameter.required === true,
      schema,
      validate: schema ? compiler.compile(schema, `${where} parameter ${name}`) : undefined,
    });
  }
  return [...byKey.values()];
}

function readRequestBody(raw: unknown, compiler: SchemaCompiler, where: string): ContractOperation['requestBody'] {
  if (raw === undefined) return undefined;
  const body = compiler.resolve(raw, `${where} requestBody`);
  if (!isObject(body)) return undefined;
  return { required: body.required === true, content: readContent(body.content, compiler, `${where} request body`, 'eager') };
}

function readResponses(raw: unknown, compiler: SchemaCompiler, where: string): Pick<ContractOperation, 'responses' | 'ranges' | 'declaredStatuses' | 'successStatus'> {
  const responses = new Map<number | 'default', ContractResponse>();
  const ranges = new Map<string, ContractResponse>();
  for (const [code, entry] of Object.entries(isObject(raw) ? raw : {})) {
    const status = code === 'default' ? 'default' : /^[1-5]\d\d$/.test(code) ? Number(code) : undefined;
    // 2XX-style ranges say nothing a mock can answer exactly; they are not statuses, but they give a shape.
    const range = /^[1-5]xx$/i.test(code) ? code.toUpperCase() : undefined;
    if (status === undefined && range === undefined) continue;
    const response = compiler.resolve(entry, `${where} response ${code}`);
    if (!isObject(response)) continue;
    const read: ContractResponse = {
      status: status ?? 'default',
      description: String(response.description ?? ''),
      content: readContent(response.content, compiler, `${where} response ${code}`, 'lazy'),
      headers: Object.keys(isObject(response.headers) ? response.headers : {}).map((name) => name.toLowerCase()),
    };
    if (range !== undefined) ranges.set(range, read);
    else responses.set(status as number | 'default', read);
  }
  const declaredStatuses = [...responses.keys()].filter((status): status is number => status !== 'default').sort((a, b) => a - b);
  return { responses, ranges, declaredStatuses, successStatus: declaredStatuses.find((status) => status >= 200 && status < 300) };
}

function readContent(raw: unknown, compiler: SchemaCompiler, where: string, compile: 'eager' | 'lazy'): Map<string, ContractMediaType> {
  const content = new Map<string, ContractMediaType>();
  for (const [mediaType, entry] of Object.entries(isObject(raw) ? raw : {})) {
    if (!isObject(entry)) continue;
    const schema = isObject(entry.schema) ? entry.schema : undefined;
    const properties = compiler.properties(schema);
    const resolved = schema ? compiler.resolve(schema, `${where} (${mediaType})`) : undefined;
    const type = isObject(resolved) && typeof resolved.type === 'string' ? resolved.type : undefined;
    const examples: ContractExample[] = [];
    if (entry.example !== undefined) examples.push({ name: 'example', value: entry.example });
    for (const [name, example] of Object.entries(isObject(entry.examples) ? entry.examples : {})) {
      const resolved = compiler.resolve(example, `${where} example ${name}`);
      if (isObject(resolved) && 'value' in resolved) examples.push({ name, value: resolved.value });
    }
    const media = {
      mediaType: mediaType.toLowerCase(),
      schema,
      validate: undefined as ValidateFunction | undefined,
      properties: [...properties.keys()],
      propertySchemas: properties,
      required: compiler.required(schema),
      type,
      itemProperties: type === 'array' && isObject(resolved) && isObject(resolved.items) ? new Set(compiler.properties(resolved.items).keys()) : undefined,
      propertySet: new Set(properties.keys()),
      maxItems: type === 'array' && isObject(resolved) && typeof resolved.maxItems === 'number' ? resolved.maxItems : undefined,
      arrayProperties: arrayPropertiesOf(properties, compiler),
      examples,
      exactPlan: compiler.exactPlan(schema, properties.keys()),
    };
    if (compile === 'eager') media.validate = schema ? compiler.compile(schema, `${where} (${mediaType})`) : undefined;
    else compiler.compileLazily(media, schema, `${where} (${mediaType})`);
    content.set(media.mediaType, media);
  }
  return content;
}

function arrayPropertiesOf(properties: ReadonlyMap<string, Schema>, compiler: SchemaCompiler): Map<string, ReadonlySet<string>> {
  const arrays = new Map<string, ReadonlySet<string>>();
  for (const [name, schema] of properties) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.includes('array') && isObject(schema.items)) arrays.set(name, new Set(compiler.properties(schema.items).keys()));
  }
  return arrays;
}

/** Rewrites `#/components/schemas/X` to `#/$defs/X`, where each compiled schema carries them. */
function rewriteSchemaRefs(value: unknown): any {
  if (Array.isArray(value)) return value.map(rewriteSchemaRefs);
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', '#/$defs/') : rewriteSchemaRefs(inner);
    }
    return out;
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A path template (`/plants/{id}`) as a regex over request paths: literal parts exact, each
 * template one segment (captured), a trailing slash ignored — openapi-backend's matching rule.
 */
export function pathTemplatePattern(template: string): RegExp {
  const trimmed = template.length > 1 && template.endsWith('/') ? template.slice(0, -1) : template;
  const source = trimmed
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`);
}

/** A media type or range without its parameters, in lower case: `Application/JSON; charset=utf-8` → `application/json`. */
export function mediaEssence(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * The declared media type (a content key as the spec writes it, parameters and all) that a
 * Content-Type falls under, by essence: exact first, then `type/*`, then `*\/*`; undefined when none.
 */
export function matchingMedia(declared: Iterable<string>, contentType: string): string | undefined {
  const byEssence = new Map<string, string>();
  for (const key of declared) if (!byEssence.has(mediaEssence(key))) byEssence.set(mediaEssence(key), key);
  const type = mediaEssence(contentType);
  return byEssence.get(type) ?? byEssence.get(`${type.split('/')[0]}/*`) ?? byEssence.get('*/*');
}

/** Whether a media type is JSON (`application/json` or a `+json` suffix type). */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}
