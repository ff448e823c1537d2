/**
 * The request path of the spec's operations in one place: route, auth, media type, size, parse,
 * schema, forced response, duplicate, store. Every rule it applies lives in a plain function of
 * its own module; the HTTP edge (../server.ts) only reads the request and writes the answer.
 */
import type { IncomingMessage } from 'node:http';
import { rejected, type Answer } from '../http/answer.js';
import { preflightHeaders } from '../http/cors.js';
import { checkJsonBodyHeaders, readBody, takeBufferedBody } from '../http/request-body.js';
import { forcedRejection, isRejection, reject, REALM } from '../errors.js';
import type { StoredPlant } from '../stores/plant-store.js';
import { checkBearer } from './auth.js';
import type { MockContext } from './context.js';
import { parseNewPlant } from './new-plant.js';
import { parsePrefer, type Preferences } from './prefer.js';

/** Decides the answer to one request. */
export async function handleRequest(req: IncomingMessage, path: string, context: MockContext): Promise<Answer> {
  const method = req.method ?? 'GET';
  const route = context.engine.route(method, path);
  if (route.kind === 'not-found') return rejected(reject('ROUTE_NOT_FOUND', { method, path }));
  if (route.kind === 'method-not-allowed') {
    if (method === 'OPTIONS') return { status: 204, headers: preflightHeaders(route.allow) };
    return rejected(reject('METHOD_NOT_ALLOWED', { method, path, allow: route.allow }));
  }

  // Prefer: delay applies to every answer, rejections included.
  const prefer = parsePrefer(req.headers.prefer as string | undefined);
  const delayed = (answer: Answer): Answer =>
    prefer.delayMs ? { ...answer, delayMs: prefer.delayMs } : answer;

  const token = checkBearer(req.headers.authorization, { realm: REALM, tokens: context.tokens });
  if (isRejection(token)) return delayed(rejected(token));
  const mediaTypeProblem = checkJsonBodyHeaders(req.headers);
  if (mediaTypeProblem) return delayed(rejected(mediaTypeProblem));
  const body = takeBufferedBody(req, context.maxBody) ?? (await readBody(req, context.maxBody));
  if (isRejection(body)) return delayed(rejected(body));
  const plant = parseNewPlant(body, context.engine.validateNewPlant, context.engine.newPlantPlan);
  if (isRejection(plant)) return delayed(rejected(plant));

  if (prefer.problem !== undefined) return rejected(reject('INVALID_PREFER', { problem: prefer.problem }));
  if (prefer.code !== undefined) return delayed(forcedAnswer(prefer, context));

  // The in-memory store answers synchronously: no await, no extra microtask per create.
  const created = context.store.createPlant(plant);
  const outcome = typeof created === 'string' ? created : await created;
  if (outcome === 'duplicate') return delayed(rejected(reject('DUPLICATE_ID', { ids: [plant.id.toString()] })));
  return delayed({ status: 200, body: plantBody(plant, context.engine.plantFields) });
}

/** The answer to `Prefer: code=N` once the request itself is sound: an example, nothing stored. */
function forcedAnswer(prefer: Preferences, context: MockContext): Answer {
  const code = prefer.code as number;
  const applied = { 'preference-applied': `code=${code}` };
  if (code === 200) return { status: 200, body: JSON.stringify(context.engine.plantExample), headers: applied };
  const rejection = forcedRejection(code);
  return { ...rejected(rejection), headers: { ...rejection.headers, ...applied } };
}

/** A 200 body: exactly the fields the spec's Plant declares. */
function plantBody(plant: StoredPlant, fields: readonly string[]): string {
  // Written field by field: the same JSON as stringifying a fresh object, without building one.
  let body = '';
  for (const field of fields) {
    const value = (plant as unknown as Record<string, unknown>)[field];
    if (value !== undefined) body += `${body ? ',' : '{'}${JSON.stringify(field)}:${JSON.stringify(value)}`;
  }
  return body ? `${body}}` : '{}';
}

