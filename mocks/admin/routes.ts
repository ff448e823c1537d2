/**
 * The mock's own routes under /__mock (outside the spec): list, reset and seed the store, read
 * the request journal, check health. Protected by the admin token when one is set.
 */
import type { IncomingMessage } from 'node:http';
import { checkBearer } from '../engine/security.js';
import { preflightHeaders } from '../http/cors.js';
import { ADMIN_REALM, isRejection, reject } from '../errors.js';
import { parseSeed, storeSeed } from '../engine/seed.js';
import { parentGone, parentMissing, parentRecord } from '../engine/stateful.js';
import { contextOf } from '../engine/request-path.js';
import { ownPathsBelow, type Collection } from '../../openapi/operations/collections.js';
import { pathTemplatePattern, templateNames, templateValues } from '../../openapi/operations/paths.js';
import { checkContentEncoding, checkJsonMediaType, readBody } from '../http/request-body.js';
import { jsonAnswer, rejected, type Answer } from '../http/answer.js';
import { DOCS_DOCUMENT_PATH, docsDocument, INSPECTOR_ASSETS, inspectorAsset, type InspectorPath } from './inspector.js';
import type { MockContext } from './context.js';
import { keyInWords } from '../engine/records.js';
import { storeName, underPath } from '../engine/store-names.js';
import { pathOf } from '../http/respond.js';
import type { ValidatingProxy } from '../proxy/proxy.js';
import { casesAnswer } from './cases.js';
import { documentAt, documentRoutes } from './documents.js';
import { specAnswer } from './spec-view.js';
import { ADMIN_PREFIX, isAdminPath } from './prefix.js';
import { RELOADS_HEADER } from './journal-wait.js';
import { listingAnswer, parseListingQuery } from './listing.js';
import { journalEntry, journalListing, parseJournalQuery, REQUESTS_ROUTE, waitedListing } from './requests.js';

export { ADMIN_PREFIX, isAdminPath } from './prefix.js';

/** What the edge knows of an admin request beyond the request itself. */
export interface AdminRequest {
  /** The credentials the mock knows (admin token, --tokens), which nothing it exports may quote. */
  secrets: readonly string[];
  /**
   * Whether the request may be told the mock's particulars: it came from no page's script, or from
   * the mock's own origin or one --cors-origin names (http/cors.ts, refusedAdminOrigin).
   */
  trusted: boolean;
}

type AdminHandler = (req: IncomingMessage, context: MockContext, admin: AdminRequest) => Promise<Answer> | Answer;

const fixedRoutes: Record<string, Record<string, AdminHandler>> = {
  // The inspector page at /__mock/ (the trailing slash is dropped before routing).
  ...Object.fromEntries(Object.keys(INSPECTOR_ASSETS).map((path) => [path, { GET: () => inspectorAsset(path as InspectorPath) }])),
  '/__mock/health': {
    GET: (_req, context, { trusted }) => health(context, trusted),
  },
  [REQUESTS_ROUTE]: {
    GET: async (req, context, { secrets }) => {
      const search = searchOf(req);
      const parsed = parseJournalQuery(search);
      if (isRejection(parsed)) return rejected(parsed);
      if (parsed.format === 'cases') return casesAnswer(context, parsed.query, secrets);
      const { waitMs, reloads } = parsed;
      if (waitMs !== undefined) return waitedListing(context.journal, context.waits, parsed.query, search, { waitMs, reloads, socket: req.socket });
      const answer = await journalListing(context.journal, parsed.query, search);
      // The count a page's next wait gives back, so a reload between two waits is not missed.
      return { ...answer, headers: { ...answer.headers, [RELOADS_HEADER]: String(context.waits.reloads) } };
    },
    DELETE: async (_req, { journal }) => {
      await journal.clear();
      return { status: 204 };
    },
  },
  '/__mock/spec': {
    GET: (req, { engine, proxy }) => specAnswer(engine, proxy, req.headers['if-none-match']),
  },
  // The whole store at once, whatever the spec stores: records of every collection and every
  // document (a spec may have documents and no collection to send a DELETE to).
  '/__mock/reset': {
    POST: async (req, { store, proxy }) => {
      if (proxy) return noStoreInProxyMode(req, proxy);
      await store.reset();
      return { status: 204 };
    },
  },
  // The document the docs page (/__mock/docs) renders, with the mock as its server.
  [DOCS_DOCUMENT_PATH]: {
    GET: (_req, { engine }) => docsDocument(engine.contract.document, engine.contract.declaredVersion),
  },
};

/** The admin routes at fixed paths (the docs test asks each one which methods it takes). */
export const FIXED_ADMIN_PATHS: readonly string[] = Object.keys(fixedRoutes);

/**
 * 200 while the store serves, 503 while it is down (Redis out of reach, a state file that failed):
 * a readiness answer, so a balancer or orchestrator stops sending requests the store would refuse.
 * Any client and any page may ask, without a token (a frontend polls it to know the mock is up),
 * but only a `trusted` one is told which replica answered, how its store is or which upstream it
 * forwards to; a page of another origin gets the status alone. Never where the store is (the log
 * names the Redis URL or the file, and why it is down).
 */
function health({ store, replica, proxy }: MockContext, trusted: boolean): Answer {
  // In proxy mode the store is not used: the upstream is what answers.
  const { state, kind } = proxy ? { state: 'up', kind: undefined } : store.health();
  const status = state === 'up' ? 'ok' : 'unavailable';
  const body = !trusted ? { status } : proxy ? { status, replica, ...proxy.describe() } : { status, replica, store: { state, kind } };
  // The body depends on the Origin: a cache must not hand one origin's answer to another.
  return { ...jsonAnswer(state === 'up' ? 200 : 503, body), headers: { vary: 'Origin' } };
}

/**
 * The routes of one collection of the spec, at `/__mock` + its path (`/__mock/plants`); a nested
 * one's at the API's path (`/__mock/orders/7/lines`), its records those of the store's name for it.
 */
function collectionRoutes(collection: Collection, path: string): Record<string, AdminHandler> {
  const route = `${ADMIN_PREFIX}${path}`;
  const params = pathParams(collection, path);
  const name = storeName(collection, params);
  return {
    GET: async (req, { store }) => {
      const query = parseListingQuery(searchOf(req), route);
      if (isRejection(query)) return rejected(query);
      return listingAnswer(store, name, route, query);
    },
    // This collection's records and those nested under them, nothing else (POST /__mock/reset empties the store):
    // the spec's own paths below it (/bookings/settings/display) belong to no booking.
    DELETE: async (_req, { store, engine }) => {
      await store.clear(
        name,
        ownPathsBelow(
          collection.path,
          [...engine.contract.operations.values()].map((operation) => operation.path),
        ),
      );
      return { status: 204 };
    },
    POST: (req, context) => seed(req, context, collection, path, params),
  };
}

/** `/__mock/requests/{seq}`: one journal entry, whole. */
const ENTRY_PATH = /^\/__mock\/requests\/(\d{1,15})$/;

function routesAt(path: string, context: MockContext): Record<string, AdminHandler> | undefined {
  const fixed = fixedRoutes[path];
  if (fixed) return fixed;
  const entry = ENTRY_PATH.exec(path);
  if (entry) return { GET: (_req, { journal }) => journalEntry(journal, Number(entry[1])) };
  // A nested collection's records are addressed by their parents' real ids: /__mock/bookings/7/payments.
  const name = path.slice(ADMIN_PREFIX.length).replace(/(.)\/$/, '$1');
  // A fixed path first (`/plants/archive/entries`), as the API routes it, before any record's.
  const { collections } = context.engine;
  const collection = collections.find((c) => !underPath(c) && c.path === name) ?? collections.find((c) => underPath(c) && pathTemplatePattern(c.path).test(name));
  if (collection && context.proxy) return proxiedRoutes(context.proxy, ['GET', 'DELETE', 'POST']);
  if (collection) return collectionRoutes(collection, name);
  // A singleton document at its concrete path, by the API's own route table: /__mock/users/7/profile.
  const document = documentAt(name, context.engine);
  if (document && context.proxy) return proxiedRoutes(context.proxy, ['GET', 'DELETE', 'PUT']);
  return document && documentRoutes(document);
}

/** The 404 of an admin route of the store in proxy mode, which keeps no records: it says where they are instead. */
function noStoreInProxyMode(req: IncomingMessage, proxy: ValidatingProxy): Answer {
  return rejected(reject('NO_STORE_IN_PROXY_MODE', { path: pathOf(req.url), upstream: proxy.upstream.display }));
}

/** Proxy mode keeps no records: a collection's or a document's admin routes say where they are instead. */
function proxiedRoutes(proxy: ValidatingProxy, methods: readonly string[]): Record<string, AdminHandler> {
  const answer: AdminHandler = (req) => noStoreInProxyMode(req, proxy);
  return Object.fromEntries(methods.map((method) => [method, answer]));
}

/**
 * Routes that answer without the admin token: a health probe has no credentials, and a browser
 * opening the inspector cannot send one (the page holds no data; it asks for the token).
 */
const PUBLIC_PATHS = new Set(['/__mock/health', ...Object.keys(INSPECTOR_ASSETS)]);

/**
 * Admin paths any origin may load: health, and the inspector page's own files (they hold no
 * data). Every other admin route answers only the origins the user allowed (see ../http/cors.ts).
 */
export function isOpenAdminPath(rawPath: string): boolean {
  return PUBLIC_PATHS.has(rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath);
}

/**
 * A successful read of the admin routes is not journaled: the inspector polls them every
 * second, which would push the requests a developer is debugging out of the bounded journal.
 * A singleton document found not written is such a read too (the inspector shows "not written").
 */
export function isQuietAdminRead(method: string, path: string, status: number, code?: string): boolean {
  return method === 'GET' && isAdminPath(path) && (status < 400 || code === 'DOCUMENT_NOT_WRITTEN');
}

const ADMIN_AUTH_DETAILS: Partial<Record<string, string>> = {
  MISSING_CREDENTIALS: 'no Authorization header was sent',
  WRONG_AUTH_SCHEME: 'the Authorization scheme is not Bearer',
  EMPTY_TOKEN: 'the bearer token is empty',
};

export async function handleAdminRequest(req: IncomingMessage, method: string, rawPath: string, context: MockContext, admin: AdminRequest = { secrets: [], trusted: true }): Promise<Answer> {
  const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  const handlers = routesAt(path, context);
  if (!handlers) {
    const { engine } = context;
    return rejected(reject('ROUTE_NOT_FOUND', { method, path: rawPath, api: engine.contract.title, operations: engine.operationList }));
  }
  const allow = [...Object.keys(handlers), 'OPTIONS'].join(', ');
  if (method === 'OPTIONS') return { status: 204, headers: preflightHeaders(allow) };
  const handler = handlers[method];
  if (!handler) return rejected(reject('METHOD_NOT_ALLOWED', { method, path: rawPath, allow }));
  if (context.adminTokens && !PUBLIC_PATHS.has(path)) {
    const token = checkBearer(req.headers.authorization, { realm: ADMIN_REALM, tokens: context.adminTokens });
    if (isRejection(token)) return rejected(reject('ADMIN_UNAUTHORIZED', { detail: ADMIN_AUTH_DETAILS[token.code] ?? 'the token is not the admin token' }));
  }
  return handler(req, context, admin);
}

/** The path parameters of a nested collection's API path (`bookingId` of `/bookings/7/payments`), decoded as the API decodes them. */
function pathParams(collection: Collection, path: string): Record<string, string> {
  return underPath(collection) ? templateValues(templateNames(collection.path), pathTemplatePattern(collection.path).match(path) ?? []) : {};
}

async function seed(req: IncomingMessage, context: MockContext, collection: Collection, path: string, params: Record<string, string>): Promise<Answer> {
  const mediaTypeProblem = checkContentEncoding(req.headers['content-encoding']) ?? checkJsonMediaType(req.headers['content-type']);
  if (mediaTypeProblem) return rejected(mediaTypeProblem);
  const body = await readBody(req, context.maxBody);
  if (isRejection(body)) return rejected(body);
  const records = parseSeed(body, collection);
  if (isRejection(records)) return { ...rejected(records), requestBody: body };
  if (collection.parent) {
    // The API's 404 for records under a parent record (or its own parent) that is not stored; the store checks the parent again as it stores.
    const missing = await parentMissing(contextOf(req, 'POST', path, params), collection, context);
    if (missing) return { ...missing, requestBody: body };
  }
  const outcome = await storeSeed(context.store, context.engine.identities, collection, storeName(collection, params), records, { parent: parentRecord(collection, params) });
  // Deleted (by this replica or another) since the check above: nothing was stored.
  if (outcome === 'parent-missing') return { ...parentGone(collection, params), requestBody: body };
  if ('duplicates' in outcome) return { ...rejected(duplicatesOf(outcome.duplicates, collection)), requestBody: body };
  // The identities in the seed's order, as JSON (each key is its value's JSON text): the ones the mock assigned among them.
  return { status: 200, body: `{"created":${outcome.created},"ids":[${outcome.keys.join(',')}]}`, requestBody: body };
}

function searchOf(req: IncomingMessage): URLSearchParams {
  const url = req.url ?? '';
  const at = url.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
}

/** The 409 for a seed whose keys are taken or repeat (a few named, the rest counted). */
export function duplicatesOf(keys: readonly string[], collection: Collection) {
  const words = keys.map((key) => keyInWords(key, collection.identity));
  return reject('DUPLICATE_ID', {
    ids: words.slice(0, 10),
    more: Math.max(0, words.length - 10),
    noun: collection.noun,
    property: collection.identity.property,
    listing: `${ADMIN_PREFIX}${collection.path}`,
  });
}
