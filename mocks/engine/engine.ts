/**
 * The stateful mock's engine for one spec: the compiled contract, the resources it serves from the
 * store, its handlers (by operationId, and the hooks by name) and security checks (by scheme name),
 * and the route table compiled from the contract's operations with both. Built once per spec
 * (again on --watch); nothing in it depends on a request.
 */
import { readContract } from '../../openapi/operations/compile.js';
import type { ParsedTextCache } from '../../openapi/document/parsed-text-cache.js';
import { type CompiledContract } from '../../openapi/operations/model.js';
import { ErrorAnswers, realmOf } from './error-answers.js';
import { GeneratedBodies, type Warn } from './generated-bodies.js';
import { hookHandlers } from './handlers.js';
import { AssignedIdentities } from './identities.js';
import { DereferencedOperations } from './dereferenced-operations.js';
import { statefulHandlers } from './stateful.js';
import { recogniseCollections, recogniseSingletons, type RecognitionOptions } from '../../openapi/operations/collections.js';
import { listedParameters, recordParameters } from '../../openapi/operations/dependencies.js';
import { ListedRecords } from './listed-records.js';
import { exactFilters, type ExactFilter } from '../../openapi/operations/list-filters.js';
import { singletonHandlers } from './singletons.js';
import type { Engine, MockHandler, SecurityCheck } from './context.js';
import { compileRoutes } from './routes.js';
import { securityCheck } from './security.js';
import { specCorsGrant } from '../http/cors.js';
import { declaredHeaderValues } from './declared-headers.js';

export interface EngineOptions extends RecognitionOptions {
  /** The OpenAPI document (default: the bundled spec). */
  spec?: string;
  /** OpenAPI Overlay 1.0 documents applied to it in order before it is compiled (`--overlay`). */
  overlays?: readonly string[];
  /** Where the spec's parsed value is kept between starts (openapi/document/parsed-text-cache.ts); none when undefined. */
  parsedCache?: ParsedTextCache;
  /** The spec already compiled, used instead of reading `spec` (with its overlays). */
  contract?: CompiledContract;
  /** Accepted credentials for whichever scheme the spec declares; undefined accepts any well-formed one. */
  tokens?: ReadonlySet<string>;
  /** Where the engine says what it could not do for a request (a body it could not generate), once each. */
  warn?: Warn;
}

export type { Engine } from './context.js';

export async function loadEngine(options: EngineOptions = {}): Promise<Engine> {
  const contract = options.contract ?? (await readContract(options.spec, options.overlays, options.parsedCache));
  return buildEngine(contract, options);
}

async function buildEngine(contract: CompiledContract, options: EngineOptions = {}): Promise<Engine> {
  const { collections, stateful, stateless } = recogniseCollections(contract, options);
  const singletons = recogniseSingletons(contract, { collections, stateful }, options);
  const written = new Set([...singletons.values()].map(({ singleton }) => singleton));
  const handlers: Record<string, MockHandler> = { ...hookHandlers(), ...statefulHandlers(stateful, contract, written), ...singletonHandlers(singletons, contract) };
  const realm = realmOf(contract.title);
  const policy = { realm, tokens: options.tokens };
  const unchecked: string[] = [];
  const checks = new Map<string, SecurityCheck>();
  for (const scheme of contract.securitySchemes.values()) {
    if (scheme.kind === 'unsupported') unchecked.push(`${scheme.name} (${scheme.type})`);
    checks.set(scheme.name, securityCheck(scheme, policy));
  }
  const routes = compileRoutes(contract, new Set([...stateful.keys(), ...singletons.keys()]), handlers, checks);
  let records: Engine['records'] | undefined;
  let listed: Engine['listed'] | undefined;
  const bodies = new GeneratedBodies(contract.document, options.warn);
  // An operation the user named stateless is answered from the spec alone (--stateless).
  const servedStatefully = ([operationId]: [string, unknown]): boolean => options.stateless !== 'all' && options.stateless?.has(operationId) !== true;
  const filters = new Map<string, readonly ExactFilter[]>();
  return {
    contract,
    dereferenced: new DereferencedOperations(contract.document),
    routes,
    collections,
    stateful,
    // A singleton document's operations are served from the store after all.
    stateless: new Map([...stateless].filter(([operationId]) => !singletons.has(operationId))),
    singletons,
    primary: collections[0],
    identities: new AssignedIdentities(),
    operationList: routes.operations.map((o) => `${o.method} ${o.path}`).join(', ') || 'no operations',
    basePaths: contract.basePaths,
    unchecked,
    realm,
    errors: new ErrorAnswers(contract),
    cors: specCorsGrant(contract),
    bodies,
    headerValues: await declaredHeaderValues(contract, options.warn),
    // Read only by an answer from the spec's examples: worked out on the first one rather than before every
    // start's first answer (the dependency graph of every operation: about 4 % of netlify's start).
    get records() {
      return (records ??= new Map([...recordParameters(contract, collections)].filter(servedStatefully)));
    },
    // Read by a request to an operation declaring 404 with a path parameter: worked out then, as `records`.
    get listed() {
      return (listed ??= new Map([...listedParameters(contract, collections)].filter(servedStatefully)));
    },
    listedRecords: new ListedRecords(bodies),
    filtersOf(operation) {
      let known = filters.get(operation.operationId);
      if (known === undefined) filters.set(operation.operationId, (known = exactFilters(operation, contract.document)));
      return known;
    },
    handlers,
  };
}
