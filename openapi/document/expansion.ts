/**
 * How large a parsed document is once its YAML aliases are written out (issue 39, degraded): an
 * alias is parsed as a reference to its anchor's value, so 700 bytes of nested aliases parse at once
 * into a value that is a billion nodes when written as JSON (`/__mock/docs/openapi.json` took ~1 GB
 * and 10 s per load), walked or copied. A document without aliases holds at most one node per
 * character of its text; aliases may reuse parts (shared parameters, schemas) up to
 * MAX_EXPANDED_NODES or EXPANSION_PER_CHARACTER nodes per character, whichever is more.
 */

export const MAX_EXPANDED_NODES = 2_000_000;
export const EXPANSION_PER_CHARACTER = 20;

/** Why `value`, parsed from `textLength` characters, is refused (too many nodes written out), or undefined. */
export function expansionProblem(value: unknown, textLength: number): string | undefined {
  const limit = Math.max(MAX_EXPANDED_NODES, EXPANSION_PER_CHARACTER * textLength);
  const pending: unknown[] = [value];
  let seen = 0;
  while (pending.length > 0) {
    const next = pending.pop();
    if (++seen > limit) {
      return `its aliases expand it past ${limit} values (${EXPANSION_PER_CHARACTER} per character of its text, or ${MAX_EXPANDED_NODES}): written out, it would not fit in memory; write the repeated parts once, or refer to them with $ref`;
    }
    if (next !== null && typeof next === 'object') for (const inner of Array.isArray(next) ? next : Object.values(next)) pending.push(inner);
  }
  return undefined;
}
