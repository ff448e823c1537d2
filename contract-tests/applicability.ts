/**
 * What the spec gives each check to judge, read from the spec alone before any request: a check with
 * nothing (no response schema, no declared header, no collection) is not applicable, never "not judged";
 * one that applies names the answers that would give it something, which the report prints when none came
 * (a run where an applicable check judged nothing fails: it proves nothing).
 */
import type { CheckName } from './model.js';
import { judgedFilters, type SequencePlan } from './sequences.js';
import type { MissingParent } from './missing-parents.js';
import type { ProducedValue } from './dependencies.js';
import type { ListedFilters } from './listed-filters.js';
import type { DeclaredResponse, SuiteContract } from './spec-contract.js';
import { isJsonMediaType } from '../openapi/media-types.js';
import { verdict, write } from './generators/parameters.js';

/** Every response an operation declares, by what the spec writes for its status. */
function declaredResponses(operation: SuiteContract): DeclaredResponse[] {
  return [...operation.responses.values(), ...operation.ranges.values(), ...(operation.fallback ? [operation.fallback] : [])];
}

/**
 * A response whose body the schema check judges: a JSON media type with a schema. Asked before the
 * run of every declared response: compiling every validator here was 5 % of a run's CPU
 * (netlify), for answers most providers never give (500, default).
 */
function hasJsonSchema(response: DeclaredResponse): boolean {
  return response.judged && response.mediaTypes.some((type) => isJsonMediaType(type));
}

/** A list whose records show the identity: which records it holds can be judged. */
function tellsRecords(plan: SequencePlan): boolean {
  return plan.list !== undefined && !plan.identityInPathOnly && !plan.identityUnlisted;
}

/** A list with what list_honours_parameters judges: a page size, or a filter the sequence judges (sequences.ts judgedFilters; other query parameters it cannot judge). */
function honoursJudged(plan: SequencePlan): boolean {
  return plan.list !== undefined && (plan.limit !== undefined || judgedFilters(plan).length > 0);
}

/** Parameter texts (as JSON literals) of which a constrained schema refuses at least one: a word, signs, a fraction, a huge number, a long string. */
const PROBES = ['"x"', '-1', '0.5', '"true"', '2147483648000', JSON.stringify('a'.repeat(4097))];

/**
 * Whether some request to the operation is invalid by its spec: a body (it can always be malformed),
 * a required parameter outside the path (it can be left out), or a parameter whose schema refuses
 * some text, read back as the mock reads it. A path of unconstrained strings and no body takes
 * every request the route matches.
 */
function takesInvalidRequests(operation: SuiteContract): boolean {
  if (operation.requestBody || operation.rawBody) return true;
  return operation.parameters.some((parameter) => {
    if (parameter.required && parameter.in !== 'path') return true;
    return PROBES.some((literal) => {
      try {
        return verdict(parameter, write(parameter, literal)) === false;
      } catch {
        return false;
      }
    });
  });
}

/**
 * Why a check has nothing to judge in any operation under test, from the spec alone; undefined
 * when it applies. A check that applies and then judges nothing fails the run (not judged).
 */
export function notApplicable(
  check: CheckName,
  operations: readonly SuiteContract[],
  plans: readonly SequencePlan[],
  missingParents: readonly MissingParent[] = [],
  actions: readonly ProducedValue[] = [],
  lists: readonly ListedFilters[] = [],
): string | undefined {
  const none = (what: string): string =>
    `no collection of the operations under test has ${what} (a stateful sequence needs a create with the identity in its body${plans.length ? '' : '; none was found'})`;
  switch (check) {
    case 'ensure_resource_availability':
      // Or an action answering what a read under test then reads (actions.ts: a trigger, then the instance it started).
      return plans.some((p) => p.read || tellsRecords(p)) || actions.some((a) => a.read) ? undefined : none('a read, or a list whose records show their identity');
    case 'resource_consistency':
      // Or a list showing the records, where the list is the only read: it must show them as created (and updated).
      return plans.some((p) => p.read || tellsRecords(p)) ? undefined : none('a read by id, or a list whose records show their identity');
    case 'missing_resource_not_found':
      // A delete that declares 404 is judged on an id never created, read or no read.
      // And a read below a record a client makes, sent with that record missing on purpose (missing-parents.ts).
      return plans.some((p) => p.read || p.remove?.responses.has(404)) || missingParents.length ? undefined : none('a read by id or a delete declaring 404');
    case 'list_honours_parameters':
      // Or a list no client fills with an exact filter, judged on its own records (listed-filters.ts).
      return plans.some(honoursJudged) || lists.length ? undefined : none('a list with a page-size parameter, or a filter on a property its create sends and its items show');
    case 'list_pages_advance':
      return plans.some((p) => p.list) ? undefined : none('a list');
    case 'use_after_free':
      return plans.some((p) => p.remove && (p.read || tellsRecords(p))) ? undefined : none('a delete and a read or a list');
    case 'ignored_auth': {
      if (operations.some((o) => o.security.kind !== 'none')) return undefined;
      const only = operations.length === 1 ? operations[0] : undefined;
      return only && only.security.kind === 'none' ? only.security.reason : 'the spec declares no security for the operations under test, so there are no credentials to refuse';
    }
    case 'response_echoes_request':
      return operations.some((o) => o.echoed.length > 0) ? undefined : 'no operation under test has a success response declaring properties its request sends, so there is nothing to echo';
    case 'content_type_conformance':
      return operations.some((o) => declaredResponses(o).some((r) => r.mediaTypes.length > 0)) ? undefined : 'no response of the operations under test declares a body';
    case 'response_schema_conformance':
      // Examples alone, or a media type without a schema: nothing a body could be judged against.
      return operations.some((o) => declaredResponses(o).some(hasJsonSchema)) ? undefined : 'no response of the operations under test declares a JSON body with a schema';
    case 'response_headers_conformance':
      return operations.some((o) => declaredResponses(o).some((r) => (r.headerParameters?.length ?? 0) > 0)) ? undefined : 'no response of the operations under test declares a header';
    case 'negative_data_rejection':
      return operations.some(takesInvalidRequests) ? undefined : 'no operation under test takes a body, a required parameter or one whose schema refuses some value, so no request can be invalid';
    default:
      return undefined;
  }
}

/** The answers that would have given `check` something to judge, for the report of a check that judged nothing. */
export function awaitedAnswers(
  check: CheckName,
  operations: readonly SuiteContract[],
  plans: readonly SequencePlan[],
  actions: readonly ProducedValue[] = [],
  lists: readonly ListedFilters[] = [],
): string[] {
  const answers = (keep: (r: DeclaredResponse) => boolean, what = ''): string[] =>
    operations.flatMap((o) =>
      declaredResponses(o)
        .filter(keep)
        .map((r) => `a ${r.status} answer of ${o.operationId} (${o.method} ${o.path})${what}`),
    );
  switch (check) {
    case 'response_schema_conformance':
      return answers(hasJsonSchema, ' in a JSON type, judged against its schema');
    case 'response_headers_conformance':
      return answers((r) => (r.headerParameters?.length ?? 0) > 0, ', whose headers the spec declares');
    case 'content_type_conformance':
      return answers((r) => r.mediaTypes.length > 0, ' with a body');
    case 'response_echoes_request':
      return operations.filter((o) => o.echoed.length > 0).map((o) => `a success of ${o.operationId} (${o.method} ${o.path}) to a valid request sending ${o.echoed.slice(0, 4).join(', ')}`);
    case 'ignored_auth':
      return operations.filter((o) => o.security.kind !== 'none').map((o) => `an answer of ${o.operationId} (${o.method} ${o.path}) to a missing or wrong credential`);
    case 'negative_data_rejection':
      return operations.filter(takesInvalidRequests).map((o) => `an answer of ${o.operationId} (${o.method} ${o.path}) to an invalid request`);
    case 'ensure_resource_availability':
      return [
        ...plans.filter((p) => p.read || tellsRecords(p)).map((p) => `${(p.read ?? p.list)?.operationId} after ${p.create.operationId} created a ${p.noun} (a 2xx create first)`),
        ...actions.flatMap((a) => (a.read ? [`${a.read.operationId} after ${a.producer} answered its ${a.property} (a 2xx ${a.producer} first)`] : [])),
      ];
    case 'resource_consistency':
      return [
        ...plans.filter((p) => p.read).map((p) => `${p.read?.operationId} reading a ${p.noun} ${p.create.operationId} created (a 2xx create first)`),
        ...plans.filter((p) => !p.read && tellsRecords(p)).map((p) => `${p.list?.operationId} listing a ${p.noun} ${p.create.operationId} created (a 2xx create first)`),
        ...plans.filter((p) => p.read && p.scope && tellsRecords(p)).map((p) => `${p.list?.operationId} under another ${p.scope?.join(' or ')} a list answered (a 2xx create first)`),
      ];
    case 'missing_resource_not_found':
      return plans.flatMap((p) => [
        ...(p.read ? [`${p.read.operationId} on a ${p.noun} never created or deleted (after a 2xx create of another)`] : []),
        ...(p.remove?.responses.has(404) ? [`${p.remove.operationId} on a ${p.noun} never created (the spec declares 404)`] : []),
      ]);
    case 'list_honours_parameters':
      return [
        ...plans.filter(honoursJudged).map((p) => `${p.list?.operationId} listing with its query parameters after ${p.create.operationId} created a ${p.noun} (a 2xx create and a 2xx list)`),
        ...lists.map((l) => `${l.operation.operationId} listing with ${l.filters.map((f) => f.parameter).join(', ')} set to a value its records hold (a 2xx list without the filter first)`),
      ];
    case 'list_pages_advance':
      return plans.filter((p) => p.list).map((p) => `${p.list?.operationId} walked page by page after ${p.create.operationId} created a ${p.noun} (a 2xx create and a 2xx list)`);
    case 'use_after_free':
      return plans
        .filter((p) => p.remove && (p.read || tellsRecords(p)))
        .map((p) => `${(p.read ?? p.list)?.operationId} after ${p.remove?.operationId} deleted a ${p.noun} ${p.create.operationId} created`);
    default:
      return operations.map((o) => `any answer of ${o.operationId} (${o.method} ${o.path})`);
  }
}
