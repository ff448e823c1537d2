/**
 * The checks of state, judging the steps of a stateful sequence (sequences.ts). Names follow
 * Schemathesis where it has one (ensure_resource_availability, use_after_free); the others say
 * what they hold.
 */
import type { Check, Exchange, Problem, SequenceStep } from '../model.js';
import { parseBody } from '../spec-contract.js';
import { listedItems } from '../../openapi/operations/list-filters.js';
import { hasKey, keyHolder, recordIn } from '../sequences.js';
import { answered, cutBody, failure, info, isSuccess, sequenceStepsOnly, warning } from './verdicts.js';
import { isDotSegment } from '../dot-segments.js';
import { isObject } from '../../openapi/schema/resolve.js';
import { holdsMergePatch } from './merge-patch.js';

const stepOf = (exchange: Exchange, ...kinds: SequenceStep['kind'][]): SequenceStep | undefined => {
  const step = exchange.case.sequence;
  return step && kinds.includes(step.kind) ? step : undefined;
};

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The records a list step saw (every page), or the first page's. */
function seenRecords(exchange: Exchange, step: SequenceStep): unknown[] | undefined {
  if (step.seen) return step.seen;
  const response = answered(exchange);
  const parsed = response ? parseBody(response.body) : undefined;
  return parsed?.ok ? listedItems(parsed.value, step.wrapper, true) : undefined;
}

const filtered = (step: SequenceStep): string => (step.filter ? ` with ${step.filter.parameter}=${step.filter.values.join(',')}` : '');

/** Why a list's verdict covers its first pages only. */
const cutShort = (pages: number): string => `the walk was cut short after ${pages} pages (the suite's bound) with the list still offering more`;

export const ensureResourceAvailability: Check = {
  name: 'ensure_resource_availability',
  proves: 'a record just created (or updated) can be read back at once, and the list holds it (paging followed)',
  considers: sequenceStepsOnly,
  judge(exchange) {
    const step = stepOf(exchange, 'read', 'list', 'create');
    const response = answered(exchange);
    if (!step || !response) return undefined;
    if (step.kind === 'create') return unreachableId(exchange, step, response);
    if (step.kind === 'read') {
      if (isSuccess(response.status)) return [];
      if (step.afterAnonymousDelete)
        return [failure(`Read ${step.collection}/${step.id} answered ${response.status} after a delete sent without a credential: the record was deleted without authentication.`)];
      return [failure(`Read ${step.collection}/${step.id} answered ${response.status} right after the record was created: a created record must be available.`)];
    }
    if (!step.contains?.length) return undefined;
    if (!isSuccess(response.status)) return [failure(`The list ${step.collection} answered ${response.status}; it must list the records just created (${step.contains.join(', ')}).`)];
    const records = seenRecords(exchange, step);
    if (!records && response.truncated) return [cutBody(`The list ${step.collection}'s answer`)];
    if (!records)
      return [
        failure(
          `The list ${step.collection} answered no array of records (bare, or wrapped in ${step.wrapper === undefined ? 'an object with one array member' : `an object's ${step.wrapper} member`}).`,
        ),
      ];
    const absent = step.contains.filter((id) => !records.some((record) => hasKey(record, step.identity, id, step.identityMember)));
    if (!absent.length) return [];
    if (step.truncated) {
      return [
        warning(
          `The list ${step.collection} lacks ${absent.map((id) => `${step.identity} ${id}`).join(' and ')}, but it answered a full page (${records.length} records) and no link to the next one, so they may be further on (declare paging parameters, or a next link, to make the list checkable).`,
        ),
      ];
    }
    if (step.cutAfter !== undefined) {
      return [
        warning(
          `The list ${step.collection}${filtered(step)} lacks ${absent.map((id) => `${step.identity} ${id}`).join(' and ')} in the ${step.cutAfter} pages walked, but ${cutShort(step.cutAfter)}, so they may be further on.`,
        ),
      ];
    }
    return [
      failure(
        `The list ${step.collection}${filtered(step)} lacks ${absent.map((id) => `${step.identity} ${id}`).join(' and ')}, created just before (${records.length} record(s) listed, every page followed).`,
      ),
    ];
  },
};

/**
 * A created record's id that no path can carry: `.` or `..` is a dot segment URL normalisation removes even
 * percent-encoded, so its read, update and delete would reach another path; the suite sends none of them.
 * Undefined (not judged) for any other create.
 */
function unreachableId(exchange: Exchange, step: SequenceStep, response: { status: number; body: string }): Problem[] | undefined {
  if (!isSuccess(response.status)) return undefined;
  const parsed = parseBody(response.body);
  // An enveloped collection's record, and so its identity, is inside the envelope (`{"add_on": {"code": …}}`).
  const record = parsed.ok ? recordIn(parsed.value, step.envelope) : undefined;
  // An object identity names the record by its member (`ehr_id.value`).
  const held = keyHolder(record, step.identity, step.identityMember);
  const id = held?.holder[held.name];
  const where = step.envelope === undefined ? '' : ` (inside the envelope ${step.envelope})`;
  if (id === '' && step.named) {
    return [
      failure(
        `${exchange.case.operationId} answered the ${step.identity} ""${where}: an empty identity names no record in the item path (its segment is empty, so a request on it would reach the collection), so the record cannot be read, updated or deleted; the suite sent no request on it.`,
      ),
    ];
  }
  if (typeof id !== 'string' || !isDotSegment(id)) return undefined;
  return [
    failure(
      `${exchange.case.operationId} assigned the ${step.identity} ${JSON.stringify(id)}${where}, which no path segment can carry: URL normalisation removes it even percent-encoded, so a request on the record would reach another path (the collection's or its parent's). The record cannot be read back; the suite sent no request on it.`,
    ),
  ];
}

export const resourceConsistency: Check = {
  name: 'resource_consistency',
  proves:
    'a read shows the record it was asked for, as last created or updated: its id and every property sent (where the list is the only read, the list shows it so); a list under another parent shows none of them',
  considers: sequenceStepsOnly,
  judge(exchange, run) {
    const step = stepOf(exchange, 'read', 'list');
    const response = answered(exchange);
    if (!step || !response || !isSuccess(response.status)) return undefined;
    const validate = run.contract.responses.get(response.status)?.validate;
    const parsed = parseBody(response.body);
    // An answer cut at the read limit is not the provider's body: said, never judged (nor left "not judged").
    const cut = (): Problem[] => [cutBody(step.kind === 'list' ? `The list ${step.collection}'s answer` : `Read ${step.collection}/${step.id}'s answer`)];
    if (step.kind === 'list' && step.apart) {
      const { parameter, value, ids } = step.apart;
      const records = seenRecords(exchange, step) ?? [];
      const shown = ids.filter((id) => records.some((record) => hasKey(record, step.identity, id, step.identityMember)));
      if (!shown.length) return response.truncated ? cut() : [];
      return [
        failure(
          `The list ${step.collection} under ${parameter} ${value} shows ${shown.map((id) => `${step.identity} ${id}`).join(', ')}, created under another ${parameter}: a record of a nested collection belongs to the ${parameter} its path named.`,
        ),
      ];
    }
    if (step.kind === 'list') {
      const { showing } = step;
      if (!showing) return undefined;
      const shown = (seenRecords(exchange, step) ?? []).find((record) => isObject(record) && hasKey(record, step.identity, showing.id, step.identityMember));
      // Not listed at all: ensure_resource_availability says so (or the answer was cut before it, or the walk stopped short of it).
      if (!isObject(shown)) {
        if (response.truncated) return cut();
        const { identity } = step;
        if (step.cutAfter !== undefined)
          return [
            warning(
              `The list ${step.collection} did not show ${identity} ${showing.id} in the ${step.cutAfter} pages walked, but ${cutShort(step.cutAfter)}, so how it shows the record was not judged.`,
            ),
          ];
        if (step.truncated)
          return [
            warning(
              `The list ${step.collection} did not show ${identity} ${showing.id} on the full page it answered, with no link to the next one, so how it shows the record was not judged (declare paging parameters, or a next link).`,
            ),
          ];
        return undefined;
      }
      const body = parsed.ok ? parsed.value : undefined;
      return differences(shown, showing.record, showing.merged === true, {
        identity: step.identity,
        where: `The list ${step.collection} shows the record whose ${step.identity} is ${showing.id} with`,
        fits: validate && ((record) => validate(withItems(body, step.wrapper, [record]))),
      });
    }
    if (!step.record) return undefined;
    // An enveloped collection's read answers the record inside the envelope's member.
    const record = parsed.ok ? recordIn(parsed.value, step.envelope) : undefined;
    if (!isObject(record)) return response.truncated ? cut() : undefined;
    const got = record;
    const outer = parsed.ok && isObject(parsed.value) ? parsed.value : {};
    const whole = (value: Record<string, unknown>): unknown => (step.envelope === undefined ? value : { ...outer, [step.envelope]: value });
    const problems: Problem[] = [];
    if (step.identity in got && step.id !== undefined && !hasKey(got, step.identity, step.id, step.identityMember)) {
      problems.push(failure(`Read ${step.collection}/${step.id} answered the record whose ${step.identity} is ${JSON.stringify(got[step.identity])}: another record than the one asked for.`));
    }
    return [
      ...problems,
      ...differences(got, step.record, step.merged === true, {
        identity: step.identity,
        where: `Read ${step.collection}/${step.id} shows`,
        fits: validate && ((value) => validate(whole(value))),
      }),
    ];
  },
};

/**
 * Where `got` shows another value than the one last written (`sent`), each a failure; an info where the
 * answer's schema (`fits`) takes what was shown but not what was sent: the provider transforms the value
 * (a card number answered masked), its choice. A property the answer leaves out is not judged.
 */
function differences(
  got: Record<string, unknown>,
  sent: Record<string, unknown>,
  merged: boolean,
  how: { identity: string; where: string; fits: ((record: Record<string, unknown>) => boolean) | undefined },
): Problem[] {
  const problems: Problem[] = [];
  for (const [name, value] of Object.entries(sent)) {
    if (name === how.identity || !(name in got)) continue;
    if (sameJson(value, got[name]) || (merged && holdsMergePatch(value, got[name]))) continue;
    const shown = `${name} ${JSON.stringify(got[name])?.slice(0, 80)}`;
    if (how.fits && how.fits(got) && !how.fits({ ...got, [name]: value })) {
      problems.push(info(`${how.where} ${shown} for ${JSON.stringify(value)?.slice(0, 80)} sent: the answer's schema does not take the value sent, so the provider transforms it.`));
      continue;
    }
    problems.push(failure(`${how.where} ${shown}, but the record was last written with ${JSON.stringify(value)?.slice(0, 80)}.`));
  }
  return problems;
}

/** A list answer with its records replaced by `items`: a bare array, else its `wrapper` member or its one array member. */
function withItems(body: unknown, wrapper: string | undefined, items: unknown[]): unknown {
  if (Array.isArray(body) || !isObject(body)) return items;
  const member = wrapper !== undefined && Array.isArray(body[wrapper]) ? wrapper : Object.keys(body).find((key) => Array.isArray(body[key]));
  return member === undefined ? body : { ...body, [member]: items };
}

export const listHonoursParameters: Check = {
  name: 'list_honours_parameters',
  proves: 'a list asked for a limit returns at most that many records, and one asked for a filter only records that match it',
  considers: sequenceStepsOnly,
  judge(exchange) {
    const step = stepOf(exchange, 'list');
    const response = answered(exchange);
    if (!step || (!step.limit && !step.filter) || !response || !isSuccess(response.status)) return undefined;
    const parsed = parseBody(response.body);
    const page = parsed.ok ? listedItems(parsed.value, step.wrapper, true) : undefined;
    if (!page) return undefined;
    const problems: Problem[] = [];
    if (step.limit && page.length > step.limit.value) {
      problems.push(failure(`Listed ${page.length} records with ${step.limit.parameter}=${step.limit.value}; the limit allows at most ${step.limit.value}.`));
    }
    if (step.filter) {
      const { property, values, parameter, absent } = step.filter;
      // A record without the property has the schema's default (a provider may leave a default value out).
      const valueOf = (record: Record<string, unknown>): unknown => (record[property] === undefined ? absent : record[property]);
      const strays = (step.seen ?? page).filter((record) => record !== null && typeof record === 'object' && !values.includes(valueOf(record as Record<string, unknown>) as string | boolean));
      if (strays.length) {
        const example = strays[0] as Record<string, unknown>;
        problems.push(
          failure(
            `Listed ${strays.length} record(s) whose ${property} is not any of ${values.join(', ')} with ${parameter}=${values.join(',')} (one has ${property} ${JSON.stringify(example[property])}): the filter was ignored.`,
          ),
        );
      } else if (step.cutAfter !== undefined) {
        problems.push(
          warning(`Every record listed with ${parameter}=${values.join(',')} matches it, in the ${step.cutAfter} pages walked; ${cutShort(step.cutAfter)}, so the pages after were not judged.`),
        );
      }
    }
    return problems;
  },
};

export const useAfterFree: Check = {
  name: 'use_after_free',
  proves: 'a record deleted (its delete answered 2xx) is gone: reading it is 404 and the list lacks it',
  considers: sequenceStepsOnly,
  judge(exchange) {
    const step = stepOf(exchange, 'read-deleted', 'list');
    const response = answered(exchange);
    if (!step || !response) return undefined;
    if (step.kind === 'list') {
      if (!step.lacks?.length || !isSuccess(response.status)) return undefined;
      // No array of records to look in: ensure_resource_availability reports that list; this check cannot judge it.
      const records = seenRecords(exchange, step);
      if (!records) return undefined;
      const kept = step.lacks.filter((id) => records.some((record) => hasKey(record, step.identity, id, step.identityMember)));
      if (kept.length && step.deletePending)
        return [
          info(
            `The list ${step.collection} still holds ${kept.map((id) => `${step.identity} ${id}`).join(', ')}, but its delete was answered 202 Accepted: the deletion may not have completed yet (RFC 9110 §15.3.3).`,
          ),
        ];
      if (kept.length) return [failure(`The list ${step.collection} still holds ${kept.map((id) => `${step.identity} ${id}`).join(', ')} after its delete was answered with success.`)];
      if (step.cutAfter !== undefined)
        return [
          warning(
            `The list ${step.collection} lacks ${step.lacks.map((id) => `${step.identity} ${id}`).join(', ')} in the ${step.cutAfter} pages walked, but ${cutShort(step.cutAfter)}: it may still be further on.`,
          ),
        ];
      return [];
    }
    if (isSuccess(response.status) && step.deletePending)
      return [info(`Read ${step.collection}/${step.id} answered ${response.status}, but its delete was answered 202 Accepted: the deletion may not have completed yet (RFC 9110 §15.3.3).`)];
    if (isSuccess(response.status)) return [failure(`Read ${step.collection}/${step.id} answered ${response.status} after its delete was answered with success: the record was kept.`)];
    if (response.status === 404 || response.status === 410) return [];
    return [warning(`Read ${step.collection}/${step.id} after its delete answered ${response.status}; 404 (or 410) is the answer for a record that is gone.`)];
  },
};

export const missingResourceNotFound: Check = {
  name: 'missing_resource_not_found',
  proves: 'reading an id that was never created answers 404, never a record; deleting one answers 404 where the spec declares it',
  considers: sequenceStepsOnly,
  judge(exchange) {
    const step = stepOf(exchange, 'read-missing') ?? stepOf(exchange, 'delete-missing');
    const response = answered(exchange);
    if (!step || !response) return undefined;
    if (step.kind === 'delete-missing') {
      if (isSuccess(response.status)) return [failure(`Delete of ${step.collection}/${step.id}, an id never created, answered ${response.status}; the spec declares 404 for it, so it must be 404.`)];
      if (response.status === 404 || response.status === 410) return [];
      return [warning(`Delete of ${step.collection}/${step.id}, an id never created, answered ${response.status}; the spec declares 404 for a record that does not exist.`)];
    }
    if (isSuccess(response.status)) return [failure(`Read ${step.collection}/${step.id}, an id never created, answered ${response.status}; it must be 404.`)];
    if (response.status === 404) return [];
    return [warning(`Read ${step.collection}/${step.id}, an id never created, answered ${response.status}; 404 is the answer for a record that does not exist.`)];
  },
};
