/**
 * A schema that comes back to itself without descending into the value — through `$ref`, `allOf`,
 * `anyOf`, `oneOf`, `not`, `if`/`then`/`else` or `dependentSchemas` only — can never be judged: a
 * validator goes round it without end (Ajv's compiled functions call each other until the stack
 * overflows, and every request it meets fails). `Pet: {oneOf: [Dog]}` with `Dog: {allOf: [Pet]}`
 * is one. Found at load, so that such a document is refused naming the round (openapi/operations/compile.ts).
 * A round through `properties`, `items` and the like is an ordinary recursive schema (a tree): each
 * turn judges a smaller part of the value, and it ends.
 */
import { subschemas } from './keywords.js';
import { escapePointerToken, isObject, pointerTarget } from './resolve.js';

export interface EndlessRound {
  /** Where the round starts and ends, a pointer into the root. */
  pointer: string;
  /** The schemas reached through `$ref` on the way round, as pointers into the root, the start last. */
  through: string[];
}

/** Deeper than the loader lets a document nest: past it, no round is looked for. */
const MAX_DEPTH = 1024;

/** The first endless round reachable from the schemas at `pointers` (into `root`), if there is one. */
export function endlessRound(root: unknown, pointers: Iterable<string>): EndlessRound | undefined {
  const done = new Set<object>();
  const open = new Map<object, number>();
  /** The path walked: each step's node and, when it was reached through a `$ref`, its pointer. */
  const path: { node: object; pointer: string | undefined }[] = [];
  const visit = (node: unknown, pointer: string | undefined): EndlessRound | undefined => {
    if (!isObject(node) || done.has(node) || path.length > MAX_DEPTH) return undefined;
    const at = open.get(node);
    if (at !== undefined) {
      const steps = path.slice(at);
      const start = steps[0]?.pointer ?? pointer ?? '';
      const through = steps.slice(1).flatMap((step) => (step.pointer === undefined ? [] : [step.pointer]));
      return { pointer: start, through: [...through, start] };
    }
    open.set(node, path.length);
    path.push({ node, pointer });
    let found: EndlessRound | undefined;
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) found = visit(pointerTarget(root, ref), ref.slice(1));
    for (const { schema } of subschemas(node, { sameValueOnly: true })) found ??= visit(schema, undefined);
    path.pop();
    open.delete(node);
    done.add(node);
    return found;
  };
  for (const pointer of pointers) {
    const found = visit(pointerTarget(root, pointer), pointer);
    if (found) return found;
  }
  return undefined;
}

/** The pointers of every schema under `$defs` in `root`. */
export function defPointers(defs: Record<string, unknown>): string[] {
  return Object.keys(defs).map((name) => `/$defs/${escapePointerToken(name)}`);
}
