/**
 * Cases from files in the fixture format (the bundled fixtures/cases, and files given with
 * --cases) made into the suite's cases for the spec under test. A case that no longer fits that
 * spec (a body its schema now judges otherwise, an Authorization value under an API key scheme,
 * a security scheme the spec does not declare, an id the body cannot hold, another operation) is
 * kept as a skipped case with the reason, never a crash and never a case that would fail a
 * correct provider. A credential goes where its scheme says: the operation's (a header, the
 * query or a cookie), or the one the case names by the spec's name for it.
 */
import { bodyText, ID_RANGES, pathCarriesId, PLACEHOLDERS, renderFixture, type FixtureCase, type IdSource, type RenderContext, type SchemeCredential } from '../fixtures/index.js';
import { matchingMedia } from '../openapi/media-types.js';
import { DuplicateMemberName, parseExactJson } from '../openapi/schema/exact-json.js';
import type { ContractCase } from './model.js';
import { isValidRequestBody, type SuiteContract } from './spec-contract.js';

export interface CaseFileContext {
  token: string;
  invalidToken: string;
  /** --basic `user:password` ('' when not given). */
  basic: string;
  ids: IdSource;
  headers: Readonly<Record<string, string>>;
}

export type FileCase = { case: ContractCase; unfit?: undefined } | { case: ContractCase; unfit: string };

/** Why `fixture` cannot run against `contract`, or undefined when it fits. */
export function fitFixture(fixture: FixtureCase, contract: SuiteContract): string | undefined {
  const { request } = fixture;
  const method = request.method ?? contract.method;
  const path = (request.path ?? contract.path).split('?')[0] ?? '';
  if (method !== contract.method || !pathMatches(contract.path, path)) {
    return `it is ${method} ${path}; the suite tests ${contract.operationId} (${contract.method} ${contract.path})`;
  }
  const { security, requestBody } = contract;
  const { auth } = request;
  if (typeof auth === 'object' && 'scheme' in auth) {
    const problem = namedSchemeProblem(fixture, auth, contract);
    if (problem) return problem;
  } else if (typeof auth === 'object' && security.kind !== 'bearer') {
    return `it sends an exact Authorization value, which only means something under a bearer scheme; ${security.kind === 'none' ? 'the spec declares no security' : `the spec's scheme ${security.name} is ${security.kind === 'basic' ? 'HTTP Basic' : `an API key in ${security.header}`}`}`;
  }
  if (fixture.expect === 'unauthenticated' && security.kind === 'none') return `${security.reason}`;
  // A case without a credential goes out whatever the scheme: there is nothing to send. One naming its scheme says what it sends.
  if ((auth === 'bearer' || auth === 'invalid-token') && security.kind === 'basic') {
    return `it sends the provider's token (${auth}), and ${contract.operationId}'s scheme ${security.name} is HTTP Basic: name the scheme and its user:password ({"scheme": "${security.name}", "value": "…"})`;
  }
  if (!requestBody) {
    // A recorded request without a body (a GET, a DELETE): it fits an operation that takes none.
    if (!('empty' in request.body)) return `it sends a body, and ${contract.operationId} takes no JSON body`;
    if (fixture.expect === 'rejected-body' || fixture.expect === 'unsupported-media-type') return `${contract.operationId} takes no body, so an empty one is nothing to refuse`;
    return undefined;
  }
  if (requestBody.form) return `it sends a JSON body, and ${contract.operationId} takes ${requestBody.mediaType} only`;
  // Without `required: true` a request may leave its body out (OpenAPI's default): an empty one is valid.
  if ('empty' in request.body && !requestBody.required && fixture.expect === 'rejected-body') return `${contract.operationId}'s request body is optional, so an empty one is nothing to refuse`;
  // An id the body has no property for went into the path, or was left out for the provider to assign (withoutDrawnId).
  const ends = request.id === undefined ? [undefined] : ID_RANGES[request.id];
  const valid = ends.map((id) => {
    const text = bodyText(request, id);
    return text !== undefined && isValidRequestBody(contract, text);
  });
  if (fixture.expect === 'rejected-body') {
    if (valid.some(Boolean) && !repeatsName(bodyText(request, undefined))) return `its body is a valid ${requestBody.schemaName} by the spec, so it cannot stand for a rejected body`;
  } else if (!valid.every(Boolean)) {
    const which = valid.some(Boolean) ? `with some ids of kind ${request.id} ` : '';
    return `its body ${which}is not a valid ${requestBody.schemaName} by the spec (${fixture.expect} cases send valid bodies)`;
  }
  const contentType = request.contentType === undefined ? requestBody.mediaType : request.contentType;
  const named = typeof contentType === 'string' && matchingMedia(requestBody.mediaTypes, contentType) !== undefined;
  if (fixture.expect === 'unsupported-media-type' && named) return `its Content-Type ${contentType} is one the spec names for the request`;
  if (fixture.expect !== 'unsupported-media-type' && contentType !== null && !named) {
    return `its Content-Type ${contentType} is not one the spec names for the request (${requestBody.mediaTypes.join(', ')})`;
  }
  return undefined;
}

/**
 * Why a case that names its security scheme (`{scheme, value}`) cannot run against `contract`: a
 * scheme the spec does not declare; for an accepted case, one the operation does not take alone
 * (API keys in headers its requirement names beside it come from --header); for an
 * unauthenticated case, the provider's own token exactly where the operation takes it.
 */
function namedSchemeProblem(fixture: FixtureCase, auth: SchemeCredential, contract: SuiteContract): string | undefined {
  if (!contract.schemes.has(auth.scheme)) {
    const declared = [...contract.schemes.keys()];
    return `it sends its credential as the security scheme ${auth.scheme}, which the spec does not declare as one a request can carry (${declared.length ? `it declares ${declared.join(', ')}` : 'it declares none'})`;
  }
  const alongside = (name: string): boolean => {
    const place = contract.schemes.get(name);
    return place?.kind === 'api-key' && place.in === 'header';
  };
  const taken = contract.requirements.length === 0 || contract.requirements.some((names) => names.every((name) => name === auth.scheme || alongside(name)));
  const requirements = contract.requirements.map((names) => names.join(' + ') || 'none').join(' or ');
  if (fixture.expect === 'accepted' && !taken) return `it sends its credential as ${auth.scheme}, which ${contract.operationId} does not take alone (it requires ${requirements})`;
  if (fixture.expect === 'unauthenticated' && taken && auth.value === PLACEHOLDERS.token) {
    return `it sends the provider's token as ${auth.scheme}, which ${contract.operationId} takes (it requires ${requirements}): the request is authenticated`;
  }
  return undefined;
}

/** Why a case sending the provider's Basic credentials (`{"scheme": <a Basic scheme>, "value": "{{token}}"}`) cannot go out: no --basic to send. */
function basicProblem(fixture: FixtureCase, contract: SuiteContract, basic: string): string | undefined {
  const { auth } = fixture.request;
  if (basic !== '' || typeof auth !== 'object' || !('scheme' in auth) || auth.value !== PLACEHOLDERS.token) return undefined;
  if (contract.schemes.get(auth.scheme)?.kind !== 'basic') return undefined;
  return `it sends the provider's HTTP Basic credentials as ${auth.scheme}: pass --basic user:password`;
}

/** Whether a recorded path (`/orders/{{id}}/lines`, `/orders/7`) is the spec's path template (`/orders/{orderId}/lines`). */
function pathMatches(template: string, path: string): boolean {
  if (template === path) return true;
  const want = template.split('/');
  const got = path.split('/');
  return want.length === got.length && want.every((segment, i) => segment === got[i] || (/^\{[^}]+\}$/.test(segment) && got[i] !== ''));
}

/**
 * Why a rendered case is not a request the operation can take: a required parameter it does not
 * send (a path segment left as its template, a required query, header or cookie parameter absent).
 * Whatever its body, such a request is invalid by the spec, so it can stand for no expectation.
 */
function unsentParameters(request: { path: string; headers: Readonly<Record<string, string>> }, contract: SuiteContract): string | undefined {
  const [path = '', query = ''] = request.path.split(/\?(.*)/s, 2);
  const segments = path.split('/');
  const queryNames = new Set(new URLSearchParams(query).keys());
  const headerNames = new Set(Object.keys(request.headers).map((name) => name.toLowerCase()));
  const cookie = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'cookie')?.[1] ?? '';
  const cookieNames = new Set(cookie.split(';').map((pair) => pair.split('=')[0]?.trim() ?? ''));
  const unsent = contract.parameters.filter((parameter) => {
    if (parameter.in === 'path') return segments.some((segment) => segment.includes(`{${parameter.name}}`));
    if (!parameter.required) return false;
    if (parameter.in === 'query') return !queryNames.has(parameter.name);
    if (parameter.in === 'header') return !headerNames.has(parameter.name.toLowerCase());
    return !cookieNames.has(parameter.name);
  });
  if (unsent.length === 0) return undefined;
  return `it does not send ${unsent.map((p) => `the ${p.in} parameter ${p.name}`).join(', ')}, which ${contract.operationId} requires`;
}

/** Whether a body's text names a member twice in one object (RFC 8259 §4 leaves what that means to the parser). */
function repeatsName(text: string | undefined): boolean {
  if (text === undefined) return false;
  try {
    parseExactJson(text, undefined, { refuseDuplicateNames: true });
    return false;
  } catch (error) {
    return error instanceof DuplicateMemberName;
  }
}

/** The case as it fits an operation whose body has no id to put a drawn one in (the provider assigns it): its body as recorded. */
function withoutDrawnId(fixture: FixtureCase, contract: SuiteContract): FixtureCase {
  const { request } = fixture;
  if (request.id === undefined || !contract.requestBody || contract.requestBody.identity || pathCarriesId(request)) return fixture;
  const { id: _drawn, ...rest } = request;
  return { ...fixture, request: rest };
}

/**
 * The operation a case file's request goes to: the one with its method and path, or, when it
 * names neither, the first operation under test that takes a JSON body.
 */
function operationOf(fixture: FixtureCase, operations: readonly SuiteContract[]): SuiteContract {
  const { method, path } = fixture.request;
  const bare = path?.split('?')[0];
  const fits = (exact: boolean) => (o: SuiteContract) =>
    (method === undefined || o.method === method) && (bare === undefined || (exact ? o.path === bare : pathMatches(o.path, bare))) && (method !== undefined || bare !== undefined);
  const named = operations.find(fits(true)) ?? operations.find(fits(false));
  return named ?? operations.find((o) => o.requestBody) ?? (operations[0] as SuiteContract);
}

/** A fixture case as the suite runs it, or as a skipped case with the reason it does not fit. */
export function fileCase(given: FixtureCase, source: 'fixture' | 'cases', operations: SuiteContract | readonly SuiteContract[], context: CaseFileContext): FileCase {
  const list = Array.isArray(operations) ? operations : [operations as SuiteContract];
  const contract = operationOf(given, list);
  const fixture = withoutDrawnId(given, contract);
  const unfit = fitFixture(fixture, contract) ?? basicProblem(fixture, contract, context.basic);
  const renderContext: RenderContext = {
    token: context.token,
    invalidToken: context.invalidToken,
    basic: context.basic,
    ids: context.ids,
    headers: context.headers,
    credentials:
      contract.security.kind === 'api-key' ? { kind: 'api-key', header: contract.security.header, in: contract.security.in } : { kind: contract.security.kind === 'none' ? 'none' : 'bearer' },
    schemes: contract.schemes,
    operation: { method: contract.method, path: contract.path },
    mediaType: contract.requestBody?.mediaType ?? 'application/json',
  };
  const request = renderFixture(fixture, renderContext);
  const unsent = unfit === undefined ? unsentParameters(request, contract) : undefined;
  if (!unfit && fixture.expect === 'accepted' && request.body !== undefined) request.plant = parseExactJson(request.body) as Record<string, unknown>;
  const origin = [`${source === 'fixture' ? 'fixtures/cases/' : ''}${fixture.file}`, fixture.origin].filter(Boolean).join(', ');
  // A rejected body that is only a repeated member name: parsers differ (the first, the last, an error), so what the provider did is reported.
  const repeated = fixture.expect === 'rejected-body' && repeatsName(request.body) && request.body !== undefined && isValidRequestBody(contract, request.body);
  const contractCase: ContractCase = {
    id: `${source}:${fixture.name}`,
    operationId: contract.operationId,
    source,
    description: fixture.description,
    expect: repeated ? 'provider-choice' : fixture.expect,
    request,
    origin,
    ...(repeated
      ? { choice: { check: 'negative_data_rejection' as const, rule: 'RFC 8259 §4: names within an object should be unique; with a repeated name, parsers differ (the first, the last, or an error)' } }
      : {}),
  };
  const reason = unfit ?? unsent;
  return reason ? { case: contractCase, unfit: `the case no longer fits the spec: ${reason}` } : { case: contractCase };
}
