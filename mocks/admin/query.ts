/**
 * The problems of an admin route's query string, for its 400 (INVALID_ADMIN_QUERY): the first few
 * named, the rest counted, so a query of thousands of unknown names costs a sentence, not a copy
 * of the query. Every admin route that reads a query collects its problems here.
 */
import { DEFAULT_PROBLEM_LIMIT } from '../../openapi/schema/problems.js';
import { reject, type Rejection } from '../errors.js';

export class QueryProblems {
  readonly named: string[] = [];
  more = 0;

  add(problem: string): void {
    if (this.named.length < DEFAULT_PROBLEM_LIMIT) this.named.push(problem);
    else this.more++;
  }

  /** The INVALID_ADMIN_QUERY rejection naming them, or undefined when there are none. */
  rejection(route: string): Rejection | undefined {
    if (!this.named.length) return undefined;
    return reject('INVALID_ADMIN_QUERY', { route, problems: this.named, more: this.more });
  }
}

/** The problems of parameters the route does not take or that are given more than once; `takes` says what it takes, in words. */
export function parameterProblems(search: URLSearchParams, parameters: readonly string[], takes: string): QueryProblems {
  const problems = new QueryProblems();
  // One pass: counting with getAll() per name would cost the square of the query's length.
  const seen = new Map<string, number>();
  for (const name of search.keys()) seen.set(name, (seen.get(name) ?? 0) + 1);
  for (const [name, count] of seen) {
    if (!parameters.includes(name)) problems.add(`${quote(name)} is not a parameter of this route (it takes ${takes})`);
    else if (count > 1) problems.add(`${name} is given more than once`);
  }
  return problems;
}

/** A client's text quoted in a message, cut so the message stays a sentence. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
