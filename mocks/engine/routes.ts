/**
 * The contract's operations, compiled once into what a request needs per call: a
 * route table (static paths by a map lookup, templates segment by segment, the most specific first, trailing
 * slashes ignored — openapi-backend's own matching rules), and for each operation its handler and
 * security checks, its validators and its success response.
 *
 * Why not openapi-backend's `handleRequest`: it parses the request twice, routes by scanning every
 * operation and runs every handler through promise chains, which costs more than the rest of the
 * mock's request path together; the speed goals cannot carry it (docs/benchmarks.md has the
 * profile). `mocks/test/routes.test.ts` holds this table to openapi-backend's router.
 */
import type { CompiledContract, ContractMediaType, ContractOperation } from '../../openapi/operations/model.js';
import { firstJson, isJsonMediaType, MediaMatcher, mediaEssence } from '../../openapi/media-types.js';
import { PathTemplate, templateNames, templateValues } from '../../openapi/operations/paths.js';
import { successOf } from '../../openapi/operations/model.js';
import { forceableStatuses } from './prefer.js';
import { refName } from '../../openapi/schema/resolve.js';
import { challengeScheme } from './security.js';
import { realmOf } from './error-answers.js';
import type { MockHandler, Route, RoutedOperation, Router, SecurityCheck } from './context.js';

export type { Route, RoutedOperation } from './context.js';

interface Template {
  pattern: PathTemplate;
  /** Characters outside templates: the longer, the more specific (openapi-backend's order). */
  specificity: number;
  /** Each method's operation, with its own names for the captures (equivalent templates may name them differently). */
  byMethod: Map<string, { operation: RoutedOperation; names: string[] }>;
}

/** A scheme with no check (none registered): nothing to satisfy. */
const SATISFIED: SecurityCheck = () => ({ credential: '' });

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export class RouteTable implements Router {
  readonly #static = new Map<string, Map<string, RoutedOperation>>();
  readonly #templates: Template[] = [];
  readonly operations: RoutedOperation[];

  constructor(operations: RoutedOperation[]) {
    this.operations = operations;
    for (const operation of operations) {
      const path = trimSlash(operation.path);
      if (!path.includes('{')) {
        let byMethod = this.#static.get(path);
        if (!byMethod) this.#static.set(path, (byMethod = new Map()));
        byMethod.set(operation.method, operation);
        operation.staticRoute = Object.freeze({ kind: 'operation', operation, params: NO_PARAMS });
        continue;
      }
      const pattern = new PathTemplate(path);
      let template = this.#templates.find((t) => t.pattern.key === pattern.key);
      if (!template) {
        template = { pattern, specificity: path.replace(/\{[^}]*\}/g, '').length, byMethod: new Map() };
        this.#templates.push(template);
      }
      // The first operation of a method wins, as in openapi-backend (document order).
      if (!template.byMethod.has(operation.method)) {
        template.byMethod.set(operation.method, { operation, names: templateNames(path) });
      }
    }
    this.#templates.sort((a, b) => b.specificity - a.specificity);
    // Once per path: a path's operations share it, and each is a test of every template.
    const allowed = new Map<string, string>();
    for (const operation of operations) {
      const path = trimSlash(operation.path);
      let allow = allowed.get(path);
      if (allow === undefined) allowed.set(path, (allow = this.#allowAt(path)));
      operation.allow = allow;
    }
  }

  route(method: string, rawPath: string): Route {
    const path = trimSlash(rawPath);
    const exact = this.#static.get(path);
    const found = exact?.get(method);
    if (found) return found.staticRoute as Route;
    let allowedSomewhere = exact !== undefined;
    const sent = path.split('/');
    const trimmed = path.endsWith('/') ? sent.slice(0, -1) : undefined;
    for (const template of this.#templates) {
      const match = template.pattern.matchSplit(sent, trimmed);
      if (!match) continue;
      allowedSomewhere = true;
      const found = template.byMethod.get(method);
      if (!found) continue;
      const { operation, names } = found;
      return { kind: 'operation', operation, params: templateValues(names, match) };
    }
    return allowedSomewhere ? { kind: 'method-not-allowed', allow: this.#allowAt(path) } : { kind: 'not-found' };
  }

  /** Every method some operation takes at `path` (HEAD after GET: a GET route answers it), then OPTIONS (answered for CORS preflights). */
  #allowAt(path: string): string {
    const methods = new Set<string>(this.#static.get(path)?.keys());
    for (const template of this.#templates) if (template.pattern.test(path)) for (const method of template.byMethod.keys()) methods.add(method);
    methods.delete('OPTIONS');
    const listed: string[] = [];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      listed.push(method);
      if (method === 'GET') listed.push('HEAD');
    }
    if (methods.has('HEAD') && !methods.has('GET')) listed.push('HEAD');
    return [...listed, 'OPTIONS'].join(', ');
  }
}

/**
 * Compiles the contract's operations (document order; each operation's security, else the
 * document's, as openapi-backend's router merges them), with the engine's handlers by operationId
 * and security checks by scheme name.
 */
export function compileRoutes(contract: CompiledContract, stateful: ReadonlySet<string>, handlers: Readonly<Record<string, MockHandler>>, checks: ReadonlyMap<string, SecurityCheck>): RouteTable {
  const operations: RoutedOperation[] = [];
  const realm = realmOf(contract.title);
  for (const operation of contract.operations.values()) {
    const operationId = operation.operationId;
    const security = securityRequirements(operation, checks);
    const firstScheme = operation.security.flat()[0];
    const scheme = firstScheme === undefined ? undefined : contract.securitySchemes.get(firstScheme);
    operations.push({
      operationId,
      method: operation.method.toUpperCase(),
      path: operation.path,
      contract: operation,
      handler: (handlers[operationId] ?? handlers.notImplemented) as MockHandler,
      stateful: stateful.has(operationId),
      security,
      challengeScheme: scheme ? challengeScheme(scheme) : undefined,
      realm,
      allow: '',
      body: requestBodyOf(operation),
      parameters: operation.parameters,
      successMedia: firstJson(successOf(operation)?.response.content),
      forceable: forceableStatuses(operation.declaredStatuses),
    });
  }
  return new RouteTable(operations);
}

/**
 * The operation's security requirements with the checks of their schemes (any one requirement
 * suffices, every scheme in it must pass); the Prism mock's edge judges credentials by these too.
 */
export function securityRequirements(operation: ContractOperation, checks: ReadonlyMap<string, SecurityCheck>): RoutedOperation['security'] {
  return operation.security.map((requirement) => requirement.map((name) => ({ name, check: checks.get(name) ?? SATISFIED })));
}

function requestBodyOf(operation: ContractOperation): RoutedOperation['body'] {
  const content = operation.requestBody?.content;
  if (!content || content.size === 0) return undefined;
  // Matched by essence: a spec may declare `application/json; charset=utf-8`; a request's parameters are checked apart.
  const keys = [...content.keys()];
  const json = keys.filter(isJsonMediaType);
  // JSON first: the media type a stateful handler, the cases and the messages speak of.
  const ordered = [...json, ...keys.filter((key) => !json.includes(key))];
  const accepted = [...new Set(ordered.map(mediaEssence))].filter((essence) => !essence.includes('*'));
  const media = content.get(ordered[0] as string) as ContractMediaType;
  const schemaName = refName(media.schema) ?? 'request body';
  return { required: operation.requestBody?.required ?? false, accepted, media, schemaName, content, matcher: new MediaMatcher(keys) };
}

/** The path without its trailing slashes (all of them, as openapi-backend's ignoreTrailingSlashes). */
function trimSlash(path: string): string {
  if (path.length <= 1 || path.charCodeAt(path.length - 1) !== 47 /* / */) return path;
  let end = path.length - 1;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return path.slice(0, end);
}
