/**
 * The compiled model of an OpenAPI document that every tool receives: each operation by
 * operationId with its parameters, security, request body and responses per status, range and
 * default (openapi/operations/compile.ts builds it), and the one rule for which response covers a status.
 */
import type { ValidateFunction } from 'ajv';
import type { HTTP_METHODS } from '../document/load.js';
import type { ParameterReader, ParameterStyle } from './parameters.js';
import type { Schema } from '../schema/resolve.js';
import type { ExactPlan } from '../schema/exact-json.js';

export type HttpMethod = (typeof HTTP_METHODS)[number];

/** How a security scheme asks for credentials, as far as a mock and a suite can check them. */
export type SecurityScheme =
  | { name: string; kind: 'http-bearer' }
  | { name: string; kind: 'http-basic' }
  | { name: string; kind: 'api-key'; in: 'header' | 'query' | 'cookie'; parameter: string }
  /** oauth2 and openIdConnect send `Authorization: Bearer <access token>` too (RFC 6750). */
  | { name: string; kind: 'oauth-bearer'; type: 'oauth2' | 'openIdConnect' }
  /** mutualTLS and anything unknown: nothing a request header can satisfy. */
  | { name: string; kind: 'unsupported'; type: string };

/**
 * One way to satisfy an operation's security: every scheme named must be satisfied. An empty
 * requirement (`{}` in the document) is satisfied by any request.
 */
export type SecurityRequirement = readonly string[];

/** An object schema read through refs, its `allOf` parts merged (union branches are not: they are alternatives). */
export interface ObjectShape {
  /** Each property's schema, refs followed and allOf parts merged (later keywords win). */
  readonly properties: ReadonlyMap<string, Schema>;
  /** Required by the schema or by any allOf part. */
  readonly required: ReadonlySet<string>;
  /** False when the schema or a part says `additionalProperties: false` or `unevaluatedProperties: false`. */
  readonly additionalProperties: boolean;
}

/** A property of a body variant: its schema with refs followed and allOf merged at every depth. */
export interface VariantProperty {
  name: string;
  required: boolean;
  schema: Schema;
}

/** One shape a valid body may take: a branch of a top-level oneOf/anyOf, or the whole object. */
export interface BodyVariant {
  /** The branch's component name, or `branch N`; the body's own name when it has no branches. */
  name: string;
  properties: readonly VariantProperty[];
  required: ReadonlySet<string>;
}

/** What a schema says read member by member, each computed on first use (openapi/operations/body-shapes.ts). */
export interface SchemaShapes {
  /** The schema as one object. */
  readonly object: ObjectShape;
  /** The object each item is of the schema's array, or (`property`) of its array property; undefined when that is no array of objects. */
  itemObject(property?: string): ObjectShape | undefined;
  /** The schema with every local ref followed and allOf merged at every depth, for reading its keywords (`{}` when there is none). */
  readonly inlined: Schema;
  /** The object shapes a valid body may take: one per object branch of a top-level oneOf/anyOf (a discriminator's value fixed), else the whole. */
  readonly variants: readonly BodyVariant[];
  /** Why no value can match the schema (a spec's fault: ../schema/no-value.ts), naming the keyword; undefined when one may. */
  readonly noValue: string | undefined;
  /** A form's fields (URL-encoded or multipart, in order) as the object the schema describes, coerced to its types. */
  readForm(fields: Iterable<readonly [string, string]>): Record<string, unknown>;
}

export interface ContractParameter extends Pick<SchemaShapes, 'inlined'> {
  name: string;
  /** The parameter's `description`: it may say which resource the value names ("The ID of the origin station"). */
  description?: string;
  /** The parameter's `example` (or its first `examples` value): a value the spec offers for it. */
  example?: unknown;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** The parameter's schema (for `content` parameters, the media type's). */
  schema: Schema | undefined;
  /** How the value is written (OpenAPI 4.8.12.4); `content` for a parameter declared by media type. */
  style: ParameterStyle;
  explode: boolean;
  /** For a `content` parameter: its media type. */
  mediaType: string | undefined;
  validate: ValidateFunction | undefined;
  /** Reads the parameter from a request by its style and explode, coerced to its schema's types (openapi/operations/parameters.ts). */
  read: ParameterReader;
}

export interface ContractMediaType extends SchemaShapes {
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
  /**
   * Every header it declares but Content-Type (which OpenAPI says to ignore), lower case, read as a
   * header parameter is (a Header Object is a Parameter Object without name and in): style simple,
   * coerced to its schema (refs followed at the top), its validator compiled on first use.
   */
  headerParameters?: readonly ContractParameter[];
  /** Its OpenAPI `links`, in document order (openapi/operations/links.ts). */
  links: readonly ContractLink[];
}

/** A link of a response: the operation it leads to, and what it passes there. */
export interface ContractLink {
  name: string;
  /** The operation it leads to: the operationId it names, or the operation its operationRef points at; undefined when neither names one. */
  operationId: string | undefined;
  /** The parameters it passes, keyed as written (`id`, `path.id`): runtime expressions or constants. */
  parameters: ReadonlyMap<string, unknown>;
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

/**
 * The one rule for which declared response covers an answered status, whatever holds the
 * responses: the status itself, else its range (`4XX`), else `default` (OpenAPI 3.x: an explicit
 * code wins over a range, a range over `default`).
 */
export function coveringResponse<R>(status: number, declared: { exact: (status: number) => R | undefined; range: (range: string) => R | undefined; fallback: () => R | undefined }): R | undefined {
  return declared.exact(status) ?? declared.range(`${Math.floor(status / 100)}XX`) ?? declared.fallback();
}

/**
 * What a request that succeeds is answered: the lowest declared 2xx and its response, else, for an
 * operation that declares its success only as `2XX`, 200 with that range's response.
 */
export function successOf(operation: ContractOperation): { status: number; response: ContractResponse } | undefined {
  if (operation.successStatus !== undefined) {
    const response = operation.responses.get(operation.successStatus);
    return response && { status: operation.successStatus, response };
  }
  const range = operation.ranges?.get('2XX');
  return range && { status: 200, response: range };
}

/** The response an operation declares for `status`: exact, its range, or `default`. */
export function declaredFor(operation: ContractOperation, status: number): ContractResponse | undefined {
  return coveringResponse(status, { exact: (code) => operation.responses.get(code), range: (range) => operation.ranges?.get(range), fallback: () => operation.responses.get('default') });
}

export interface CompiledContract {
  /** Where the document was read from. */
  source: string;
  /** OpenAPI 3.1, bundled (every ref local), every operation with an operationId (openapi/document/load.ts). */
  document: Record<string, unknown>;
  /** The version the file declared (`3.0.3` when it was upgraded). */
  declaredVersion: string;
  /** What loading changed or left alone, for the log. */
  notes: readonly string[];
  /** Flaws loaded anyway, one line each naming the pointer (openapi/document/load.ts): printed at start, shown at /__mock/spec. */
  warnings: readonly string[];
  title: string;
  version: string;
  /** The document's `info.description`, when it gives one. */
  description: string | undefined;
  /** The base paths its `servers` put the API under (openapi/operations/paths.ts). */
  basePaths: readonly string[];
  /** Every operation, by operationId (generated where the document gives none), in document order. */
  operations: ReadonlyMap<string, ContractOperation>;
  securitySchemes: ReadonlyMap<string, SecurityScheme>;
  /** A component schema compiled as a standalone validator (for tests and tools). */
  componentValidator(name: string): ValidateFunction;
}
