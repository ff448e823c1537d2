/**
 * JSON parsing that keeps integers exact over the whole int64 range.
 *
 * `JSON.parse` rounds integers beyond 2^53, so a validator that runs on its output judges
 * rounded doubles: 9223372036854775807 and 9223372036854775808 become the same number.
 * `parseExactJson` returns a *validation view* (plain JSON values that ajv can check) in which
 * every number literal is represented so that integer-ness and the int32/int64 ranges are
 * decided on the literal's real digits, plus `exactInteger` to read an integer back exactly.
 */
import { subschemas } from './keywords.js';
import { escapePointerToken, pointerTarget } from './resolve.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Largest double below 2^63: what an in-range literal that rounds up to 2^63 is shown as. */
const BELOW_2_63 = 9223372036854774784;
/** Next double below -2^63: what an out-of-range literal that rounds to -2^63 is shown as. */
const BELOW_MINUS_2_63 = -9223372036854777856;

/** Exact integers that the view could only show rounded, by container and key. */
const exactIntegers = new WeakMap<object, Map<string, bigint>>();
/** Literals the view shows by a stand-in (see numberView), by container and key: for messages. */
const standIns = new WeakMap<object, Map<string, string>>();

function remember<T>(table: WeakMap<object, Map<string, T>>, container: object, key: string, value: T): void {
  let byKey = table.get(container);
  if (!byKey) table.set(container, (byKey = new Map()));
  byKey.set(key, value);
}

/** Deepest nesting of arrays and objects a body may have: a limit of the mock, stated to clients. */
export const MAX_JSON_DEPTH = 1000;

/** The text nests arrays and objects deeper than MAX_JSON_DEPTH (valid JSON, but more than we read). */
export class JsonTooDeep extends Error {
  readonly limit = MAX_JSON_DEPTH;
  constructor() {
    super(`arrays and objects are nested more than ${MAX_JSON_DEPTH} levels deep`);
    this.name = 'JsonTooDeep';
  }
}

/**
 * Which numbers of a document must be read from their literal, derived from its JSON Schema: the
 * integer-typed ones (an int64 past 2^53, or a fraction that rounds to a whole double, is only
 * judged right on its digits). Every other value is read by `JSON.parse`, so what exact reading
 * costs follows what the schema needs, not what a client chose to send.
 */
export interface ExactPlan {
  /** A number here is read from its literal. */
  readonly exact: boolean;
  /** Plans of the object properties named here. */
  readonly properties?: ReadonlyMap<string, ExactPlan>;
  /** Plan of array items, and of object properties not named in `properties`. */
  readonly rest?: ExactPlan;
}

/** Every number read from its literal: for documents without a schema (seed files, stored records). */
export const READ_EVERY_NUMBER: ExactPlan = (() => {
  const every: { exact: boolean; rest?: ExactPlan } = { exact: true };
  every.rest = every;
  return Object.freeze(every);
})();

/**
 * The plan of a JSON Schema (undefined: nothing in it needs exact reading). Local `$ref`s
 * (`#/...`) are followed within `root`, the document the schema belongs to (itself by default).
 */
export function exactPlanOf(schema: unknown, root: unknown = schema): ExactPlan | undefined {
  return planOf(schema, { root, seen: new Map() }, 0);
}

/** The plan of an array whose items follow `item`. */
export function exactPlanOfArray(item: ExactPlan | undefined): ExactPlan | undefined {
  return item && { exact: false, rest: item };
}

/**
 * `plan` with every number under the top-level `properties` read exactly too: what a store that
 * keeps those properties as received needs of a body.
 */
export function exactPlanDeclaring(plan: ExactPlan | undefined, properties: Iterable<string>): ExactPlan | undefined {
  const declared = new Map<string, ExactPlan>();
  for (const property of properties) declared.set(property, READ_EVERY_NUMBER);
  return declared.size ? mergePlans(plan, { exact: false, properties: declared }) : plan;
}

/** A named property that needs nothing, where a `rest` plan would otherwise apply to it. */
const READ_NOTHING: ExactPlan = Object.freeze({ exact: false });
const SCHEMA_NESTING_LIMIT = 32;

interface Planning {
  readonly root: unknown;
  /** Plans already made, by schema object; `null` while one is being made (a cycle). */
  readonly seen: Map<object, ExactPlan | undefined | null>;
}

function planOf(schema: unknown, planning: Planning, depth: number): ExactPlan | undefined {
  if (schema === null || typeof schema !== 'object') return undefined; // true, false: no type to honour
  const seen = planning.seen.get(schema);
  if (seen !== undefined || planning.seen.has(schema)) return seen === null ? READ_EVERY_NUMBER : seen;
  planning.seen.set(schema, null);
  const plan = schemaPlan(schema as Record<string, unknown>, planning, depth);
  planning.seen.set(schema, plan);
  return plan;
}

function schemaPlan(s: Record<string, unknown>, planning: Planning, depth: number): ExactPlan | undefined {
  // A recursive schema (the cycle), one nested past reason, or a reference we cannot follow: read every number.
  if (depth > SCHEMA_NESTING_LIMIT || '$dynamicRef' in s) return READ_EVERY_NUMBER;
  const at = (child: unknown): ExactPlan | undefined => planOf(child, planning, depth + 1);
  let plan: ExactPlan | undefined;
  if ('$ref' in s) {
    const target = typeof s.$ref === 'string' ? pointerTarget(planning.root, s.$ref) : undefined;
    plan = target === undefined ? READ_EVERY_NUMBER : at(target);
  }
  const type = s.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer')) || s.format === 'int32' || s.format === 'int64') {
    plan = mergePlans(plan, { exact: true });
  }
  // The schemas it holds, by the part of the value they judge (keywords.ts): a property, the
  // members or items, or the value itself (under a condition too). `not` and `if` only test it,
  // names and contents are no numbers of the value, definitions judge nothing where they stand.
  const properties: [string, unknown][] = [];
  const rest: unknown[] = [];
  const patterns: unknown[] = [];
  const same: unknown[] = [];
  for (const { judges, key, schema } of subschemas(s)) {
    if (judges === 'property') properties.push([key as string, schema]);
    else if (judges === 'patternProperty') patterns.push(schema);
    else if (judges === 'item' || judges === 'prefixItem' || judges === 'otherProperties') rest.push(schema);
    else if (judges === 'value' || judges === 'valueWhen') same.push(schema);
  }
  const named = new Map<string, ExactPlan>();
  for (const [key, child] of properties) named.set(key, at(child) ?? READ_NOTHING);
  let restPlan = rest.reduce<ExactPlan | undefined>((merged, child) => mergePlans(merged, at(child)), undefined);
  if (patterns.length > 0) {
    // A named property may match a pattern too: its plan takes both.
    const patternPlan = patterns.reduce<ExactPlan | undefined>((merged, child) => mergePlans(merged, at(child)), undefined);
    restPlan = mergePlans(restPlan, patternPlan);
    for (const [key, childPlan] of named) named.set(key, mergePlans(childPlan, patternPlan) as ExactPlan);
  }
  // Without a rest plan, a property that needs nothing need not be named.
  if (!restPlan) for (const [key, childPlan] of named) if (childPlan === READ_NOTHING) named.delete(key);
  if (named.size || restPlan) plan = mergePlans(plan, { exact: false, properties: named.size ? named : undefined, rest: restPlan });
  for (const branch of same) plan = mergePlans(plan, at(branch));
  return plan;
}

/** Exact wherever either plan is; a property's plan is what each side applies to it (named or rest). */
function mergePlans(a: ExactPlan | undefined, b: ExactPlan | undefined): ExactPlan | undefined {
  if (!a || a === b || a === READ_NOTHING) return b ?? a;
  if (!b || b === READ_NOTHING) return a;
  if (a === READ_EVERY_NUMBER || b === READ_EVERY_NUMBER) return READ_EVERY_NUMBER;
  let properties: Map<string, ExactPlan> | undefined;
  for (const key of new Set([...(a.properties?.keys() ?? []), ...(b.properties?.keys() ?? [])])) {
    const merged = mergePlans(a.properties?.get(key) ?? a.rest, b.properties?.get(key) ?? b.rest);
    if (merged) (properties ??= new Map()).set(key, merged);
  }
  return { exact: a.exact || b.exact, properties, rest: mergePlans(a.rest, b.rest) };
}

/**
 * An object of the text names a member twice (RFC 8259 §4: names SHOULD be unique, and readers
 * differ on which one they keep). `pointer` is the repeated member's JSON pointer (RFC 6901).
 */
export class DuplicateMemberName extends Error {
  constructor(
    readonly member: string,
    readonly pointer: string,
  ) {
    super(`the member ${JSON.stringify(member)} appears twice in one object, at ${pointer}`);
    this.name = 'DuplicateMemberName';
  }
}

/** Options of parseExactJson. */
export interface ExactJsonOptions {
  /** Throw DuplicateMemberName for an object that names a member twice (else the last one wins, as with JSON.parse). */
  readonly refuseDuplicateNames?: boolean;
}

/** Below this many members an object's names are checked by a scan of the ones seen; a Set beyond. */
const NAMES_SCANNED = 16;

/**
 * Whether JSON.parse might read a number of `text` inexactly: outside strings, a run of 16
 * digits, or a digit followed by an exponent or a fraction. The same pass checks the nesting
 * (throws JsonTooDeep past MAX_JSON_DEPTH). One pass over char codes: on the request path this
 * is cheaper than a regex.
 */
export function needsExactParse(text: string): boolean {
  return needsExact(scanJson(text, false) as Scan);
}

/**
 * What one pass over a JSON text found, as one number (a result object would be the pass's only
 * allocation): whether a number needs exact reading (the low bit) and how many members its
 * objects have in all, one `:` outside strings each (the rest).
 */
type Scan = number;
const needsExact = (scan: Scan): boolean => scan % 2 === 1;
const membersIn = (scan: Scan): number => Math.floor(scan / 2);

/**
 * The pass of needsExactParse; with `unique`, it also finds the first repeated member name and
 * returns it instead (the text is then still checked by a parse, so that malformed text is
 * reported as such first). The names seen are kept per nesting level in arrays reused by the
 * siblings that follow, so a body of small objects allocates no Set.
 */
function scanJson(text: string, unique: boolean): Scan | DuplicateMemberName {
  let digits = 0;
  let depth = 0;
  let exact = false;
  let members = 0;
  const length = text.length;
  // Only with `unique` (the request path's other scan of every body goes without, and allocates
  // nothing): per open container, whether it is an object, the names it has, the path to it.
  const open = unique ? new OpenContainers() : undefined;
  let expectName = false;
  let duplicate: DuplicateMemberName | undefined;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++digits === 16) exact = true;
      continue;
    }
    if (digits > 0 && (c === 46 || c === 69 || c === 101)) exact = true; // . E e
    digits = 0;
    if (c === 34) {
      const end = endOfString(text, i);
      if (open && expectName && duplicate === undefined) {
        expectName = false;
        duplicate = noteName(text, i, end, open.names, depth, open.path);
      }
      i = end - 1;
    } else if (c === 91 || c === 123) {
      if (++depth > MAX_JSON_DEPTH) throw new JsonTooDeep();
      if (open) {
        open.isObject[depth] = c === 123;
        expectName = c === 123;
        open.path[depth] = 0;
        const seen = open.names[depth];
        if (c === 123) {
          if (seen === undefined || seen instanceof Set) open.names[depth] = [];
          else seen.length = 0;
        }
      }
    } else if (c === 93 || c === 125) {
      depth--;
      expectName = false;
    } else if (c === 58) {
      members++;
    } else if (open && c === 44) {
      if (open.isObject[depth]) expectName = true;
      else open.path[depth] = (open.path[depth] as number) + 1;
    }
  }
  return duplicate ?? members * 2 + (exact ? 1 : 0);
}

/**
 * How many members the objects of a parsed value have in all. A parse keeps one member of each
 * name, so a value with fewer than its text's members (`membersIn`) was given a name twice.
 * Iterative; a flat object allocates nothing.
 */
function membersOf(value: unknown): number {
  let count = 0;
  let pending: object[] | undefined;
  for (let node: unknown = value; ; node = pending.pop()) {
    if (Array.isArray(node)) {
      for (const item of node) if (item !== null && typeof item === 'object') (pending ??= []).push(item);
    } else if (node !== null && typeof node === 'object') {
      for (const key in node) {
        count++;
        const inner = (node as Record<string, unknown>)[key];
        if (inner !== null && typeof inner === 'object') (pending ??= []).push(inner);
      }
    }
    if (pending === undefined || pending.length === 0) return count;
  }
}

/** What a scan for repeated names keeps per open container, by depth. */
class OpenContainers {
  readonly isObject: boolean[] = [];
  readonly names: (string[] | Set<string>)[] = [];
  readonly path: (string | number)[] = [];
}

/** Records the name at text[i, end) in the object at `depth`; the error when it was there already. */
function noteName(text: string, i: number, end: number, names: (string[] | Set<string>)[], depth: number, path: (string | number)[]): DuplicateMemberName | undefined {
  let name: string;
  try {
    name = stringAt(text, i, end);
  } catch {
    return undefined; // a malformed name: the parse that follows reports it
  }
  path[depth] = name;
  const seen = names[depth] as string[] | Set<string>;
  if (Array.isArray(seen)) {
    for (let k = 0; k < seen.length; k++) if (seen[k] === name) return duplicateAt(name, path, depth);
    if (seen.length < NAMES_SCANNED) seen.push(name);
    else names[depth] = new Set([...seen, name]);
  } else {
    if (seen.has(name)) return duplicateAt(name, path, depth);
    seen.add(name);
  }
  return undefined;
}

function duplicateAt(name: string, path: (string | number)[], depth: number): DuplicateMemberName {
  let pointer = '';
  for (let d = 1; d <= depth; d++) pointer += '/' + escapePointerToken(String(path[d]));
  return new DuplicateMemberName(name, pointer);
}

/**
 * Parses JSON text with the numbers `plan` names read exactly (see the view described above);
 * every number by default. Throws SyntaxError (JSON.parse's, with a position) on malformed input,
 * JsonTooDeep past MAX_JSON_DEPTH, and — with `refuseDuplicateNames` — DuplicateMemberName.
 * Never recursive: nesting costs no stack.
 */
export function parseExactJson(text: string, plan: ExactPlan | undefined = READ_EVERY_NUMBER, options?: ExactJsonOptions): unknown {
  const scanned = scanJson(text, false) as Scan;
  let value: unknown = JSON.parse(text);
  if (needsExact(scanned) && plan !== undefined) {
    // JSON.parse read the text (and refused it if malformed); only the numbers the plan reads
    // exactly are put right, where they stand: 20 times cheaper than building every planned
    // container member by member. A planned object that names a member twice is read again
    // member by member (JSON.parse's object holds the last one's value where the first stood).
    const exactened = exactenPlanned(text, value, plan);
    value = exactened === REPEATED_NAME ? readPlanned(text, plan) : exactened;
  }
  // Counting finds that a name repeats; only then is the text scanned again for which, and where.
  if (options?.refuseDuplicateNames === true && membersOf(value) !== membersIn(scanned)) {
    const duplicate = scanJson(text, true);
    if (duplicate instanceof DuplicateMemberName) throw duplicate;
  }
  return value;
}

/**
 * The exact integer at `container[key]` of a value returned by `parseExactJson`,
 * or undefined when that value is not an integer.
 */
export function exactInteger(container: object, key: string): bigint | undefined {
  const exact = exactIntegers.get(container)?.get(key);
  if (exact !== undefined) return exact;
  const value = (container as Record<string, unknown>)[key];
  return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : undefined;
}

/**
 * The literal that `container[key]` stands in for, when the view could not show it as itself
 * (a fraction such as 1.0000000000000001 whose double is whole); undefined otherwise.
 */
export function literalBehindStandIn(container: object, key: string): string | undefined {
  return standIns.get(container)?.get(key);
}

/** Whether an exact integer fits the int64 range. */
export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/** What exactenPlanned answers for a planned object that names a member twice. */
const REPEATED_NAME = Symbol('a planned object names a member twice');

/** An object or array of JSON.parse's value that a plan reaches into, being walked in its text. */
interface Walked {
  readonly container: Record<string, unknown> | unknown[];
  readonly plan: ExactPlan;
  readonly isArray: boolean;
  /** Members or items walked so far. */
  count: number;
}

/**
 * `value`, JSON.parse's reading of `text` (well-formed, then), with every number literal `plan`
 * reads exactly replaced by its view (exactNumberView), walking the text along the plan: what the
 * plan does not reach is skipped unread. REPEATED_NAME when a planned object names a member twice.
 */
function exactenPlanned(text: string, value: unknown, rootPlan: ExactPlan): unknown {
  let i = skipWhitespace(text, 0);
  if (value === null || typeof value !== 'object') {
    const c = text.charCodeAt(i);
    return rootPlan.exact && (c === 45 || isDigit(c)) ? exactNumberView(text.slice(i, endOfNumber(text, i)), undefined, '') : value;
  }
  if (!(Array.isArray(value) ? rootPlan.rest : rootPlan.properties || rootPlan.rest)) return value;
  const stack: Walked[] = [{ container: value as Record<string, unknown> | unknown[], plan: rootPlan, isArray: Array.isArray(value), count: 0 }];
  i++;
  for (;;) {
    const frame = stack[stack.length - 1] as Walked;
    i = skipWhitespace(text, i);
    let c = text.charCodeAt(i);
    if (c === 93 || c === 125) {
      // Fewer members than the object holds: one name was given twice.
      if (!frame.isArray && frame.count !== Object.keys(frame.container).length) return REPEATED_NAME;
      stack.pop();
      if (stack.length === 0) return value;
      i++;
      continue;
    }
    if (c === 44) i = skipWhitespace(text, i + 1);
    let key: string;
    if (frame.isArray) key = String(frame.count);
    else {
      const end = endOfString(text, i);
      key = stringAt(text, i, end);
      i = skipWhitespace(text, skipWhitespace(text, end) + 1);
    }
    frame.count++;
    const plan = frame.isArray ? frame.plan.rest : (frame.plan.properties?.get(key) ?? frame.plan.rest);
    c = text.charCodeAt(i);
    if (plan !== undefined && ((c === 123 && (plan.properties || plan.rest)) || (c === 91 && plan.rest))) {
      // Own members only: `__proto__` of an object that has none is Object.prototype, never to be written.
      const inner = (Object.hasOwn(frame.container, key) ? (frame.container as Record<string, unknown>)[key] : undefined) as Record<string, unknown> | unknown[];
      // Not the container the text has here: a later member of the same name replaced it.
      if (inner === null || typeof inner !== 'object' || Array.isArray(inner) !== (c === 91)) return REPEATED_NAME;
      stack.push({ container: inner, plan, isArray: c === 91, count: 0 });
      i++;
    } else if (c === 45 || isDigit(c)) {
      const end = endOfNumber(text, i);
      if (plan?.exact) setOwn(frame.container as Record<string, unknown>, key, exactNumberView(text.slice(i, end), frame.container, key));
      i = end;
    } else if (c === 34) i = endOfString(text, i);
    else if (c === 123 || c === 91) i = endOfContainer(text, i);
    else i = endOfLiteral(text, i);
  }
}

/** A container being read on a planned path: an object or array that a plan reaches into. */
interface Frame {
  readonly container: Record<string, unknown> | unknown[];
  readonly plan: ExactPlan;
  readonly isArray: boolean;
  /** The object key whose value is being read. */
  key: string;
  /** Whether a literal of this object is remembered (exact integer or stand-in): a duplicate key must forget it. */
  remembered: boolean;
}

/**
 * Reads `text` (which needs exact reading somewhere) along `plan`: containers the plan reaches
 * into are built here, every other value (a whole unknown subtree at once) by JSON.parse of its
 * slice. Iterative: the stack of open containers is an array, not the call stack.
 */
function readPlanned(text: string, rootPlan: ExactPlan): unknown {
  const stack: Frame[] = [];
  let plan: ExactPlan | undefined = rootPlan;
  let i = skipWhitespace(text, 0);
  for (;;) {
    // One value at i, read as `plan` says.
    let value: unknown;
    const c = text.charCodeAt(i);
    if (plan !== undefined && ((c === 123 && (plan.properties || plan.rest)) || (c === 91 && plan.rest))) {
      const frame: Frame = { container: c === 91 ? [] : {}, plan, isArray: c === 91, key: '', remembered: false };
      i = skipWhitespace(text, i + 1);
      if (text.charCodeAt(i) !== (c === 91 ? 93 : 125)) {
        stack.push(frame);
        if (!frame.isArray) i = readKey(text, i, frame);
        plan = planOfNext(frame);
        continue;
      }
      i++;
      value = frame.container;
    } else if (c === 34) {
      const end = endOfString(text, i);
      value = stringAt(text, i, end);
      i = end;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      const end = endOfNumber(text, i);
      const frame = stack[stack.length - 1];
      const literal = text.slice(i, end);
      if (plan?.exact && frame) {
        const key = frame.isArray ? String(frame.container.length) : frame.key;
        value = exactNumberView(literal, frame.container, key);
        if (exactIntegers.get(frame.container)?.has(key) || standIns.get(frame.container)?.has(key)) frame.remembered = true;
      } else value = plan?.exact ? exactNumberView(literal, undefined, '') : Number(literal);
      i = end;
    } else if (c === 123 || c === 91) {
      const end = endOfContainer(text, i);
      value = JSON.parse(text.slice(i, end));
      i = end;
    } else {
      const end = endOfLiteral(text, i);
      value = JSON.parse(text.slice(i, end));
      i = end;
    }
    // Put it in its container; close the containers it completes; find the next value.
    for (;;) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) {
        if (skipWhitespace(text, i) !== text.length) throw new SyntaxError('Unexpected text after the JSON value');
        return value;
      }
      if (frame.isArray) (frame.container as unknown[]).push(value);
      else setOwn(frame.container as Record<string, unknown>, frame.key, value);
      i = skipWhitespace(text, i);
      const next = text.charCodeAt(i);
      if (next === 44) {
        i = skipWhitespace(text, i + 1);
        if (!frame.isArray) i = readKey(text, i, frame);
        plan = planOfNext(frame);
        break;
      }
      if (next !== (frame.isArray ? 93 : 125)) throw new SyntaxError('Expected , or the end of the container');
      i++;
      stack.pop();
      value = frame.container;
    }
  }
}

/** The plan of the value read next in `frame`: its item's, or its current key's. */
function planOfNext(frame: Frame): ExactPlan | undefined {
  return frame.isArray ? frame.plan.rest : (frame.plan.properties?.get(frame.key) ?? frame.plan.rest);
}

/** Reads `"key":` at i into `frame`; returns where its value starts. */
function readKey(text: string, i: number, frame: Frame): number {
  if (text.charCodeAt(i) !== 34) throw new SyntaxError('Expected a property name');
  const end = endOfString(text, i);
  const key = stringAt(text, i, end);
  i = skipWhitespace(text, end);
  if (text.charCodeAt(i) !== 58) throw new SyntaxError("Expected ':' after a property name");
  frame.key = key;
  // The last of duplicate keys wins, as with JSON.parse: forget what an earlier one left behind.
  if (frame.remembered) forget(frame.container, key);
  return skipWhitespace(text, i + 1);
}

/** Sets an own property, `__proto__` included (as JSON.parse does; assigning it would set the prototype). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function skipWhitespace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
    i++;
  }
}

/** The index after the closing quote of the string starting at i. */
function endOfString(text: string, i: number): number {
  const length = text.length;
  for (let j = i + 1; j < length; j++) {
    const c = text.charCodeAt(j);
    if (c === 34) return j + 1;
    if (c === 92) j++;
  }
  throw new SyntaxError('Unterminated string');
}

/** The string value of the literal text[i, end), through JSON.parse only when it has escapes. */
function stringAt(text: string, i: number, end: number): string {
  for (let j = i + 1; j < end - 1; j++) {
    const c = text.charCodeAt(j);
    if (c === 92 || c < 32) return JSON.parse(text.slice(i, end)) as string; // escapes; control characters throw
  }
  return text.slice(i + 1, end - 1);
}

/** The index after a JSON number literal at i; throws on one JSON would not accept. */
function endOfNumber(text: string, i: number): number {
  let j = i;
  if (text.charCodeAt(j) === 45) j++;
  const first = j;
  while (isDigit(text.charCodeAt(j))) j++;
  if (j === first || (text.charCodeAt(first) === 48 && j - first > 1)) throw new SyntaxError('Invalid number');
  if (text.charCodeAt(j) === 46) {
    const fraction = ++j;
    while (isDigit(text.charCodeAt(j))) j++;
    if (j === fraction) throw new SyntaxError('Invalid number');
  }
  const e = text.charCodeAt(j);
  if (e === 101 || e === 69) {
    j++;
    const sign = text.charCodeAt(j);
    if (sign === 43 || sign === 45) j++;
    const exponent = j;
    while (isDigit(text.charCodeAt(j))) j++;
    if (j === exponent) throw new SyntaxError('Invalid number');
  }
  return j;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The index after the array or object at i (its contents are checked by JSON.parse later). */
function endOfContainer(text: string, i: number): number {
  let depth = 0;
  const length = text.length;
  for (let j = i; j < length; j++) {
    const c = text.charCodeAt(j);
    if (c === 34) j = endOfString(text, j) - 1;
    else if (c === 91 || c === 123) depth++;
    else if ((c === 93 || c === 125) && --depth === 0) return j + 1;
  }
  throw new SyntaxError('Unterminated array or object');
}

/** The index after true, false or null at i (anything else is left for JSON.parse to refuse). */
function endOfLiteral(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text.charCodeAt(j) >= 97 && text.charCodeAt(j) <= 122) j++;
  return j;
}

/**
 * The view of a number literal the plan reads exactly. Most literals are settled by their double:
 * a double with a fraction is no integer literal, and a safe-integer double of a literal without
 * a fraction or a negative exponent is that integer exactly. The rest go to `numberView`.
 */
function exactNumberView(literal: string, container: object | undefined, key: string): number {
  const double = Number(literal);
  if (Number.isFinite(double)) {
    if (!Number.isInteger(double)) return double;
    // A '-' past the sign can only be a negative exponent's.
    if (Number.isSafeInteger(double) && literal.indexOf('.') === -1 && literal.indexOf('-', 1) === -1) return double;
  }
  return numberView(literal, container, key);
}

function forget(container: object, key: string): void {
  exactIntegers.get(container)?.delete(key);
  standIns.get(container)?.delete(key);
}

function numberView(text: string, container: object | undefined, key: string): number {
  const double = Number(text);
  const integer = integerOfLiteral(text);
  if (integer === undefined) {
    if (!Number.isInteger(double)) return double;
    // A fraction that rounds to a whole double must still fail `type: integer`;
    // 0.5 stands in for it (the view is only validated, never echoed; messages use the literal).
    if (container) remember(standIns, container, key, text);
    return 0.5;
  }
  if (Number.isSafeInteger(double) && BigInt(double) === integer) return double;
  if (container) remember(exactIntegers, container, key, integer);
  // Round so that the int64 decision on the double equals the decision on the literal.
  if (integer <= INT64_MAX && double >= 2 ** 63) return BELOW_2_63;
  if (integer < INT64_MIN && double >= -(2 ** 63)) return BELOW_MINUS_2_63;
  if (!Number.isFinite(double)) return double > 0 ? Number.MAX_VALUE : -Number.MAX_VALUE;
  return double;
}

const NUMBER_LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** The exact integer a JSON number literal denotes (1.0 and 1e3 included), or undefined. */
export function integerOfLiteral(text: string): bigint | undefined {
  const match = NUMBER_LITERAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  let exponent = Number(exponentText) - fraction.length;
  const trailingZeros = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailingZeros);
  exponent += trailingZeros;
  if (exponent < 0) return undefined;
  // Beyond 40 digits no int64 question depends on the exact value; cap the BigInt work.
  if (digits.length + exponent > 40) return (sign ? -1n : 1n) * 10n ** 40n;
  const magnitude = BigInt(digits) * 10n ** BigInt(exponent);
  return sign ? -magnitude : magnitude;
}

/** What makes `from[key]` exact (an integer's digits, a literal's stand-in) made `to[key]`'s too: for a member copied to another container. */
export function copyExactMember(from: object, to: object, key: string): void {
  const exact = exactIntegers.get(from)?.get(key);
  if (exact !== undefined) remember(exactIntegers, to, key, exact);
  const literal = standIns.get(from)?.get(key);
  if (literal !== undefined) remember(standIns, to, key, literal);
}

/** Whether some number directly in `container` is shown by the view other than as sent (see exactJsonOf). */
export function holdsInexactNumbers(container: object): boolean {
  return exactIntegers.has(container) || standIns.has(container);
}

/**
 * The JSON text of `container[key]` for a value from `parseExactJson`, exactly as sent: integers
 * beyond a double keep their digits, a fraction the view shows by a stand-in is written as its
 * literal. Used to store and echo what a client sent without rounding anything.
 */
export function exactJsonOf(container: object, key: string): string {
  const value = (container as Record<string, unknown>)[key];
  // Strings and small integers (nearly every value) have no exact form apart from themselves.
  if (typeof value === 'string') return JSON.stringify(value);
  const exact = exactIntegers.get(container)?.get(key);
  if (exact !== undefined) return exact.toString();
  const literal = standIns.get(container)?.get(key);
  if (literal !== undefined) return literal;
  return exactJsonText(value);
}

/** The JSON text of a whole value from `parseExactJson`, numbers exactly as sent (see exactJsonOf). */
export function exactJsonText(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + exactJsonOf(value, String(i));
    return `[${out}]`;
  }
  let out = '';
  for (const key of Object.keys(value)) {
    if ((value as Record<string, unknown>)[key] === undefined) continue;
    out += `${out ? ',' : ''}${JSON.stringify(key)}:${exactJsonOf(value, key)}`;
  }
  return `{${out}}`;
}
