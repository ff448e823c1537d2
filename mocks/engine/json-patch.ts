/**
 * RFC 6902 JSON Patch applied to a stored record, for a PATCH sent as
 * `application/json-patch+json`. Numbers stay exact: every number of the record and of the
 * operations is carried as its JSON text while the operations move things around.
 */
import { exactJsonOf } from '../../openapi/schema/exact-json.js';
import { isObject, jsonPointerTokens } from '../../openapi/schema/resolve.js';

/** A number held as the JSON text it was sent or stored as (int64 digits, `1.0` …). */
class NumberText {
  constructor(readonly text: string) {}
}

type Tree = null | boolean | string | NumberText | Tree[] | { [name: string]: Tree };

/**
 * The most values one patch may add to a record, and the most values it may copy or compare:
 * `copy` doubles what it copies into itself, and 30 such operations in a small body would
 * otherwise build a billion values (and `test` compare them, again and again). A record the store
 * took (bounded by the body limit) is patched whatever it holds.
 */
const MAX_PATCHED_VALUES = 100_000;
const MAX_PATCH_WORK = 1_000_000;
/** The most array items one patch may shift (an insert at the front of 100 000 items shifts them all). */
const MAX_PATCH_SHIFTS = 10_000_000;
const tooManyShifts = `shifts more than ${MAX_PATCH_SHIFTS} array items over the patch`;

/** What a patch has built, compared and shifted so far. */
interface Work {
  size: number;
  spent: number;
  shifted: number;
}

/** The patched value's JSON text, or the problem that stops the patch (no operation applied then). */
export function appliedJsonPatch(record: Record<string, unknown>, operations: unknown): { json: string } | { problem: string } {
  if (!Array.isArray(operations)) return { problem: 'a JSON Patch is an array of operations' };
  let document: Tree = treeOf(record);
  const work: Work = { size: 0, spent: 0, shifted: 0 };
  for (const [index, operation] of operations.entries()) {
    const outcome = isObject(operation) ? applied(document, operation, work) : 'is not an object';
    if (typeof outcome === 'string') return { problem: `operation ${index} (${describe(operation)}) ${outcome}` };
    document = outcome.document;
  }
  return { json: textOf(document) };
}

function applied(document: Tree, operation: Record<string, unknown>, work: Work): { document: Tree } | string {
  const { op, path, from } = operation;
  if (typeof path !== 'string') return 'has no path';
  const needsValue = op === 'add' || op === 'replace' || op === 'test';
  if (needsValue && !('value' in operation)) return 'has no value';
  const value = needsValue ? treeOf(operation, 'value') : null;
  // Values sent in the body are bounded by its size; what copy and test touch is counted here.
  if (needsValue && op !== 'test') work.size += sizeOf(value);
  switch (op) {
    case 'add':
      return put(document, path, value, 'add', work);
    case 'replace':
      return put(document, path, value, 'replace', work);
    case 'remove':
      return removed(document, path, work);
    case 'test': {
      const found = at(document, path);
      if (found === undefined) return `tests ${path}, which the record does not hold`;
      work.spent += sizeOf(found) + sizeOf(value);
      if (work.spent > MAX_PATCH_WORK) return `compares more than ${MAX_PATCH_WORK} values over the patch`;
      const text = textOf(found);
      return text === textOf(value) ? { document } : `failed: ${path || 'the record'} is ${text.length > 80 ? `${text.slice(0, 80)}…` : text}`;
    }
    case 'move':
    case 'copy': {
      if (typeof from !== 'string') return 'has no from';
      const found = at(document, from);
      if (found === undefined) return `takes ${from}, which the record does not hold`;
      if (op === 'move' && (path === from || path.startsWith(`${from}/`))) return path === from ? { document } : 'moves a value into itself';
      if (op === 'copy') work.size += sizeOf(found);
      if (work.size > MAX_PATCHED_VALUES) return `would add more than ${MAX_PATCHED_VALUES} values to the record`;
      const source = op === 'move' ? removed(document, from, work) : { document };
      return typeof source === 'string' ? source : put(source.document, path, copied(found), 'add', work);
    }
    default:
      return `has op ${JSON.stringify(op)}, not add, remove, replace, move, copy or test`;
  }
}

function put(document: Tree, path: string, value: Tree, mode: 'add' | 'replace', work: Work): { document: Tree } | string {
  if (path === '') return { document: value };
  const located = parentOf(document, path);
  if (typeof located === 'string') return located;
  const { parent, name } = located;
  if (Array.isArray(parent)) {
    const index = name === '-' && mode === 'add' ? parent.length : arrayIndex(name, mode === 'add' ? parent.length : parent.length - 1);
    if (index === undefined) return `names ${path}, which is past the array's end`;
    if (mode === 'add' && (work.shifted += parent.length - index) > MAX_PATCH_SHIFTS) return tooManyShifts;
    parent.splice(index, mode === 'add' ? 0 : 1, value);
  } else {
    if (mode === 'replace' && !Object.hasOwn(parent, name)) return `replaces ${path}, which the record does not hold`;
    parent[name] = value;
  }
  return { document };
}

function removed(document: Tree, path: string, work: Work): { document: Tree } | string {
  if (path === '') return 'removes the whole record';
  const located = parentOf(document, path);
  if (typeof located === 'string') return located;
  const { parent, name } = located;
  if (Array.isArray(parent)) {
    const index = arrayIndex(name, parent.length - 1);
    if (index === undefined) return `removes ${path}, which is past the array's end`;
    if ((work.shifted += parent.length - index) > MAX_PATCH_SHIFTS) return tooManyShifts;
    parent.splice(index, 1);
  } else {
    if (!Object.hasOwn(parent, name)) return `removes ${path}, which the record does not hold`;
    delete parent[name];
  }
  return { document };
}

function parentOf(document: Tree, path: string): { parent: Tree[] | { [name: string]: Tree }; name: string } | string {
  if (!path.startsWith('/')) return `has path ${JSON.stringify(path)}, not a JSON pointer`;
  const tokens = jsonPointerTokens(path);
  const name = tokens.pop() as string;
  const parent = at(document, tokens);
  if (parent === null || typeof parent !== 'object' || parent instanceof NumberText) return `names ${path}, whose parent the record does not hold`;
  return { parent, name };
}

/** The value at a pointer (or its tokens), undefined when there is none. */
function at(document: Tree, pointer: string | string[]): Tree | undefined {
  if (typeof pointer === 'string' && pointer !== '' && !pointer.startsWith('/')) return undefined;
  const tokens = typeof pointer === 'string' ? jsonPointerTokens(pointer) : pointer;
  let current: Tree | undefined = document;
  for (const token of tokens) {
    if (current === null || typeof current !== 'object' || current instanceof NumberText) return undefined;
    if (Array.isArray(current)) {
      const index = arrayIndex(token, current.length - 1);
      current = index === undefined ? undefined : current[index];
    } else current = Object.hasOwn(current, token) ? current[token] : undefined;
  }
  return current;
}

/** An array index token up to `last` (RFC 6901: digits without a leading zero). */
function arrayIndex(token: string, last: number): number | undefined {
  if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
  const index = Number(token);
  return index <= last ? index : undefined;
}

/** `container[key]` (the whole container without a key) as a tree whose numbers keep their text. */
function treeOf(container: object, key?: string): Tree {
  const value: unknown = key === undefined ? container : (container as Record<string, unknown>)[key];
  if (typeof value === 'number' || typeof value === 'bigint') return new NumberText(key === undefined ? String(value) : exactJsonOf(container, key));
  if (value === null || typeof value !== 'object') return typeof value === 'string' || typeof value === 'boolean' ? value : null;
  if (Array.isArray(value)) return value.map((_, index) => treeOf(value, String(index)));
  const out: { [name: string]: Tree } = {};
  for (const name of Object.keys(value)) out[name] = treeOf(value, name);
  return out;
}

/** How many values a tree holds, counting stops past the limit. */
function sizeOf(tree: Tree, limit = MAX_PATCHED_VALUES + 1): number {
  let count = 0;
  const pending: Tree[] = [tree];
  while (pending.length > 0 && count < limit) {
    const next = pending.pop() as Tree;
    count++;
    // One push per value: a spread passes every item as an argument, past V8's limit (RangeError) for an array of 300,000 tags.
    if (Array.isArray(next)) for (const item of next) pending.push(item);
    else if (next !== null && typeof next === 'object' && !(next instanceof NumberText)) for (const item of Object.values(next)) pending.push(item);
  }
  return count;
}

function copied(tree: Tree): Tree {
  if (Array.isArray(tree)) return tree.map(copied);
  if (tree === null || typeof tree !== 'object' || tree instanceof NumberText) return tree;
  return Object.fromEntries(Object.entries(tree).map(([name, value]) => [name, copied(value)]));
}

function textOf(tree: Tree): string {
  if (tree instanceof NumberText) return tree.text;
  if (Array.isArray(tree)) return `[${tree.map(textOf).join(',')}]`;
  if (tree !== null && typeof tree === 'object')
    return `{${Object.entries(tree)
      .map(([name, value]) => `${JSON.stringify(name)}:${textOf(value)}`)
      .join(',')}}`;
  return JSON.stringify(tree);
}

function describe(operation: unknown): string {
  if (!isObject(operation)) return JSON.stringify(operation);
  return `${String(operation.op)} ${String(operation.path)}`;
}
