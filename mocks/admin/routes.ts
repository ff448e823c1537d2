/**
 * The mock's own routes under /__mock (outside the spec): list, reset and seed the store, read
 * the request journal, check health. Protected by the admin token when one is set.
 */
import type { IncomingMessage } from 'node:http';
import { checkBearer } from '../engine/auth.js';
import { preflightHeaders } from '../http/cors.js';
import { ADMIN_REALM, isRejection, reject } from '../errors.js';
import { parseNewPlants } from '../engine/new-plant.js';
import { checkJsonBodyHeaders, readBody } from '../http/request-body.js';
import { jsonAnswer, rejected, type Answer } from '../http/answer.js';
import { INSPECTOR_ASSETS, inspectorAsset, type InspectorPath } from './inspector.js';
import type { MockContext } from '../engine/context.js';

export const ADMIN_PREFIX = '/__mock';

export function isAdminPath(path: string): boolean {
  return path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`);
}

type AdminHandler = (req: IncomingMessage, context: MockContext) => Promise<Answer> | Answer;

const routes: Record<string, Record<string, AdminHandler>> = {
  // The inspector page at /__mock/ (the trailing slash is dropped before routing).
  ...Object.fromEntries(
    Object.keys(INSPECTOR_ASSETS).map((path) => [path, { GET: () => inspectorAsset(path as InspectorPath) }]),
  ),
  '/__mock/health': {
    GET: () => jsonAnswer(200, { status: 'ok' }),
  },
  '/__mock/plants': {
    GET: (_req, { store }) => jsonAnswer(200, [...store.plants()]),
    DELETE: async (_req, { store }) => {
      await store.reset();
      return { status: 204 };
    },
    POST: seedPlants,
  },
  '/__mock/requests': {
    GET: (_req, { journal }) => jsonAnswer(200, journal.entries()),
  },
};

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
 */
export function isQuietAdminRead(method: string, path: string, status: number): boolean {
  return method === 'GET' && isAdminPath(path) && status < 400;
}

const ADMIN_AUTH_DETAILS: Partial<Record<string, string>> = {
  MISSING_CREDENTIALS: 'no Authorization header was sent',
  WRONG_AUTH_SCHEME: 'the Authorization scheme is not Bearer',
  EMPTY_TOKEN: 'the bearer token is empty',
};

export async function handleAdminRequest(
  req: IncomingMessage,
  method: string,
  rawPath: string,
  context: MockContext,
): Promise<Answer> {
  const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  const handlers = routes[path];
  if (!handlers) return rejected(reject('ROUTE_NOT_FOUND', { method, path: rawPath }));
  const allow = [...Object.keys(handlers), 'OPTIONS'].join(', ');
  if (method === 'OPTIONS') return { status: 204, headers: preflightHeaders(allow) };
  const handler = handlers[method];
  if (!handler) return rejected(reject('METHOD_NOT_ALLOWED', { method, path: rawPath, allow }));
  if (context.adminTokens && !PUBLIC_PATHS.has(path)) {
    const token = checkBearer(req.headers.authorization, { realm: ADMIN_REALM, tokens: context.adminTokens });
    if (isRejection(token)) return rejected(reject('ADMIN_UNAUTHORIZED', { detail: ADMIN_AUTH_DETAILS[token.code] ?? 'the token is not the admin token' }));
  }
  return handler(req, context);
}

async function seedPlants(req: IncomingMessage, context: MockContext): Promise<Answer> {
  const mediaTypeProblem = checkJsonBodyHeaders(req.headers);
  if (mediaTypeProblem) return rejected(mediaTypeProblem);
  const body = await readBody(req, context.maxBody);
  if (isRejection(body)) return rejected(body);
  const plants = parseNewPlants(body, context.engine.validateNewPlant, context.engine.newPlantPlan);
  if (isRejection(plants)) return rejected(plants);
  const outcome = await context.store.seedPlants(plants);
  if ('duplicates' in outcome) {
    return rejected(reject('DUPLICATE_ID', { ids: outcome.duplicates.map(String) }));
  }
  return jsonAnswer(200, { created: outcome.created });
}
