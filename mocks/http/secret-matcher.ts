/**
 * Finds every place in a text where one of many secrets occurs, in one pass over the text
 * (Aho–Corasick): the cost is the text's length plus the secrets' total length, never their
 * product. A request carrying a thousand cookies and a body quoting them is masked at the cost of
 * reading both once (issue 24 row 8). Written here rather than taken from npm: the maintained
 * Aho–Corasick package there (modern-ahocorasick 3.x) matches whole grapheme clusters, so a secret
 * followed by a combining mark would go unmasked; masking needs exact UTF-16 code units.
 */

/** One node of the automaton: its children by UTF-16 code unit, its failure link, the longest secret ending here. */
interface Node {
  readonly next: Map<number, number>;
  fail: number;
  /** Length of the longest secret that is a suffix of this node's string; 0 when none is. */
  longest: number;
}

/** Characters of a secret's start the filter reads (fewer when a secret is shorter). */
const WINDOW = 4;
/** Bits in the filter of windows: one per hash value. */
const FILTER_BITS = 1 << 16;

/** The hash of `text[at, at + width)`, as the filter keys windows. */
function windowHash(text: string, at: number, width: number): number {
  let hash = 0;
  for (let i = at; i < at + width; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return (hash ^ (hash >>> 16)) & (FILTER_BITS - 1);
}

/**
 * A set of secrets compiled once, asked where they occur in any number of texts. The automaton
 * reads a text only from where a secret may start: a filter of the secrets' first characters (a bit
 * per hash of a window) passes over the rest at a few operations a character, so a body quoting
 * none costs about what `includes` would, whatever the number of secrets; a text of nothing but
 * candidates costs the automaton's one pass, never more.
 */
export class SecretMatcher {
  readonly #nodes: Node[] = [{ next: new Map(), fail: 0, longest: 0 }];
  readonly #filter = new Uint8Array(FILTER_BITS >> 3);
  /** How many characters of a window the filter hashes: WINDOW, or the shortest secret's length. */
  readonly #window: number;
  #stepped = 0;
  /** 31 to the power `#window - 1`: what the character leaving a rolled window weighed in its hash. */
  readonly #leaving: number;

  constructor(secrets: Iterable<string>) {
    const nodes = this.#nodes;
    const list = [...secrets].filter((secret) => secret !== '');
    let width = WINDOW;
    for (const secret of list) width = Math.min(width, secret.length);
    this.#window = width;
    let leaving = 1;
    for (let i = 1; i < width; i++) leaving = Math.imul(leaving, 31);
    this.#leaving = leaving;
    for (const secret of list) {
      const hash = windowHash(secret, 0, this.#window);
      (this.#filter[hash >> 3] as number) |= 1 << (hash & 7);
      let at = 0;
      for (let i = 0; i < secret.length; i++) {
        const code = secret.charCodeAt(i);
        let child = (nodes[at] as Node).next.get(code);
        if (child === undefined) {
          child = nodes.length;
          nodes.push({ next: new Map(), fail: 0, longest: 0 });
          (nodes[at] as Node).next.set(code, child);
        }
        at = child;
      }
      const end = nodes[at] as Node;
      end.longest = Math.max(end.longest, secret.length);
    }
    // Breadth first, so that a node's failure target is complete before the node is.
    const queue: number[] = [...(nodes[0] as Node).next.values()];
    for (let head = 0; head < queue.length; head++) {
      const node = nodes[queue[head] as number] as Node;
      for (const [code, child] of node.next) {
        let fail = node.fail;
        let target = (nodes[fail] as Node).next.get(code);
        while (target === undefined && fail !== 0) {
          fail = (nodes[fail] as Node).fail;
          target = (nodes[fail] as Node).next.get(code);
        }
        const childNode = nodes[child] as Node;
        childNode.fail = target === undefined || target === child ? 0 : target;
        // A secret ending here, or the longest one ending at the failure target (a shorter suffix).
        if (childNode.longest === 0) childNode.longest = (nodes[childNode.fail] as Node).longest;
        queue.push(child);
      }
    }
  }

  /**
   * The stretches of `text` covered by occurrences of the secrets, as `[start, end)` pairs in
   * order, overlapping occurrences merged into one stretch (so no part of either is left readable).
   */
  find(text: string): Array<[number, number]> {
    const nodes = this.#nodes;
    const filter = this.#filter;
    const width = this.#window;
    const runs: Array<[number, number]> = [];
    if (nodes.length === 1) return runs;
    // The window's hash rolls: each step adds the next character and takes out the one leaving.
    const leaving = this.#leaving;
    let from = 0;
    let rolled = 0;
    let rolledTo = 0;
    while (from + width <= text.length) {
      if (rolledTo !== from + width) {
        rolled = 0;
        for (rolledTo = from; rolledTo < from + width; rolledTo++) rolled = (Math.imul(rolled, 31) + text.charCodeAt(rolledTo)) | 0;
      }
      const hash = (rolled ^ (rolled >>> 16)) & (FILTER_BITS - 1);
      if ((((filter[hash >> 3] as number) >> (hash & 7)) & 1) === 0) {
        if (rolledTo < text.length) {
          rolled = (Math.imul(rolled - Math.imul(text.charCodeAt(from), leaving), 31) + text.charCodeAt(rolledTo)) | 0;
          rolledTo++;
        }
        from++;
        continue;
      }
      // A secret may start here: the automaton reads on from its root until no secret is in
      // progress (back at the root), so every occurrence starting here or while it reads is found.
      let at = 0;
      let i = from;
      for (; i < text.length; i++) {
        const code = text.charCodeAt(i);
        let next = (nodes[at] as Node).next.get(code);
        while (next === undefined && at !== 0) {
          at = (nodes[at] as Node).fail;
          next = (nodes[at] as Node).next.get(code);
        }
        at = next ?? 0;
        if (at === 0) break;
        const length = (nodes[at] as Node).longest;
        if (length === 0) continue;
        // The longest secret ending here starts earliest; one that starts before earlier stretches end swallows them.
        let start = i + 1 - length;
        while (runs.length > 0 && start < (runs[runs.length - 1] as [number, number])[1]) {
          start = Math.min(start, (runs.pop() as [number, number])[0]);
        }
        runs.push([start, i + 1]);
      }
      this.#stepped += Math.min(i + 1, text.length) - from;
      from = i + 1;
    }
    return runs;
  }

  /** Characters the automaton has read so far (the filter's reading aside): what a test bounds. */
  get stepped(): number {
    return this.#stepped;
  }
}
