/**
 * The engine's types in one place, so that its modules (routes, the judge, the request path, the
 * handlers) and the proxy depend on them rather than on each other: the engine of one spec, what a
 * request is decided with (`EngineContext`), and the context each handler receives.
 */
import type { ListedParameter, RecordParameter } from '../../openapi/operations/dependencies.js';
import type { ListedRecords } from './listed-records.js';
import type { ExactFilter } from '../../openapi/operations/list-filters.js';
import type { IncomingMessage } from 'node:http';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Collection, Singleton, SingletonRole, StatefulOperation } from '../../openapi/operations/collections.js';
import type { QueryValues } from '../../openapi/operations/parameters.js';
import type { CompiledContract, ContractMediaType, ContractOperation, ContractParameter } from '../../openapi/operations/model.js';
import type { MediaMatcher } from '../../openapi/media-types.js';
import type { Answer } from '../http/answer.js';
import type { CorsGrant } from '../http/cors.js';
import type { ResourceStore } from '../stores/store.js';
import type { ScanBound } from './scan-bound.js';
import type { ErrorAnswers } from './error-answers.js';
import type { HeaderValues } from './declared-headers.js';
import type { GeneratedBodies } from './generated-bodies.js';
import type { AssignedIdentities } from './identities.js';
import type { Preferences } from './prefer.js';
import type { DereferencedOperations } from './dereferenced-operations.js';
import type { CredentialSource, SecurityOutcome } from './security.js';

export interface Engine {
  contract: CompiledContract;
  /** The operations as openapi-backend's router gives them, for the inspector's /__mock/spec (loaded on first use). */
  dereferenced: DereferencedOperations;
  routes: Router;
  collections: readonly Collection[];
  stateful: ReadonlyMap<string, StatefulOperation>;
  /** Why each operation answered from the spec's examples is not served from the store, by operationId (collections.ts). */
  stateless: ReadonlyMap<string, string>;
  /** The singleton documents' operations by operationId, each with its role and document (openapi/operations/collections.ts). */
  singletons: ReadonlyMap<string, { role: SingletonRole; singleton: Singleton }>;
  /** The collection the admin seed and `--seed` fill: the first the spec declares. */
  primary: Collection | undefined;
  /** The identities the mock assigns, per store collection. */
  identities: AssignedIdentities;
  /** `POST /plants` … for messages. */
  operationList: string;
  /** The base paths the spec's servers name (`/api/v3`), which the mock does not serve under: a 404 there says so. */
  basePaths: readonly string[];
  /** Security schemes the mock cannot check (mutualTLS …): they are treated as satisfied. */
  unchecked: readonly string[];
  /** The realm of the API's 401 challenges, from the spec's title. */
  realm: string;
  /** The mock's own answers in the shapes the spec declares. */
  errors: ErrorAnswers;
  /** The headers a page on another origin may send and read: ours and the spec's. */
  cors: CorsGrant;
  /** Bodies generated from a response's schema where the spec gives no example, each checked against it. */
  bodies: GeneratedBodies;
  /** The value of each header the spec requires in an answer, for the answers that do not carry it. */
  headerValues: HeaderValues;
  /**
   * The path parameters naming a record of a collection, by operationId (openapi/operations/dependencies.ts): an
   * operation answered from the spec's examples that declares 404 answers it when one names no stored record.
   */
  records: ReadonlyMap<string, readonly RecordParameter[]>;
  /**
   * The path parameters naming a record only a list answers, by operationId (openapi/operations/dependencies.ts):
   * an operation declaring 404 answers it when one names a record its list never answers (./listed-records.ts).
   */
  listed: ReadonlyMap<string, readonly ListedParameter[]>;
  /** What each such list answers, read on the first request that needs it. */
  listedRecords: ListedRecords;
  /** A list's exact filters (openapi/operations/list-filters.ts), worked out on its first answer from the spec. */
  filtersOf(operation: ContractOperation): readonly ExactFilter[];
  /** The handlers by operationId, and the hooks (./handlers.ts) by name. */
  handlers: Readonly<Record<string, MockHandler>>;
}

/** What the request path decides an answer with: the mock's, or the proxy's (whose store is unused). */
export interface EngineContext {
  /** The engine of the current spec; --watch replaces it when the spec changes. */
  engine: Engine;
  store: ResourceStore;
  /** Largest accepted body in bytes. */
  maxBody: number;
  /** How many records a list's filter reads per event-loop turn (DEFAULT_SCAN_BOUND when undefined). */
  scan?: ScanBound;
}

/** The route table (routes.ts). */
export interface Router {
  readonly operations: readonly RoutedOperation[];
  route(method: string, path: string): Route;
}

export type Route = { kind: 'operation'; operation: RoutedOperation; params: Record<string, string> } | { kind: 'method-not-allowed'; allow: string } | { kind: 'not-found' };

/** A security scheme's check, as a function of the request. */
export type SecurityCheck = (request: CredentialSource) => SecurityOutcome;

export interface RoutedOperation {
  operationId: string;
  /** Upper case, as on the wire. */
  method: string;
  path: string;
  contract: ContractOperation;
  /** The handler registered for the operationId, or the notImplemented hook. */
  handler: MockHandler;
  /** Whether `handler` is a stateful one (served from the store) rather than the spec's examples. */
  stateful: boolean;
  /** Alternatives (any one suffices), each a list of security checks that must all pass. */
  security: ReadonlyArray<ReadonlyArray<{ name: string; check: SecurityCheck }>>;
  /** The auth-scheme a 401 challenges with (RFC 7235). */
  challengeScheme: string | undefined;
  /** The realm it names (from the spec's title). */
  realm: string;
  /** The methods the path takes, for Allow. */
  allow: string;
  /**
   * The request body the operation takes: `media` is its JSON media type (else the first
   * declared), `content` every declared one (a body in any of them is read: ./body.ts),
   * `accepted` their essences for the 415's words; undefined when it takes none.
   */
  body:
    | {
        required: boolean;
        accepted: readonly string[];
        media: ContractMediaType;
        schemaName: string;
        content: ReadonlyMap<string, ContractMediaType>;
        /** Which of `content`'s keys a Content-Type falls under (compiled once). */
        matcher: MediaMatcher;
      }
    | undefined;
  parameters: readonly ContractParameter[];
  /** The JSON media type of the success response (what a stateful answer's body follows); undefined when it declares none. */
  successMedia: ContractMediaType | undefined;
  /** Statuses `Prefer: code=` may force. */
  forceable: readonly number[];
  /** The route to this operation at a path without templates, made once. */
  staticRoute?: Route;
}

/** Where validation failed, for validationFail's words. */
export interface MockValidation {
  valid: boolean;
  errors?: ErrorObject[] | null;
  /** The body (`body`) or the parameters (`parameters`). */
  where?: 'body' | 'parameters';
  /** The validated value, to quote numbers as sent. */
  root?: unknown;
}

/** One request as the handlers see it. */
export interface RequestContext {
  request: {
    method: string;
    path: string;
    params: Readonly<Record<string, string | string[]>>;
    query: Readonly<Record<string, string | string[]>>;
    /** The same query as read from the URL (each name's values in order), kept for the parameters' readers. */
    queryValues?: QueryValues;
    headers: Readonly<Record<string, string | string[] | undefined>>;
    /** The body parsed (exact numbers), once read. */
    requestBody?: unknown;
    /** The JSON text as received (for records and the journal); undefined for a body of another media type (decoded or kept as text). */
    bodyText?: string | undefined;
    /** The validator of the declared media type the body was read as. */
    bodyValidate?: ValidateFunction | undefined;
    /** Each parameter sent, by name, read by its style and coerced to its schema (set by `validate`). */
    parameterValues?: Record<string, unknown>;
  };
  validation: MockValidation;
  /** Each security scheme's outcome by name, and `authorized`. */
  security: Readonly<Record<string, unknown>>;
}

/** What the request path hands every handler besides the request's context. */
export interface Exchange {
  req: IncomingMessage;
  mock: EngineContext;
  prefer: Preferences;
  /** The routed operation (undefined for notFound / methodNotAllowed). */
  operation?: RoutedOperation;
  /** The declared media type `Accept` chose for the answer (./negotiate.ts); undefined: the default. */
  mediaType?: string;
  /** For notFound / methodNotAllowed. */
  route?: { method: string; path: string; allow?: string };
}

export type MockHandler = (c: RequestContext, exchange: Exchange) => Answer | Promise<Answer>;
