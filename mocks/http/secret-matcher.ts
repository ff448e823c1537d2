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

/** A set of secrets compiled once, asked where they occur in any number of texts. */
export class SecretMatcher {
  readonly #nodes: Node[] = [{ next: new Map(), fail: 0, longest: 0 }];

  constructor(secrets: Iterable<string>) {
    const nodes = this.#nodes;
    for (const secret of secrets) {
      if (secret === '') continue;
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
    const runs: Array<[number, number]> = [];
    let at = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      let next = (nodes[at] as Node).next.get(code);
      while (next === undefined && at !== 0) {
        at = (nodes[at] as Node).fail;
        next = (nodes[at] as Node).next.get(code);
      }
      at = next ?? 0;
      const length = (nodes[at] as Node).longest;
      if (length === 0) continue;
      // The longest secret ending here starts earliest; one that starts before earlier stretches end swallows them.
      let start = i + 1 - length;
      while (runs.length > 0 && start < (runs[runs.length - 1] as [number, number])[1]) {
        start = Math.min(start, (runs.pop() as [number, number])[0]);
      }
      runs.push([start, i + 1]);
    }
    return runs;
  }
}
