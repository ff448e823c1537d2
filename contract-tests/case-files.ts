/**
 * Cases from files in the fixture format (the bundled fixtures/cases, and files given with
 * --cases) made into the suite's cases for the spec under test. A case that no longer fits that
 * spec (a body its schema now judges otherwise, an Authorization value under an API key scheme,
 * an id the body cannot hold, another operation) is kept as a skipped case with the reason,
 * never a crash and never a case that would fail a correct provider.
 */
import { bodyText, ID_RANGES, renderFixture, type FixtureCase, type IdSource, type RenderContext } from '../fixtures/index.js';
import { matchingMedia } from '../spec/contract.js';
import { parseExactJson } from '../spec/exact-json.js';
import type { ContractCase } from './model.js';
import { isValidRequestBody, type SuiteContract } from './spec-contract.js';

export interface CaseFileContext {
  token: string;
  invalidToken: string;
  ids: IdSource;
  headers: Readonly<Record<string, string>>;
}

export type FileCase = { case: ContractCase; unfit?: undefined } | { case: ContractCase; unfit: string };

/** Why `fixture` cannot run against `contract`, or undefined when it fits. */
export function fitFixture(fixture: FixtureCase, contract: SuiteContract): string | undefined {
  const { request } = fixture;
  const method = request.method ?? contract.method;
  const path = (request.path ?? contract.path).split('?')[0];
  if (method !== contract.method || path !== contract.path) {
    return `it is ${method} ${path}; the suite tests ${contract.operationId} (${contract.method} ${contract.path})`;
  }
  const { security, requestBody } = contract;
  if (typeof request.auth === 'object' && security.kind !== 'bearer') {
    return `it sends an exact Authorization value, which only means something under a bearer scheme; ${security.kind === 'none' ? 'the spec declares no security' : `the spec's scheme ${security.name} is ${security.kind === 'basic' ? 'HTTP Basic' : `an API key in ${security.header}`}`}`;
  }
  if (fixture.expect === 'unauthenticated' && security.kind === 'none') return `${security.reason}`;
  if (security.kind === 'basic' || (security.kind === 'api-key' && security.in !== 'header')) {
    return `case files send the credential as a bearer token or an API key header; ${contract.operationId}'s scheme ${security.name} is ${security.kind === 'basic' ? 'HTTP Basic' : `an API key in the ${security.in}`}`;
  }
  if (!requestBody) return `it sends a body, and ${contract.operationId} takes no JSON body`;
  if (requestBody.form) return `it sends a JSON body, and ${contract.operationId} takes ${requestBody.mediaType} only`;
  if (request.id !== undefined && !requestBody.identity) return `it draws an id, but the spec's ${requestBody.schemaName} has no integer id property to put it in`;
  const ends = request.id === undefined ? [undefined] : ID_RANGES[request.id];
  const valid = ends.map((id) => {
    const text = bodyText(request, id);
    return text !== undefined && isValidRequestBody(contract, text);
  });
  if (fixture.expect === 'rejected-body') {
    if (valid.some(Boolean)) return `its body is a valid ${requestBody.schemaName} by the spec, so it cannot stand for a rejected body`;
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
 * The operation a case file's request goes to: the one with its method and path, or, when it
 * names neither, the first operation under test that takes a JSON body.
 */
function operationOf(fixture: FixtureCase, operations: readonly SuiteContract[]): SuiteContract {
  const { method, path } = fixture.request;
  const bare = path?.split('?')[0];
  const named = operations.find((o) => (method === undefined || o.method === method) && (bare === undefined || o.path === bare) && (method !== undefined || bare !== undefined));
  return named ?? operations.find((o) => o.requestBody) ?? (operations[0] as SuiteContract);
}

/** A fixture case as the suite runs it, or as a skipped case with the reason it does not fit. */
export function fileCase(fixture: FixtureCase, source: 'fixture' | 'cases', operations: SuiteContract | readonly SuiteContract[], context: CaseFileContext): FileCase {
  const list = Array.isArray(operations) ? operations : [operations as SuiteContract];
  const contract = operationOf(fixture, list);
  const unfit = fitFixture(fixture, contract);
  const renderContext: RenderContext = {
    token: context.token,
    invalidToken: context.invalidToken,
    ids: context.ids,
    headers: context.headers,
    credentials: contract.security.kind === 'api-key' ? { kind: 'api-key', header: contract.security.header } : { kind: contract.security.kind === 'none' ? 'none' : 'bearer' },
    operation: { method: contract.method, path: contract.path },
    mediaType: contract.requestBody?.mediaType ?? 'application/json',
  };
  const request = renderFixture(fixture, renderContext);
  if (!unfit && fixture.expect === 'accepted' && request.body !== undefined) request.plant = parseExactJson(request.body) as Record<string, unknown>;
  const origin = [`${source === 'fixture' ? 'fixtures/cases/' : ''}${fixture.file}`, fixture.origin].filter(Boolean).join(', ');
  const contractCase: ContractCase = {
    id: `${source}:${fixture.name}`,
    operationId: contract.operationId,
    source,
    description: fixture.description,
    expect: fixture.expect,
    request,
    origin,
  };
  return unfit ? { case: contractCase, unfit: `the case no longer fits the spec: ${unfit}` } : { case: contractCase };
}
