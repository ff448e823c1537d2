/**
 * OpenAPI runtime expressions (OpenAPI 3.1 §4.8.20.4, the same in 3.0): the values a link's
 * `parameters` and `requestBody` name in the exchange just made — `$response.body#/id`,
 * `$request.path.petId`, `$response.header.Location`, `$url`, `$method`, `$statusCode` — and
 * strings embedding them in braces (`/pets/{$response.body#/id}`). Plain functions of
 * (expression, exchange); nothing is fetched.
 */
import { exactInteger } from '../openapi/schema/exact-json.js';
import { isObject, jsonPointer, pointerTarget, pointerTokens } from '../openapi/schema/resolve.js';

/** The exchange an expression is read against. Header names in any case. */
export interface Exchange {
  url?: string;
  method?: string;
  statusCode?: number;
  request?: { body?: unknown; path?: Readonly<Record<string, string>>; query?: Readonly<Record<string, string>>; header?: Readonly<Record<string, string>> };
  response?: { body?: unknown; header?: Readonly<Record<string, string>> };
}

export type Evaluated = { ok: true; value: unknown } | { ok: false; problem: string };

/** Embedded expressions per string (a bound on a hostile spec's link). */
const MAX_EMBEDDED = 32;

/** Whether a link value is a runtime expression (else it is a constant, taken as written). */
export function isRuntimeExpression(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('$');
}

/**
 * A link's parameter or requestBody value read against `exchange`: an expression evaluated, a string
 * with `{$…}` parts filled in (as text), anything else (a number, an object, plain text) as written.
 */
export function evaluateLinkValue(value: unknown, exchange: Exchange): Evaluated {
  if (isRuntimeExpression(value)) return evaluateExpression(value, exchange);
  if (typeof value !== 'string' || !value.includes('{$')) return { ok: true, value };
  let out = '';
  let rest = value;
  for (let count = 0; count <= MAX_EMBEDDED; count++) {
    const open = rest.indexOf('{$');
    if (open < 0) return { ok: true, value: out + rest };
    const close = rest.indexOf('}', open);
    if (close < 0) return { ok: false, problem: `${JSON.stringify(value)} opens an expression with "{" and never closes it` };
    const inner = evaluateExpression(rest.slice(open + 1, close), exchange);
    if (!inner.ok) return inner;
    out += rest.slice(0, open) + (typeof inner.value === 'string' ? inner.value : JSON.stringify(inner.value));
    rest = rest.slice(close + 1);
  }
  return { ok: false, problem: `${JSON.stringify(value)} embeds more than ${MAX_EMBEDDED} expressions` };
}

/** One runtime expression (`$response.body#/id`) read against `exchange`. */
export function evaluateExpression(expression: string, exchange: Exchange): Evaluated {
  if (expression === '$url') return present(exchange.url, expression);
  if (expression === '$method') return present(exchange.method?.toUpperCase(), expression);
  if (expression === '$statusCode') return present(exchange.statusCode, expression);
  const match = /^\$(request|response)\.(header|query|path|body)(?:\.(.+)|(#.*))?$/s.exec(expression);
  if (!match) return { ok: false, problem: `${JSON.stringify(expression)} is not a runtime expression ($url, $method, $statusCode, $request.… or $response.…)` };
  const [, side, source, name, fragment] = match as unknown as [string, 'request' | 'response', string, string | undefined, string | undefined];
  const part = side === 'request' ? exchange.request : exchange.response;
  if (source === 'body') {
    if (name !== undefined) return { ok: false, problem: `${JSON.stringify(expression)}: a body is read with #/pointer, not .name` };
    const body = part?.body;
    if (fragment === undefined || fragment === '#') return present(body, expression);
    if (!fragment.startsWith('#/')) return { ok: false, problem: `${JSON.stringify(expression)}: the pointer after # must start with /` };
    return present(exactValue(body, fragment), expression);
  }
  if (name === undefined || fragment !== undefined) return { ok: false, problem: `${JSON.stringify(expression)} names no ${source} entry` };
  if (source === 'header') {
    const headers = part && 'header' in part ? part.header : undefined;
    const wanted = name.toLowerCase();
    return present(Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === wanted)?.[1], expression);
  }
  if (side === 'response') return { ok: false, problem: `${JSON.stringify(expression)}: a response has no ${source} parameters` };
  const values = source === 'query' ? exchange.request?.query : exchange.request?.path;
  return present(values && Object.hasOwn(values, name) ? values[name] : undefined, expression);
}

/** What the pointer names; an integer past 2^53 as its exact digits (a BigInt), as the parser kept them. */
function exactValue(body: unknown, fragment: string): unknown {
  const value = pointerTarget(body, fragment);
  if (typeof value !== 'number' || Number.isSafeInteger(value)) return value;
  const tokens = pointerTokens(fragment);
  const last = tokens.pop();
  const parent = pointerTarget(body, `#${jsonPointer(...tokens)}`);
  return last !== undefined && isObject(parent) ? (exactInteger(parent, last) ?? value) : value;
}

function present(value: unknown, expression: string): Evaluated {
  return value === undefined ? { ok: false, problem: `${expression} names nothing in the exchange` } : { ok: true, value };
}
