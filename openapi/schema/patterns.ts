/**
 * Patterns from a spec run in RE2JS, a pure-JavaScript port of RE2: matching takes time linear in
 * the input whatever the pattern, so a spec's `^(a+)+$` cannot freeze the mock on a 50-byte body
 * (V8's RegExp backtracks: that pattern doubles its time per added character). RE2 cannot express
 * lookaround or backreferences; a pattern that uses them is refused when the document is loaded,
 * with its JSON pointer, rather than run on a backtracking engine. docs/security.md says why the
 * native `re2` binding is not used (it builds from source on every `npm ci`).
 */
import { createRequire } from 'node:module';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';
import type { RE2JS } from 're2js';
import { NAMED_SCHEMA_KEYWORDS, VALUE_KEYWORDS } from './keywords.js';
import { escapePointerToken } from './resolve.js';

type RE2JSClass = typeof RE2JS;
/**
 * RE2JS loaded by the first pattern (synchronously: Ajv compiles patterns synchronously): a spec
 * without patterns, the seed's among them, starts without reading and initialising it.
 */
function re2js(): RE2JSClass {
  return (createRequire(import.meta.url)('re2js') as { RE2JS: RE2JSClass }).RE2JS;
}

/** A pattern compiled by RE2JS, in the shape Ajv's `code.regExp` engines return. */
class LinearPattern implements RegExpLike {
  readonly #compiled: RE2JS;
  readonly #text: string;

  constructor(pattern: string, flags: string) {
    const engine = re2js();
    this.#compiled = engine.compile(engine.translateRegExp(pattern), flags.includes('i') ? engine.CASE_INSENSITIVE : 0);
    this.#text = `/${pattern}/${flags}`;
  }

  test(input: string): boolean {
    return this.#compiled.test(input);
  }

  /** Ajv keys compiled patterns by this text: each pattern needs its own. */
  toString(): string {
    return this.#text;
  }
}

/** Ajv's `code.regExp` option: every `pattern` and `patternProperties` key is compiled here. */
export const linearRegExp: RegExpEngine = Object.assign((pattern: string, flags: string) => new LinearPattern(pattern, flags), {
  code: 'linearRegExp',
});

/**
 * The one reading of a pattern that is not ECMA-262 for the tools that make strings from it (the
 * suite's generators, the mock's sampler: ./pattern-strings.ts) rather than judge them: an
 * ECMA-262 RegExp whose every match the spec's validator (RE2, above) accepts, or undefined when
 * none can stand for it. RE2 syntax real specs write: a leading inline flag group (PayPal's
 * `(?i)^(all|none)$`) and `(?P<name>…)` groups. `s` and `m` become the RegExp's own flags; `i` is
 * left out (a string the case-sensitive pattern matches, the case-insensitive one matches too), as
 * is `U` (laziness changes which match is found, not whether one is). So both tools agree: what is
 * made is always valid, and the validator still takes `ALL` as RE2 reads it.
 */
export function ecmaSubsetOf(pattern: string): RegExp | undefined {
  const inline = /^\(\?([imsU]+)\)/.exec(pattern);
  const source = (inline ? pattern.slice(inline[0].length) : pattern).replace(/\(\?P</g, '(?<');
  const flags = `${inline?.[1]?.includes('s') ? 's' : ''}${inline?.[1]?.includes('m') ? 'm' : ''}`;
  // Unicode mode first, as JSON Schema reads patterns; without it for an escape RE2 allows and Unicode mode refuses (`\_`):
  // what is made from it is still judged by the validator before it is used.
  for (const mode of ['u', '']) {
    try {
      return new RegExp(source, mode + flags);
    } catch {
      // The next mode, or none.
    }
  }
  return undefined;
}

/** Why `pattern` cannot run in linear time, or undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  try {
    new LinearPattern(pattern, 'u');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A pattern the document declares that cannot run in linear time, with its JSON pointer. */
export interface RefusedPattern {
  pointer: string;
  pattern: string;
  reason: string;
}

// Subtrees holding data rather than schemas (keywords.ts, and a common extension): a `pattern` key there is a value, not a keyword.
const DATA_KEYWORDS = new Set([...VALUE_KEYWORDS, 'x-examples']);
// Mappings whose keys are names (a property called `example` or `pattern` is still a schema): the
// schema keywords' (keywords.ts) and OpenAPI's.
const NAME_MAPS = new Set([...NAMED_SCHEMA_KEYWORDS, 'schemas', 'paths', 'responses', 'content']);

/**
 * Every `pattern` keyword and `patternProperties` key in `document` that RE2 cannot compile.
 * The walk is iterative and visits each node once, so a deep or wide document costs its size.
 */
export function refusedPatterns(document: unknown): RefusedPattern[] {
  const refused: RefusedPattern[] = [];
  // A large document repeats its patterns (an id's, a date's): each distinct one is compiled once.
  const problems = new Map<string, string | undefined>();
  const problemOf = (pattern: string): string | undefined => {
    if (!problems.has(pattern)) problems.set(pattern, patternProblem(pattern));
    return problems.get(pattern);
  };
  // Where a node is, written out only for a refused pattern: most of a document has none.
  const pointerOf = (place: Place | undefined): string => {
    const tokens: string[] = [];
    for (let at = place; at !== undefined; at = at.parent) tokens.push(escapePointerToken(at.key));
    return tokens
      .reverse()
      .map((token) => `/${token}`)
      .join('');
  };
  const pending: Array<{ node: unknown; place: Place | undefined; names: boolean }> = [{ node: document, place: undefined, names: false }];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const { node, place, names } = pending.pop()!;
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (!Array.isArray(node) && !names) {
        if (DATA_KEYWORDS.has(key)) continue;
        if (key === 'pattern' && typeof value === 'string') {
          const reason = problemOf(value);
          if (reason !== undefined) refused.push({ pointer: `#${pointerOf({ parent: place, key })}`, pattern: value, reason });
          continue;
        }
        if (key === 'patternProperties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
          for (const name of Object.keys(value)) {
            const reason = problemOf(name);
            if (reason !== undefined) refused.push({ pointer: `#${pointerOf({ parent: { parent: place, key }, key: name })}`, pattern: name, reason });
          }
        }
      }
      pending.push({ node: value, place: { parent: place, key }, names: !names && !Array.isArray(node) && NAME_MAPS.has(key) });
    }
  }
  return refused;
}

/** A key and the place of the node holding it. */
interface Place {
  parent: Place | undefined;
  key: string;
}
