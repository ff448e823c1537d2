/**
 * list_pages_advance: a list's pages move forward and end. A next link that leads back to a page
 * already walked (its URL followed before, or the same records again) would keep a client paging
 * for ever; a valid page past the last record (the offset of the records seen, the page number after
 * the last) is an empty page, not records again and not a server error (not_a_server_error judges
 * the 5xx); the pages walked hold each record once (an offset off by one repeats a record across pages).
 */
import type { Check } from '../model.js';
import { parseBody } from '../spec-contract.js';
import { listedItems } from '../../openapi/operations/list-filters.js';
import { isObject } from '../../openapi/schema/resolve.js';
import { exactInteger } from '../../openapi/schema/exact-json.js';
import { answered, cutBody, failure, isSuccess, sequenceStepsOnly, warning } from './verdicts.js';

/** The identity values a list's records repeat, with how many times each came (records without one are not counted). */
function repeatedKeys(records: readonly unknown[], identity: string): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const record of records) {
    const value = isObject(record) ? record[identity] : undefined;
    // An int64 past 2^53 by the digits the answer holds (two such ids may be one double apart).
    const key =
      value === undefined || value === null ? undefined : typeof value === 'number' ? (exactInteger(record as Record<string, unknown>, identity)?.toString() ?? String(value)) : JSON.stringify(value);
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].filter(([, times]) => times > 1);
}

export const listPagesAdvance: Check = {
  name: 'list_pages_advance',
  proves: "a list's next links lead to new pages and end, its pages hold each record once, and a valid page past the last record is empty",
  considers: sequenceStepsOnly,
  judge(exchange, { contract }) {
    const step = exchange.case.sequence;
    const response = answered(exchange);
    if (!step || !response) return undefined;
    if (step.kind === 'list' && step.repeatedPage) {
      return [
        failure(
          `Listing ${step.collection}: after ${step.repeatedPage.after} page(s) the next link (${step.repeatedPage.url.slice(0, 120)}) leads to a page already walked, so a client following next links never reaches the end.`,
        ),
      ];
    }
    if (step.kind === 'list' && isSuccess(response.status) && step.seen !== undefined) {
      const repeated = repeatedKeys(step.seen, step.identity);
      if (repeated.length) {
        return [
          failure(
            `Listing ${step.collection}${step.union ? ' page by page' : ''}: ${repeated
              .slice(0, 3)
              .map(([key, times]) => `${step.identity} ${key} came ${times} times`)
              .join(', ')} in the pages walked; the union of a list's pages holds each record once.`,
          ),
        ];
      }
      if (step.cutAfter === undefined) return [];
      return [
        warning(
          `Listing ${step.collection}: no page repeated a record in the ${step.cutAfter} pages walked, but the walk was cut short after ${step.cutAfter} pages (the suite's bound) with the list still offering more, so whether its pages end was not seen.`,
        ),
      ];
    }
    // A walk whose page was cut at the read limit: said, never judged (nor left "not judged").
    if (step.kind === 'list' && isSuccess(response.status) && step.seen === undefined && response.truncated) return [cutBody(`The list ${step.collection}'s answer`)];
    if (step.kind !== 'list-past-end' || !step.page) return undefined;
    const { parameter, value } = step.page;
    if (isSuccess(response.status)) {
      const parsed = parseBody(response.body);
      const records = parsed.ok ? listedItems(parsed.value, step.wrapper, true) : undefined;
      if (records && records.length > 0) {
        return [failure(`Listed ${step.collection} with ${parameter}=${value}, past every record the pages before held: answered ${records.length} record(s); a page past the end is empty.`)];
      }
      return [];
    }
    if (response.status >= 500) return undefined;
    // A 4xx for a page past the end is what some APIs answer; it is the contract's when the spec declares it.
    if (contract.responses.has(response.status)) return [];
    return [
      warning(
        `Listed ${step.collection} with ${parameter}=${value}, past the last record: answered ${response.status}, which the spec does not declare for the list; an empty page is the usual answer.`,
      ),
    ];
  },
};
