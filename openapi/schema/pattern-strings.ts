/**
 * Strings that match their schema's `pattern`, for the answers made up from a schema: the Prism
 * mock's and the stateful mock's (./sample.ts, given them as its `patternString`). Prism's static
 * sampler writes `"string"` for every string without an example, so without them the spec's own
 * contract suite would fail both mocks. A string made here by randexp from the
 * pattern, and kept only when the spec's own validator (openapi/schema/ajv.ts: linear-time patterns, every
 * format) takes it with the schema's lengths and format, is given to the schema as its example.
 *
 * Bounded against a hostile spec: a repetition without an upper bound (`*`, `+`, `{2,}`) repeats
 * at most OPEN_REPETITION (or the schema's minLength) more times than its minimum, and a pattern
 * whose longest string (read from its parse by ret, before anything is generated) exceeds LONGEST
 * characters is not generated at all (RE2 caps each count at 1,000 at load, not a pattern's sum:
 * `(x{30}){30}(y{30}){30}`, or `x{1000}` written a thousand times). Its strings keep Prism's value;
 * the log says so once per spec. Seeded: the same strings at every start.
 */
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { Tokens } from 'ret';
import { createSpecAjv } from './ajv.js';
import { ecmaSubsetOf } from './patterns.js';

/** How many more times than its minimum an open repetition repeats. */
export const OPEN_REPETITION = 8;
/** The longest string a pattern may make; one that could make more is left to Prism. */
export const LONGEST = 1024;
/** Strings tried per schema before giving up (lengths or a format may refuse what the pattern allows). */
const ATTEMPTS = 64;
/** The same strings at every start, as Prism's static answers are the same every time. */
const SEED = 21;

type RandExp = (typeof import('randexp'))['default'];
/** ret's tokenizer, with its token `types` (what its CommonJS module is). */
type Ret = (typeof import('ret'))['default'] & Pick<typeof import('ret'), 'types'>;

/** The keywords of a string schema that a made-up string must satisfy. */
export interface StringKeywords {
  pattern: string;
  minLength?: number;
  maxLength?: number;
  format?: string;
}

export class PatternStrings {
  /** randexp, ret and a validator, loaded by the first pattern: a spec without patterns starts without them. */
  #tools: { randexp: RandExp; ret: Ret; ajv: Ajv2020 } | undefined;
  readonly #made = new Map<string, string | undefined>();
  readonly #refused = new Set<string>();
  readonly #validators = new Map<string, ValidateFunction>();

  #loaded(): { randexp: RandExp; ret: Ret; ajv: Ajv2020 } {
    // randexp and ret are CommonJS modules that are their class and function (typed as a `default` export): required, as Node and Vite read them alike.
    const require = createRequire(import.meta.url);
    return (this.#tools ??= { randexp: require('randexp') as RandExp, ret: require('ret') as Ret, ajv: createSpecAjv() });
  }

  /** A string `keywords` take, or undefined when none could be made within the bounds. */
  stringFor(keywords: StringKeywords): string | undefined {
    const key = JSON.stringify([keywords.pattern, keywords.minLength, keywords.maxLength, keywords.format]);
    if (this.#made.has(key)) return this.#made.get(key);
    const made = this.#make(keywords);
    this.#made.set(key, made);
    if (made === undefined) this.#refused.add(keywords.pattern);
    return made;
  }

  /** The patterns no string was made for (their answers keep Prism's value), for the one line the log gets. */
  get refused(): readonly string[] {
    return [...this.#refused];
  }

  /**
   * The `n`th of a sequence of strings `keywords` take (an identity the mock assigns): each drawn
   * with its own seed, so distinct values for distinct `n` as far as the pattern has them. Not cached.
   */
  nthStringFor(keywords: StringKeywords, n: number): string | undefined {
    return this.#make(keywords, SEED + n);
  }

  #make(keywords: StringKeywords, seed = SEED): string | undefined {
    let validate: ValidateFunction;
    let generator: InstanceType<RandExp>;
    try {
      const { randexp, ret, ajv } = this.#loaded();
      // A minLength past what open repetitions reach lets them reach it, within the bound.
      const open = Math.min(Math.max(OPEN_REPETITION, keywords.minLength ?? 0), LONGEST);
      // The core's reading of a pattern in RE2's syntax (`(?i)^(all|none)$`): an ECMA-262 one whose strings RE2 accepts (patterns.ts).
      const drawn = ecmaSubsetOf(keywords.pattern);
      if (drawn === undefined) return undefined;
      if (longest(ret(drawn.source), ret.types, open) > LONGEST) return undefined;
      // Compiled once per keywords: an assigned identity draws a string at every create.
      const key = JSON.stringify([keywords.pattern, keywords.minLength, keywords.maxLength, keywords.format]);
      validate = this.#validators.get(key) ?? ajv.compile({ type: 'string', ...keywords });
      this.#validators.set(key, validate);
      generator = new randexp(drawn);
      generator.max = open;
      // randexp's documented way to a seeded generator (its README, "Custom PRNG").
      const rng = xoroshiro128plus(seed);
      generator.randInt = (from, to) => uniformInt(rng, from, to);
    } catch {
      // A pattern ret cannot parse, a format Ajv does not know, a parse nested past the stack (or an install without randexp): Prism's value stays.
      return undefined;
    }
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const candidate = generator.gen();
      if (validate(candidate)) return candidate;
    }
    return undefined;
  }
}

/** The most characters the parsed pattern can make, as randexp generates it with `open` as its `max` (lookarounds and anchors make none). */
function longest(token: Tokens, types: Ret['types'], open: number): number {
  switch (token.type) {
    case types.ROOT:
    case types.GROUP: {
      if (token.type === types.GROUP && (token.followedBy || token.notFollowedBy)) return 0;
      let most = 0;
      for (const branch of token.options ?? [token.stack ?? []]) {
        let length = 0;
        for (const inner of branch) length += longest(inner, types, open);
        most = Math.max(most, length);
      }
      return most;
    }
    case types.REPETITION:
      return (token.max === Infinity ? token.min + open : token.max) * longest(token.value, types, open);
    case types.POSITION:
      return 0;
    case types.REFERENCE:
      // A back-reference repeats a group's text; the spec's patterns cannot have them (openapi/schema/patterns.ts), so no bound is read.
      return Infinity;
    default:
      return 1;
  }
}
