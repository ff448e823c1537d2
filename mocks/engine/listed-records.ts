/**
 * Records only a list answers (openapi/operations/dependencies.ts, `listedParameters`): no operation
 * of the spec makes one, so the mock's own list answers every one there is — the records of the
 * list's examples, or of the body it generates where the spec gives none. A value it never answers
 * names no record, and an operation declaring 404 answers it: the trigger requirements of a workflow
 * Maestro's workflows' list does not hold, as the spec declares, rather than an example's answer for
 * any workflow at all. Where the list's answers hold no such record (no JSON list, no value of the
 * property), nothing is known and every value is served as before.
 */
import { isJsonMediaType } from '../../openapi/media-types.js';
import { listedItems } from '../../openapi/operations/list-filters.js';
import type { ListedParameter } from '../../openapi/operations/dependencies.js';
import type { ContractOperation } from '../../openapi/operations/model.js';
import { isObject } from '../../openapi/schema/resolve.js';
import { reject } from '../errors.js';
import { rejected, type Answer } from '../http/answer.js';
import type { GeneratedBodies } from './generated-bodies.js';

export class ListedRecords {
  readonly #bodies: GeneratedBodies;
  /** By list operationId and property: the values its answers hold, undefined where none is known. */
  readonly #values = new Map<string, Promise<ReadonlySet<string> | undefined>>();

  constructor(bodies: GeneratedBodies) {
    this.#bodies = bodies;
  }

  /** The 404 of the first listed parameter of the request naming a record its list never answers; undefined when each names one (or none is known). */
  async unlisted(params: Readonly<Record<string, string>>, listed: readonly ListedParameter[], lists: ReadonlyMap<string, ContractOperation>): Promise<Answer | undefined> {
    for (const { parameter, list, property } of listed) {
      const operation = lists.get(list);
      const value = params[parameter];
      if (!operation || value === undefined) continue;
      const values = await this.values(operation, property);
      if (values && !values.has(value)) return rejected(reject('RECORD_NOT_LISTED', { parameter, value, list: `${operation.method.toUpperCase()} ${operation.path}`, property }));
    }
    return undefined;
  }

  /** The values of `property` the records of `list`'s 2xx JSON answers hold (every example, else the generated body). */
  values(list: ContractOperation, property: string): Promise<ReadonlySet<string> | undefined> {
    const key = `${list.operationId}\u0000${property}`;
    let known = this.#values.get(key);
    if (!known) this.#values.set(key, (known = this.#read(list, property)));
    return known;
  }

  async #read(list: ContractOperation, property: string): Promise<ReadonlySet<string> | undefined> {
    const answers: unknown[] = [];
    for (const [status, response] of list.responses) {
      if (typeof status !== 'number' || status < 200 || status > 299) continue;
      for (const [mediaType, media] of response.content) {
        if (!isJsonMediaType(mediaType)) continue;
        if (media.examples.length) answers.push(...media.examples.map((example) => example.value));
        else {
          const generated = await this.#bodies.body(media, `${list.method.toUpperCase()} ${list.path} ${status}`);
          if ('value' in generated) answers.push(generated.value);
        }
      }
    }
    const values = new Set<string>();
    for (const answer of answers) {
      for (const item of listedItems(answer, undefined, true) ?? []) {
        const value = isObject(item) ? item[property] : undefined;
        if (typeof value === 'string' || typeof value === 'number') values.add(String(value));
      }
    }
    return values.size ? values : undefined;
  }
}
