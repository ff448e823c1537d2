/**
 * Where each key of a collection sits in its creation-ordered columns. Integer keys (the common
 * identity) are held as numbers in typed-array hash tables, not in a Map: a Map of millions keeps
 * an object per integer past 2^31 and costs cache misses and collector work on every create
 * (docs/benchmarks.md, "Fifth pass"). Other keys go in a Map.
 */
import { randomInt } from 'node:crypto';
import type { RecordKey } from './store.js';

/** A key as the index holds it: an integer's digits as the number, anything else as its text. */
export type Slot = RecordKey | number;

/**
 * The number a key is the canonical digits of (no sign but minus, no leading zero, at most 15
 * digits: exact in a double, and `String(number)` gives the key back), or the key itself.
 */
export function slotOf(key: RecordKey): Slot {
  const length = key.length;
  if (length === 0 || length > 16) return key;
  let at = key.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  if (at === length || length - at > 15) return key;
  const first = key.charCodeAt(at);
  if (first === 48 /* 0 */) return length === 1 ? 0 : key;
  for (; at < length; at++) {
    const c = key.charCodeAt(at);
    if (c < 48 || c > 57) return key;
  }
  return Number(key);
}

/**
 * Tables per index, chosen by a key's hash: growing one rehashes a sixteenth of the keys, so no create
 * waits for all of them. Each is made by its first key, small: a store holds an index per parent
 * record and per scope value, most of them a few keys.
 */
const TABLE_BITS = 4;
const FIRST_CAPACITY = 8;
const NO_POSITION = -1;

export class KeyIndex {
  /** Per index, so ids chosen to collide in one process's tables do not collide in another's. */
  // randomInt draws from a cache Node refills a few kilobytes at a time: a store makes thousands of indexes.
  readonly #seed: Int32Array = Int32Array.of(randomInt(-(2 ** 31), 2 ** 31), randomInt(-(2 ** 31), 2 ** 31));
  readonly #tables: (IntegerTable | undefined)[] = new Array<IntegerTable | undefined>(1 << TABLE_BITS).fill(undefined);
  readonly #texts = new Map<string, number>();

  get(slot: Slot): number | undefined {
    if (typeof slot !== 'number') return this.#texts.get(slot);
    const hash = hashOf(slot, this.#seed);
    return this.#tables[hash >>> (32 - TABLE_BITS)]?.get(slot, hash);
  }

  /** Puts the key at `position` unless it is held; false when it was. */
  add(slot: Slot, position: number): boolean {
    if (typeof slot !== 'number') {
      if (this.#texts.has(slot)) return false;
      this.#texts.set(slot, position);
      return true;
    }
    const hash = hashOf(slot, this.#seed);
    return this.#table(hash).add(slot, hash, position);
  }

  /** Puts the key at `position`, held or not. */
  set(slot: Slot, position: number): void {
    if (typeof slot !== 'number') {
      this.#texts.set(slot, position);
      return;
    }
    const hash = hashOf(slot, this.#seed);
    this.#table(hash).set(slot, hash, position);
  }

  delete(slot: Slot): void {
    if (typeof slot !== 'number') {
      this.#texts.delete(slot);
      return;
    }
    const hash = hashOf(slot, this.#seed);
    this.#tables[hash >>> (32 - TABLE_BITS)]?.delete(slot, hash);
  }

  #table(hash: number): IntegerTable {
    const at = hash >>> (32 - TABLE_BITS);
    return (this.#tables[at] ??= new IntegerTable(this.#seed));
  }
}

/**
 * Open addressing with linear probing over two typed arrays (the key, its position), at most half
 * full. A removed key keeps its slot with no position, so the keys probed past it stay found;
 * growing drops those.
 */
class IntegerTable {
  readonly #seed: Int32Array;
  #keys = emptyKeys(FIRST_CAPACITY);
  #positions = new Int32Array(FIRST_CAPACITY);
  /** Slots holding a key, removed ones included. */
  #filled = 0;

  constructor(seed: Int32Array) {
    this.#seed = seed;
  }

  get(key: number, hash: number): number | undefined {
    const keys = this.#keys;
    const mask = keys.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const held = keys[at] as number;
      if (held === key) {
        const position = this.#positions[at] as number;
        return position === NO_POSITION ? undefined : position;
      }
      if (held !== held) return undefined; // NaN: an empty slot ends the probe
    }
  }

  /** Puts the key at `position` unless it is held; false when it was. */
  add(key: number, hash: number, position: number): boolean {
    return this.#place(key, hash, position, false);
  }

  /** Puts the key at `position`, held or not. */
  set(key: number, hash: number, position: number): void {
    this.#place(key, hash, position, true);
  }

  #place(key: number, hash: number, position: number, overwrite: boolean): boolean {
    if ((this.#filled + 1) * 2 > this.#keys.length) this.#grow();
    const keys = this.#keys;
    const mask = keys.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const held = keys[at] as number;
      if (held === key) {
        if (!overwrite && this.#positions[at] !== NO_POSITION) return false;
        this.#positions[at] = position;
        return true;
      }
      if (held !== held) {
        keys[at] = key;
        this.#positions[at] = position;
        this.#filled++;
        return true;
      }
    }
  }

  delete(key: number, hash: number): void {
    const keys = this.#keys;
    const mask = keys.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const held = keys[at] as number;
      if (held === key) {
        this.#positions[at] = NO_POSITION;
        return;
      }
      if (held !== held) return;
    }
  }

  /** Rehashes the live keys into a table where they take at most a quarter of the slots. */
  #grow(): void {
    const keys = this.#keys;
    const positions = this.#positions;
    let live = 0;
    for (let at = 0; at < keys.length; at++) if (positions[at] !== NO_POSITION && keys[at] === keys[at]) live++;
    let capacity = FIRST_CAPACITY;
    while (capacity < live * 4) capacity *= 2;
    const nextKeys = emptyKeys(capacity);
    const nextPositions = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let from = 0; from < keys.length; from++) {
      const key = keys[from] as number;
      const position = positions[from] as number;
      if (key !== key || position === NO_POSITION) continue;
      let at = hashOf(key, this.#seed) & mask;
      while (nextKeys[at] === nextKeys[at]) at = (at + 1) & mask;
      nextKeys[at] = key;
      nextPositions[at] = position;
    }
    this.#keys = nextKeys;
    this.#positions = nextPositions;
    this.#filled = live;
  }
}

/** A 32-bit mix of an integer's two halves and a seed. */
function hashOf(n: number, seed: Int32Array): number {
  const low = n >>> 0;
  const high = Math.floor(n / 4294967296) | 0;
  let x = Math.imul(low ^ (seed[0] as number), 0x85ebca6b);
  x ^= x >>> 15;
  x = Math.imul(x ^ high ^ (seed[1] as number), 0xc2b2ae35);
  x ^= x >>> 13;
  x = Math.imul(x, 0x27d4eb2d);
  return (x ^ (x >>> 16)) >>> 0;
}

function emptyKeys(capacity: number): Float64Array {
  return new Float64Array(capacity).fill(Number.NaN);
}
