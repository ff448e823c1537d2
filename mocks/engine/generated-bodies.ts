/**
 * The body of an answer the spec gives no example for, made from its schema by the core's sampler
 * (openapi/schema/sample.ts), and judged by the response's own validator before it is answered: a
 * generated body that breaks its schema is never sent. Tried in order, the first valid one kept:
 * with the schema's own examples and defaults, then without them (an example that breaks its own
 * schema sinks only the first try). When neither is valid the log says why, once per response, and the answer
 * says so (NO_VALID_BODY) rather than send a body that breaks the spec. One per engine; the
 * outcome is kept per response media type (the same schema gives the same body).
 */
import type { ErrorObject } from 'ajv';
import type { ContractMediaType } from '../../openapi/operations/model.js';
import type { PatternStrings } from '../../openapi/schema/pattern-strings.js';
import { samples } from '../../openapi/schema/sample.js';

/** What the engine's owner logs with: a structured warning (pino's argument order). */
export type Warn = (details: Record<string, unknown>, message: string) => void;

/** A body, with why it is not valid where no body could be (`unmatchable`: the schema accepts no value); or why there is none. */
export type GeneratedBody = { value: unknown; unmatchable?: string } | { problem: string };

export class GeneratedBodies {
  readonly #document: Record<string, unknown>;
  readonly #warn: Warn | undefined;
  /** Promises, so that requests arriving together before the first is generated share it (and its one warning). */
  readonly #made = new WeakMap<ContractMediaType, Promise<GeneratedBody>>();
  #patterns: Promise<PatternStrings> | undefined;

  constructor(document: Record<string, unknown>, warn: Warn | undefined) {
    this.#document = document;
    this.#warn = warn;
  }

  /** A body valid against `media`'s schema, or why there is none; `where` names the response for the log (`POST /events 201`). */
  body(media: ContractMediaType, where: string): Promise<GeneratedBody> {
    let made = this.#made.get(media);
    if (!made) {
      made = this.#generate(media).then((outcome) => {
        if ('problem' in outcome) this.#warn?.({ response: where, mediaType: media.mediaType }, `${where} (${media.mediaType}): ${outcome.problem}`);
        else if (outcome.unmatchable !== undefined) this.#warn?.({ response: where, mediaType: media.mediaType }, `${where} (${media.mediaType}): ${outcome.unmatchable}`);
        return outcome;
      });
      this.#made.set(media, made);
    }
    return made;
  }

  async #generate(media: ContractMediaType): Promise<GeneratedBody> {
    if (media.schema === undefined) return { value: {} };
    let validate: ContractMediaType['validate'];
    try {
      validate = media.validate;
    } catch (error) {
      return { problem: `the spec gives no example and its schema cannot be compiled, so no body can be checked: ${(error as Error).message}` };
    }
    // Loaded on the first generated answer (randexp, for a pattern): a mock that never generates one starts without it.
    const patterns = await (this.#patterns ??= import('../../openapi/schema/pattern-strings.js').then(({ PatternStrings }) => new PatternStrings()));
    const tried: string[] = [];
    let first: unknown;
    for (const candidate of samples(media.schema, { document: this.#document, patternString: (keywords) => patterns.stringFor(keywords) })) {
      // Judged as it is sent: JSON text read back (an undefined member dropped, as on the wire).
      const value = candidate === undefined ? null : (JSON.parse(JSON.stringify(candidate)) as unknown);
      if (!validate || validate(value) === true) return { value };
      if (tried.length === 0) first = value;
      tried.push(errorsText(validate.errors));
    }
    // A list whose items no sample satisfies (PowerDNS's SearchResult: additionalProperties false beside
    // a oneOf of objects with properties) may still be answered by its empty form, where the schema allows it.
    for (const least of [[], {}]) if (tried.length > 0 && validate?.(least) === true) return { value: least };
    // A schema no value matches (the spec's fault: openapi/schema/no-value.ts): the closest body there is, the spec's own example
    // or else the first sample, rather than a 500 for what no answer could mend; the log says so.
    const noValue = media.noValue;
    if (noValue !== undefined && (media.examples.length > 0 || tried.length > 0)) {
      return {
        value: media.examples.length > 0 ? media.examples[0]?.value : first,
        unmatchable: `the schema accepts no value (${noValue}), so no answer can be valid: the mock answers ${media.examples.length > 0 ? "the spec's example" : 'a body sampled from it'}; fix the spec`,
      };
    }
    const reason = tried[0] ?? 'the sampler reaches no finite value of the schema (every branch recurses, it nests past the bound, or its value would pass 1 MiB of JSON)';
    return { problem: `the spec gives no example, and no body generated from the schema is valid against it (${reason}); add an example to the response` };
  }
}

function errorsText(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return 'it is not valid';
  return `${first.instancePath || 'the body'} ${first.message ?? 'is not valid'}`;
}
