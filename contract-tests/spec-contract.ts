/**
 * The suite's view of the project's compiled contract (openapi/operations/compile.ts): for every operation it
 * tests — method and path, the success status, every declared response (exact statuses, `4XX`
 * ranges and `default`: media types, body validator, declared properties), the security scheme it
 * sends, the parameters (schema, style, explode) and the request body (media types, validator,
 * properties with their constraints, refs followed and flattened for the generators). Everything
 * else in the suite receives these objects as data.
 */
import type { ValidateFunction } from 'ajv';
import type { SchemePlace } from '../fixtures/index.js';
import { compileContract, loadContract } from '../openapi/operations/compile.js';
import { ContractError } from '../openapi/document/load.js';
import {
  coveringResponse,
  type BodyVariant,
  type CompiledContract,
  type ContractMediaType,
  type ContractOperation,
  type ContractParameter,
  type ContractResponse,
  type VariantProperty,
} from '../openapi/operations/model.js';
import { isJsonMediaType, mediaEssence } from '../openapi/media-types.js';
import { parseExactJson } from '../openapi/schema/exact-json.js';
import type { ParameterReader } from '../openapi/operations/parameters.js';
import { rawKindOf, type RawKind } from './generators/raw-bodies.js';
import { envelopedMedia, envelopeOf, IdentityOverrideError, recogniseCollections, type ListShape } from '../openapi/operations/collections.js';
import { OverlayError } from '../openapi/document/overlay.js';
import { MockExtensionError } from '../openapi/operations/mock-extensions.js';
import { inlineSchema, typesOf } from '../openapi/schema/shape.js';
import { isObject, refName } from '../openapi/schema/resolve.js';

/** A JSON Schema object as the spec writes it (refs resolved where the suite reads it). */
export type JsonSchema = Record<string, unknown>;
/** The toolkit's reading of a schema's JSON types, for the suite's modules. */
export { typesOf };

/** A spec the suite cannot test against; the CLI exits 2 with its message. */
export class SpecError extends Error {
  override name = 'SpecError';
}

/** Whether `error` is the core's refusal of a spec or an overlay (one line naming the pointer): a usage error, never a crash. */
export function isSpecRefusal(error: unknown): error is Error {
  return error instanceof ContractError || error instanceof SpecError || error instanceof OverlayError || error instanceof MockExtensionError || error instanceof IdentityOverrideError;
}

export interface DeclaredResponse {
  /** The status, or what the spec wrote for it (`4XX`, `default`). */
  status: number | string;
  mediaTypes: readonly string[];
  /** What the body is called in messages: the component's name, or `the declared schema`. */
  schemaName?: string;
  validate?: ValidateFunction;
  /** Whether the body has a validator, known without compiling it (`validate` compiles it on first use). */
  judged: boolean;
  /** The properties the body's schema declares (allOf parts included). */
  properties: readonly string[];
  /** Every header it declares but Content-Type (which OpenAPI says to ignore), with its schema: openapi/operations/response-headers.ts judges them. */
  headerParameters: readonly ContractParameter[];
}

/** An API key the same security requirement demands along with the main credential (OpenAPI: schemes of one requirement object must all be sent). */
export interface AlongsideKey {
  name: string;
  /** Lower case. */
  header: string;
}

/**
 * The credential the suite sends: the main one (the token, or the --basic pair) and, when the
 * spec's requirement names several schemes together, the API keys sent alongside it (their
 * values come from --header). oauth2 and OpenID Connect send the token as a bearer token.
 */
export type SecurityScheme =
  /** `type`: the scheme's type as the spec writes it (`http bearer`, `oauth2`, `openIdConnect`), for messages. */
  | { kind: 'bearer'; name: string; type?: string; alongside: readonly AlongsideKey[] }
  | { kind: 'basic'; name: string; type?: string; alongside: readonly AlongsideKey[] }
  /** `header` is the parameter's name: lower case for a header, as written for a query or a cookie. */
  | { kind: 'api-key'; name: string; in: 'header' | 'query' | 'cookie'; header: string; alongside: readonly AlongsideKey[] }
  | { kind: 'none'; reason: string };

/** A scheme as messages name it: its name in components.securitySchemes and its type, `tokenAuth (apiKey in the header authorization)`. */
export function schemeTitle(security: Exclude<SecurityScheme, { kind: 'none' }>): string {
  const type = security.kind === 'api-key' ? `apiKey in the ${security.in} ${security.header}` : (security.type ?? (security.kind === 'basic' ? 'http basic' : 'http bearer'));
  return `${security.name} (${type})`;
}

/** A property of a request body variant: its schema with refs followed and allOf merged at every depth. */
export type RequestProperty = VariantProperty;

export interface SuiteParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  /** Refs resolved and allOf parts merged, at every depth. */
  schema: JsonSchema;
  style: string;
  explode: boolean;
  validate?: ValidateFunction;
  /** Reads the parameter back from a request as the mock does (openapi/operations/parameters.ts). */
  read?: ParameterReader;
}

export interface RawBody {
  /** The media type the bytes are sent as: the first declared that takes any bytes of its kind. */
  mediaType: string;
  kind: RawKind;
}

export interface RequestBody {
  mediaTypes: readonly string[];
  /** The media type the suite sends valid bodies as (the first JSON one the spec names). */
  mediaType: string;
  /** What the body is called in messages (`NewPlant`). */
  schemaName: string;
  validate: ValidateFunction;
  properties: readonly RequestProperty[];
  /**
   * For a body that is a `oneOf`/`anyOf` of objects, each branch as an object the generators can
   * write (the schema around it merged in, a discriminator's property fixed to the branch's value);
   * `properties` are the first branch's. A single entry for any other body.
   */
  variants: readonly BodyVariant[];
  /** The property a fresh id goes in: the create's collection identity when it is an integer, else an integer property named `id`, when the body has one. */
  identity?: RequestProperty;
  /**
   * A string property that identifies a record (the CRUD rule's identity, `username`, sent by the
   * client): drawn fresh for every body, so that a provider that refuses repeats never sees one.
   */
  key?: RequestProperty;
  /** The key is this member of the key property's object (`value` of `uid: {value}`: collections.ts, Identity.member). */
  keyMember?: string;
  /**
   * The envelope member the key is inside, for a create of an enveloped collection (`{"add_on":
   * {"code": …}}`, collections.ts envelopeOf): the record, and its key, are that member's object.
   */
  keyIn?: string;
  /** The key names the record in the collection's item path (`/users/{username}`): an empty one would name none there. */
  keyInPath?: true;
  /**
   * For an operation that takes only a form: how its bodies are written (a URL-encoded form or
   * multipart/form-data, the `files` as file parts) and read back as the server reads them.
   */
  form?: { kind: 'form' | 'multipart'; read: (fields: Iterable<readonly [string, string]>) => unknown; files: ReadonlySet<string> };
  /** Whether the body's schema lets undeclared properties in. */
  additionalProperties: boolean;
  /** Whether the spec requires a body. */
  required: boolean;
}

export type { BodyVariant };

/** What the suite needs of one operation. */
export interface SuiteContract {
  /** The document's path, for messages. */
  source: string;
  /** The operation in the compiled model: what the one judge (openapi/judge/) judges its answers by. */
  operation: ContractOperation;
  operationId: string;
  method: string;
  path: string;
  /** The first 2xx status the spec declares (any declared 2xx is a success, isExpectedSuccess); undefined when it declares only a `2XX` range. */
  successStatus: number | undefined;
  /** The operation declares only 3xx answers (an OAuth authorize endpoint): a declared redirect is its success. */
  redirectOnly?: true;
  responses: ReadonlyMap<number, DeclaredResponse>;
  /** `4XX`-style ranges, by their first digit. */
  ranges: ReadonlyMap<number, DeclaredResponse>;
  /** The `default` response, when declared. */
  fallback?: DeclaredResponse;
  /** Statuses the spec declares, ascending, for messages. */
  declared: readonly number[];
  security: SecurityScheme;
  /** The operation's security requirements as the spec writes them: alternatives, each the scheme names sent together (an empty one: none needed). */
  requirements: ReadonlyArray<readonly string[]>;
  /** Every security scheme of the spec the suite can send, by its name: where a case file's `{scheme, value}` goes. */
  schemes: ReadonlyMap<string, SchemePlace>;
  parameters: readonly SuiteParameter[];
  /** The JSON request body; undefined when the operation takes none the suite can write. */
  requestBody?: RequestBody;
  /**
   * A required body the spec gives no JSON or form schema for (an upload in
   * `application/octet-stream`, an image, a text): the suite sends bytes in its first media type
   * (./generators/raw-bodies.ts), which only the provider can judge.
   */
  rawBody?: RawBody;
  /** The properties a declared 2xx response declares that the request also sends: what it must echo (where the status answered declares it). */
  echoed: readonly string[];
  /** The request schema's `default` of each echoed property that declares one: an answer leaving it out says it has that value. */
  echoDefaults: ReadonlyMap<string, unknown>;
  /**
   * Echoed properties a 2xx answer declares with another schema than the request's (a card number
   * answered masked, a date answered as a date-time): the provider transforms them, so a differing
   * value is its choice, never a failure.
   */
  transformed?: ReadonlySet<string>;
  /**
   * The member its body and 2xx answers wrap the record in, for an operation of an enveloped
   * collection whose request body is that envelope (`{"article": {...}}`, collections.ts envelopeOf):
   * `echoed`, `echoDefaults` and `transformed` name the record's properties inside it.
   */
  envelope?: string;
  /**
   * A create answering the records it made as a list (collections.ts, Collection.createdAs): its 2xx
   * answer holds the record as the list's item, and `echoed`, `echoDefaults` and `transformed` name
   * the item's properties (the answer's own members beside the list, a `took`, are not the record's).
   */
  createdAs?: ListShape;
  /**
   * The operation reads, changes or deletes a record the request names (the CRUD rule's read,
   * replace, patch, delete, form update), or acts below one (`POST /bookings/{bookingId}/payment`):
   * outside a stateful sequence and a record the run created for it, the record it names may not
   * exist, or the body may contradict it, so a 4xx there is the provider's to give.
   */
  actsOnRecord: boolean;
  /**
   * A create at the target URI (collections.ts, createsAtTarget): the path parameter naming the
   * record it makes. Each case names a record of its own there, the one its body names.
   */
  atTarget?: string;
}

/** Every operation of a spec the suite tests, and those it cannot, with the reason. */
export interface SuiteSpec {
  source: string;
  operations: readonly SuiteContract[];
  /** Operations the suite cannot test (a scheme it cannot send …), reported as skipped. */
  untestable: ReadonlyArray<{ operationId: string; method: string; path: string; reason: string }>;
  /** The compiled contract the operations come from: the stateful sequences find its collections. */
  compiled?: CompiledContract;
}

/** The declared response that covers `status`: the exact one, else its range (`4XX`), else `default`. */
export function declaredResponse(contract: SuiteContract, status: number): DeclaredResponse | undefined {
  return coveringResponse(status, { exact: (code) => contract.responses.get(code), range: (range) => contract.ranges.get(Number(range[0])), fallback: () => contract.fallback });
}

/** The declared statuses in words: `200, 400, 4XX, default`. */
export function declaredText(contract: SuiteContract): string {
  return [...contract.declared.map(String), ...[...contract.ranges.keys()].map((d) => `${d}XX`), ...(contract.fallback ? ['default'] : [])].join(', ');
}

/**
 * Whether `status` is a success a valid request may get: a 2xx the spec declares exactly (a create
 * declaring 200 and 201 may answer either) or by a `2XX` range; any 2xx when it declares only a range;
 * for an operation declaring only redirects, a redirect it declares.
 */
export function isExpectedSuccess(contract: SuiteContract, status: number): boolean {
  if (contract.redirectOnly) return status >= 300 && status < 400 && (contract.responses.has(status) || contract.ranges.has(3));
  if (status < 200 || status >= 300) return false;
  return contract.successStatus === undefined || contract.responses.has(status) || contract.ranges.has(2);
}

/** The spec at `path` (the bundled one by default) compiled for the suite: every operation. Throws SpecError. */
export function loadSuiteSpec(path?: string): SuiteSpec {
  return suiteSpecOf(asSpecError(() => loadContract(path)));
}

/** Every operation of an already parsed document; `source` names it in messages. */
export function compileSuiteSpec(document: unknown, source: string): SuiteSpec {
  return suiteSpecOf(asSpecError(() => compileContract(document, source)));
}

/** Every operation of a compiled contract the suite can test; the others with the reason. */
export function suiteSpecOf(contract: CompiledContract): SuiteSpec {
  const operations: SuiteContract[] = [];
  const untestable: Array<{ operationId: string; method: string; path: string; reason: string }> = [];
  const { stateful } = recogniseCollections(contract);
  const schemaKeys = new SchemaKeys(contract.document);
  for (const operationId of contract.operations.keys()) {
    try {
      operations.push(suiteContractOf(contract, operationId, stateful, schemaKeys));
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      const operation = contract.operations.get(operationId) as ContractOperation;
      untestable.push({ operationId, method: operation.method.toUpperCase(), path: operation.path, reason: error.message });
    }
  }
  return { source: contract.source, operations, untestable, compiled: contract };
}

/** The spec at `path`, one operation of it (the first that takes a JSON body by default). Throws SpecError. */
export function loadSuiteContract(path?: string, operationId?: string): SuiteContract {
  const contract = asSpecError(() => loadContract(path));
  return suiteContractOf(contract, operationId ?? primaryOperation(contract));
}

/** One operation of an already parsed document (the first that takes a JSON body by default); `source` names it in messages. */
export function compileSuiteContract(document: unknown, source: string, operationId?: string): SuiteContract {
  const contract = asSpecError(() => compileContract(document, source));
  return suiteContractOf(contract, operationId ?? primaryOperation(contract));
}

/** The CRUD roles (openapi/operations/collections.ts) of operations that store the body they are sent. */
const STORES: ReadonlySet<string> = new Set(['create', 'replace', 'patch', 'replace-in-body', 'patch-in-body', 'form-update']);

/** Whether a path lies below a collection's item path (`/bookings/{bookingId}/payment`): it names that record as its parent. */
function belowRecord(path: string, stateful: Iterable<{ collection: { itemPath?: string | undefined } }>): boolean {
  for (const { collection } of stateful) {
    const item = collection.itemPath?.replace(/\/$/, '');
    if (item !== undefined && path.startsWith(`${item}/`) && path.length > item.length + 1) return true;
  }
  return false;
}

/** Whether a CRUD role (openapi/operations/collections.ts) acts on an existing record. */
function onRecord(role: string | undefined): boolean {
  return role !== undefined && role !== 'create' && role !== 'list';
}

/** The first operation that takes a JSON body, else the first operation. */
function primaryOperation(contract: CompiledContract): string {
  const operations = [...contract.operations.values()];
  const withBody = operations.find((o) => [...(o.requestBody?.content.keys() ?? [])].some((key) => isJsonMediaType(key)));
  const first = withBody ?? operations[0];
  if (!first) throw new SpecError(`${contract.source} has no operation with an operationId; there is nothing to test.`);
  return first.operationId;
}

function declared(response: ContractResponse, status: number | string): DeclaredResponse {
  const media = [...response.content.values()].find((m) => m.schema !== undefined);
  const out: DeclaredResponse = {
    status,
    mediaTypes: [...response.content.keys()],
    properties: media?.properties ?? [],
    headerParameters: response.headerParameters ?? [],
    // The contract compiles a validator for every schema but `false` (no value passes it, nothing to compile).
    judged: Boolean(media?.schema),
    ...(media ? { schemaName: refName(media.schema) } : {}),
  };
  // The contract compiles response validators on first use; keep that lazy.
  if (media) Object.defineProperty(out, 'validate', { enumerable: true, get: () => media.validate });
  return out;
}

/** The schema of an identity's key: the property's, or its member's for an object identity. */
export function keySchemaOf(schema: JsonSchema | undefined, member: string | undefined): JsonSchema | undefined {
  if (member === undefined || schema === undefined) return schema;
  const inner = isObject(schema.properties) ? schema.properties[member] : undefined;
  return isObject(inner) ? (inner as JsonSchema) : undefined;
}

/** What the suite needs of one operation of a compiled contract. Throws SpecError. */
export function suiteContractOf(
  contract: CompiledContract,
  operationId: string,
  stateful: ReadonlyMap<
    string,
    {
      role: string;
      atTarget?: string;
      collection: {
        identity: { property: string; member?: string };
        itemPath?: string | undefined;
        itemParameter?: string | undefined;
        envelope?: string;
        createdAs?: ListShape;
        create: { operationId: string };
      };
    }
  > = recogniseCollections(contract).stateful,
  schemaKeys: SchemaKeys = new SchemaKeys(contract.document),
): SuiteContract {
  const role = stateful.get(operationId);
  const collectionIdentity = role?.role === 'create' ? new Map([[operationId, role.collection.identity.property]]) : undefined;
  // An object identity's key is its member (collections.ts, Identity.member): the body's key is that member of the property.
  const keyMember = role?.role === 'create' ? role.collection.identity.member : undefined;
  const { source } = contract;
  const operation = contract.operations.get(operationId);
  if (!operation) {
    throw new SpecError(`${source} has no operation ${operationId} (it has: ${[...contract.operations.keys()].join(', ') || 'none'}).`);
  }
  const responses = new Map<number, DeclaredResponse>();
  let fallback: DeclaredResponse | undefined;
  for (const [status, response] of operation.responses) {
    if (status === 'default') fallback = declared(response, 'default');
    else responses.set(status, declared(response, status));
  }
  const ranges = new Map<number, DeclaredResponse>();
  for (const [code, response] of operation.ranges ?? []) ranges.set(Number(code[0]), declared(response, code));
  // An operation that declares only redirects (an OAuth authorize endpoint answering 302) succeeds by its redirect.
  const redirects = [...responses.keys()].filter((status) => status >= 300 && status < 400);
  // A `default` beside them is the errors' (gotify's OIDC login: 302 and `default: Error`): the redirect is still the success.
  const redirectOnly = operation.successStatus === undefined && !ranges.has(2) && (redirects.length > 0 || ranges.has(3));
  const successStatus = operation.successStatus ?? (redirectOnly ? redirects[0] : undefined);
  // No responses at all (OpenAPI requires them, yet documents omit them): any 2xx is success.
  if (successStatus === undefined && !redirectOnly && !ranges.has(2) && !fallback && (responses.size > 0 || ranges.size > 0))
    throw new SpecError(`${source}: ${operationId} declares no 2xx response, so the suite cannot tell success.`);

  const content = operation.requestBody?.content;
  // A key may carry parameters (`application/json; charset=utf-8`): it is sent as written.
  // JSON first; an operation that takes only a form (urlencoded or multipart) is written in it.
  const keys = [...(content?.keys() ?? [])];
  const formKind = (key: string): 'form' | 'multipart' | undefined =>
    mediaEssence(key) === 'application/x-www-form-urlencoded' ? 'form' : mediaEssence(key) === 'multipart/form-data' ? 'multipart' : undefined;
  const mediaType = keys.find((key) => isJsonMediaType(key)) ?? keys.find((key) => formKind(key) !== undefined && content?.get(key)?.schema !== undefined);
  const media = mediaType === undefined ? undefined : content?.get(mediaType);
  let rawBody: RawBody | undefined;
  if (content?.size && operation.requestBody?.required && (mediaType === undefined || !media?.schema || !media.validate)) {
    // Bytes in a type that takes any (an octet stream, a text, schema-less JSON or form); the first such type declared.
    const raw = keys.find((key) => rawKindOf(key) !== undefined);
    if (raw === undefined) {
      throw new SpecError(
        `${source}: ${operationId} requires a request body in ${keys.join(', ')}, with no JSON or form schema; the suite writes JSON, URL-encoded and multipart bodies of a schema, and bytes in application/octet-stream or text.`,
      );
    }
    rawBody = { mediaType: raw, kind: rawKindOf(raw) as RawKind };
  }
  // An enveloped collection's body and answers hold the record inside their one member: what is echoed is inside it (the mock's rule).
  const envelope = role?.collection.envelope !== undefined && media && envelopeOf(media) === role.collection.envelope ? role.collection.envelope : undefined;
  const sentRecord = envelope === undefined || !media ? undefined : envelopedMedia(media, envelope, contract.document);
  const innerProperties = sentRecord ? (sentRecord.variants[0] as BodyVariant).properties : undefined;
  let requestBody: RequestBody | undefined;
  if (mediaType !== undefined && media?.schema && media.validate) {
    const variants = media.variants;
    const properties = (variants[0] as BodyVariant).properties;
    const keyName = collectionIdentity?.get(operationId);
    // A readOnly id is the server's: a client's value is ignored, so it is no identity the client sends. The collection's own
    // integer identity (`userId`) first: a correct provider refuses a repeat of it (409), so each body needs a fresh one.
    const integerNamed = (name: string | undefined): RequestProperty | undefined => properties.find((p) => p.name === name && typesOf(p.schema).includes('integer') && p.schema.readOnly !== true);
    const identity = integerNamed(keyName) ?? integerNamed('id');
    // An enveloped record carries its key inside the envelope, where the mock stores the record from.
    const key = (innerProperties ?? properties).find(
      (p) =>
        p !== identity &&
        p.name === keyName &&
        p.schema.readOnly !== true &&
        (keyMember === undefined ? stringKeySchema(p.schema) !== undefined : typesOf(keySchemaOf(p.schema, keyMember) ?? {}).includes('string')),
    );
    const kind = formKind(mediaType);
    requestBody = {
      ...(key ? { key, ...(keyMember === undefined ? {} : { keyMember }) } : {}),
      ...(key && innerProperties && envelope !== undefined ? { keyIn: envelope } : {}),
      ...(key && role?.collection.itemPath !== undefined ? { keyInPath: true as const } : {}),
      ...(kind && !isJsonMediaType(mediaType)
        ? {
            form: {
              kind,
              read: media.readForm,
              files: new Set(properties.filter((p) => p.schema.format === 'binary' || p.schema.contentMediaType !== undefined).map((p) => p.name)),
            },
          }
        : {}),
      mediaTypes: [...(content?.keys() ?? [])],
      mediaType,
      schemaName: refName(media.schema) ?? 'request body',
      validate: media.validate,
      properties,
      variants,
      ...(identity ? { identity } : {}),
      additionalProperties: media.object.additionalProperties,
      required: operation.requestBody?.required === true,
    };
  }
  const parameters: SuiteParameter[] = operation.parameters.map((p) => ({
    name: p.name,
    in: p.in,
    required: p.required,
    schema: p.inlined,
    style: p.style,
    explode: p.explode,
    ...(p.validate ? { validate: p.validate } : {}),
    read: p.read,
  }));
  const recordProperties = innerProperties ?? requestBody?.properties;
  // A second create (at the item path) answers the record itself: the list shape is the collection's own create's.
  const createdAs = role?.role === 'create' && role.collection.create.operationId === operationId ? role.collection.createdAs : undefined;
  // The record's properties and their schemas in one 2xx answer: inside the envelope, or the list's item, else the answer's own.
  const answeredRecord = (m: ContractMediaType): ReadonlyMap<string, unknown> | undefined =>
    createdAs !== undefined
      ? m.itemObject(createdAs.kind === 'wrapped' ? createdAs.property : undefined)?.properties
      : envelope === undefined
        ? m.propertySchemas
        : envelopedMedia(m, envelope, contract.document)?.propertySchemas;
  const successes = [...operation.responses.values()].filter((r) => typeof r.status === 'number' && r.status >= 200 && r.status < 300);
  const answeredRecords = successes.flatMap((r) => [...r.content.values()].flatMap((m) => answeredRecord(m) ?? []));
  // Every declared 2xx's properties: the check echoes those the status answered declares.
  const successProperties =
    envelope === undefined && createdAs === undefined
      ? [...new Set([...responses].flatMap(([status, response]) => (status >= 200 && status < 300 ? response.properties : [])))]
      : [...new Set(answeredRecords.flatMap((record) => [...record.keys()]))];
  // Each echoed property's schema in the 2xx answers that declare it: writeOnly there is never answered; another schema is a transformation.
  const answeredSchemas = (name: string): unknown[] => answeredRecords.flatMap((record) => (record.has(name) ? [record.get(name)] : []));
  const requestSchemaOf = (name: string): unknown => recordProperties?.find((p) => p.name === name)?.schema;
  const sent = new Set(recordProperties?.map((p) => p.name) ?? []);
  return {
    source,
    operation,
    operationId,
    method: operation.method.toUpperCase(),
    path: operation.path,
    successStatus,
    ...(redirectOnly ? { redirectOnly: true as const } : {}),
    responses,
    ranges,
    ...(fallback ? { fallback } : {}),
    declared: operation.declaredStatuses,
    security: securityOf(contract, operation.security, operationId),
    requirements: operation.security.map((requirement) => [...requirement]),
    schemes: schemePlaces(contract),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    ...(rawBody ? { rawBody } : {}),
    // A writeOnly property (a password) is sent and never answered.
    // A readOnly property a client sends is ignored, so it is not echoed either.
    // Only an operation that stores what it is sent (the CRUD rule's create, replace, patch) answers with it:
    // another (an upload, a payment, a search) may answer whatever its schema allows.
    echoed: successProperties.filter((name) => {
      if (!STORES.has(stateful.get(operationId)?.role ?? '')) return false;
      const schema = recordProperties?.find((p) => p.name === name)?.schema;
      const answeredWriteOnly = answeredSchemas(name).some((answered) => inlineSchema(answered, contract.document).writeOnly === true);
      return sent.has(name) && schema?.writeOnly !== true && schema?.readOnly !== true && !answeredWriteOnly;
    }),
    transformed: new Set(successProperties.filter((name) => sent.has(name) && answeredSchemas(name).some((answered) => !schemaKeys.same(requestSchemaOf(name), answered)))),
    echoDefaults: new Map(recordProperties?.flatMap((p) => (isObject(p.schema) && 'default' in p.schema ? [[p.name, p.schema.default] as const] : [])) ?? []),
    ...(envelope === undefined ? {} : { envelope }),
    ...(createdAs === undefined ? {} : { createdAs }),
    actsOnRecord: onRecord(stateful.get(operationId)?.role) || belowRecord(operation.path, stateful.values()),
    ...(role?.role === 'create' && role.atTarget !== undefined && role.collection.itemParameter !== undefined ? { atTarget: role.collection.itemParameter } : {}),
  };
}

/**
 * The body a record is written in inside an envelope (`{"article": {...}}`, collections.ts
 * envelopedMedia): `inner` is the envelope's member as a media type of its own, whose validator
 * judges the envelope holding a value. The suite writes the record with it and wraps the text.
 */
export function envelopedBody(outer: RequestBody, inner: ContractMediaType): RequestBody {
  return {
    mediaTypes: outer.mediaTypes,
    mediaType: outer.mediaType,
    schemaName: refName(inner.schema) ?? outer.schemaName,
    validate: inner.validate ?? outer.validate,
    properties: (inner.variants[0] as BodyVariant).properties,
    variants: inner.variants,
    additionalProperties: inner.object.additionalProperties,
    required: outer.required,
  };
}

/**
 * The schema of a collection key's string values: the key's own, or the string branch of a union
 * without a type of its own (pi-hole's group `name`: a name or an array of names). A path segment
 * names a record by one string, so a fresh key is drawn from that branch for every body, never
 * one fixed value of another branch repeated (the core's collections read the identity the same way).
 */
export function stringKeySchema(schema: JsonSchema): JsonSchema | undefined {
  if (typesOf(schema).includes('string')) return schema;
  if (typesOf(schema).length > 0) return undefined;
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  return branches.find((branch): branch is JsonSchema => isObject(branch) && typesOf(branch as JsonSchema).includes('string'));
}

/** Annotations and keywords that say nothing about which values a schema takes, or say it of one direction only. */
const ANNOTATIONS = new Set(['title', 'description', 'example', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'externalDocs', 'xml', '$id', '$anchor']);

/**
 * The values a schema takes, written one way: refs inlined, annotations and `x-` extensions left out, keys
 * sorted, each object or array written as the number `interned` gives its text of its members' numbers.
 * The text of a whole inlined schema grows with every place a ref is expanded (openEHR's Composition: each
 * data type down each branch of each union); the numbers keep it to one short line per distinct node,
 * and a ref's expansion, shared wherever it stands (inlineSchema), is written once.
 */
function schemaKey(schema: unknown, document: unknown, interned: Map<string, number>, written: WeakMap<object, string>): string {
  const write = (node: unknown): string => {
    if (node === undefined) return 'null';
    if (node === null || typeof node !== 'object') return JSON.stringify(node);
    const known = written.get(node);
    if (known !== undefined) return known;
    let text: string;
    if (Array.isArray(node)) text = `[${node.map(write).join(',')}]`;
    else {
      const members: string[] = [];
      for (const key of Object.keys(node).sort()) {
        const value = (node as Record<string, unknown>)[key];
        if (ANNOTATIONS.has(key) || key.startsWith('x-') || value === undefined) continue;
        members.push(`${JSON.stringify(key)}:${write(value)}`);
      }
      text = `{${members.join(',')}}`;
    }
    let id = interned.get(text);
    if (id === undefined) interned.set(text, (id = interned.size));
    const short = `#${id}`;
    written.set(node, short);
    return short;
  };
  return write(inlineSchema(schema, document));
}

/**
 * Each schema's schemaKey, worked out once per spec: the same answer schemas are compared for every
 * property of every operation, and inlining them each time was most of openehr-ehr's suiteSpecOf
 * (7 of 11 s CPU: a Composition of discriminated unions).
 */
class SchemaKeys {
  readonly #keys = new WeakMap<object, string>();
  /** Each distinct node's text (its members as numbers) and its number, for every key of the spec. */
  readonly #interned = new Map<string, number>();
  /** Each node's number, for every key of the spec: inlined schemas share their refs' expansions. */
  readonly #written = new WeakMap<object, string>();
  constructor(private readonly document: unknown) {}

  /** Whether the request's and the answer's schema for one property take the same values (so an echo can be compared). */
  same(requested: unknown, answered: unknown): boolean {
    return requested === answered || this.#of(requested) === this.#of(answered);
  }

  #of(schema: unknown): string {
    if (schema === null || typeof schema !== 'object') return schemaKey(schema, this.document, this.#interned, this.#written);
    let key = this.#keys.get(schema);
    if (key === undefined) this.#keys.set(schema, (key = schemaKey(schema, this.document, this.#interned, this.#written)));
    return key;
  }
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
  return contract.requestBody?.validate(value) === true;
}

/** Where each scheme the suite can send puts its credential (mutualTLS and unknown types are left out). */
function schemePlaces(contract: CompiledContract): Map<string, SchemePlace> {
  const places = new Map<string, SchemePlace>();
  for (const [name, scheme] of contract.securitySchemes) {
    if (scheme.kind === 'http-bearer' || scheme.kind === 'oauth-bearer') places.set(name, { kind: 'bearer' });
    else if (scheme.kind === 'http-basic') places.set(name, { kind: 'basic' });
    else if (scheme.kind === 'api-key') places.set(name, { kind: 'api-key', in: scheme.in, name: scheme.parameter });
  }
  return places;
}

function securityOf(contract: CompiledContract, requirements: readonly (readonly string[])[], operationId: string): SecurityScheme {
  if (requirements.length === 0 || requirements.some((names) => names.length === 0)) {
    return { kind: 'none', reason: `the spec declares no security for ${operationId}, so there are no credentials to refuse` };
  }
  // Alternatives: the first one the suite can send. One requirement object's schemes are ANDed: every one of them is sent.
  const problems: string[] = [];
  for (const requirement of requirements) {
    try {
      return requirementOf(contract, requirement, operationId);
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      problems.push(error.message);
    }
  }
  throw new SpecError(problems.join(' '));
}

function requirementOf(contract: CompiledContract, requirement: readonly string[], operationId: string): SecurityScheme {
  type Sendable = { kind: 'bearer' | 'basic'; name: string; type: string } | { kind: 'api-key'; name: string; in: 'header' | 'query' | 'cookie'; header: string };
  const schemes = requirement.map((name): Sendable => {
    const scheme = contract.securitySchemes.get(name);
    if (scheme?.kind === 'http-bearer') return { kind: 'bearer', name, type: 'http bearer' };
    if (scheme?.kind === 'oauth-bearer') return { kind: 'bearer', name, type: scheme.type };
    if (scheme?.kind === 'http-basic') return { kind: 'basic', name, type: 'http basic' };
    if (scheme?.kind === 'api-key') return { kind: 'api-key', name, in: scheme.in, header: scheme.in === 'header' ? scheme.parameter.toLowerCase() : scheme.parameter };
    const what = scheme?.kind === 'unsupported' ? scheme.type : 'undeclared';
    throw new SpecError(
      `${contract.source}: the security scheme ${name} (${what}) of ${operationId} is not one the suite can send; it sends bearer tokens (oauth2 and OpenID Connect too), HTTP Basic and API keys.`,
    );
  });
  const authorization = schemes.filter((scheme) => scheme.kind === 'bearer' || scheme.kind === 'basic');
  if (authorization.length > 1) {
    throw new SpecError(`${contract.source}: ${operationId} requires ${authorization.map((b) => b.name).join(' and ')} together, but one Authorization header carries one credential.`);
  }
  const main = authorization[0] ?? schemes[0];
  const alongside = schemes.flatMap((scheme) => {
    if (scheme === main || scheme.kind !== 'api-key') return [];
    if (scheme.in !== 'header')
      throw new SpecError(
        `${contract.source}: ${operationId} requires the API key ${scheme.name} in a ${scheme.in} together with ${main?.name}; the suite sends keys alongside the main credential in headers only.`,
      );
    return [{ name: scheme.name, header: scheme.header }];
  });
  if (main?.kind === 'api-key') return { ...main, alongside };
  return { kind: main?.kind ?? 'bearer', name: main?.name ?? '', ...(main ? { type: main.type } : {}), alongside };
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false; problem: string };

/** The bodies read by parsedBodyOf, per message (an exchange's response or request): a check, the clean-up and the coverage count each read them. */
const PARSED = new WeakMap<object, ParsedBody>();

/**
 * A message's body parsed once for all its readers (the value is shared: they read it, never change it):
 * parsing every answer again in each was a twentieth of a run on a large document.
 */
export function parsedBodyOf(message: { readonly body: string }): ParsedBody {
  let parsed = PARSED.get(message);
  if (parsed === undefined) PARSED.set(message, (parsed = parseBody(message.body)));
  return parsed;
}

/** A response body parsed losslessly (an int64 keeps its real digits). */
export function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { ok: false, problem: 'the body is empty' };
  try {
    return { ok: true, value: parseExactJson(text) };
  } catch (error) {
    return { ok: false, problem: `the body is not JSON (${(error as Error).message})` };
  }
}
