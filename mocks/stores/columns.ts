/**
 * Append-only columns of a collection, in chunks: growing one adds a chunk instead of copying
 * everything it holds, so no create waits for a copy of millions of entries. Numbers sit in
 * typed arrays, which the garbage collector never has to trace. The first chunk starts small and
 * doubles up to a chunk's size: a store holds a collection per parent record and per scope value,
 * most of them a few records, and a whole chunk each made thousands of them cost gigabytes.
 */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;
const FIRST_CHUNK = 16;

export class NumberColumn {
  #chunks: Float64Array[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    const at = this.#length++;
    const index = at >>> CHUNK_BITS;
    const offset = at & IN_CHUNK;
    let chunk = this.#chunks[index];
    if (chunk === undefined) this.#chunks.push((chunk = new Float64Array(index === 0 ? FIRST_CHUNK : CHUNK)));
    else if (offset === chunk.length) {
      // Only the first chunk is ever full before its size: it doubles, copying at most a chunk.
      const grown = new Float64Array(Math.min(chunk.length * 2, CHUNK));
      grown.set(chunk);
      this.#chunks[index] = chunk = grown;
    }
    chunk[offset] = value;
  }

  at(at: number): number {
    return (this.#chunks[at >>> CHUNK_BITS] as Float64Array)[at & IN_CHUNK] as number;
  }

  set(at: number, value: number): void {
    (this.#chunks[at >>> CHUNK_BITS] as Float64Array)[at & IN_CHUNK] = value;
  }
}

export class TextColumn {
  #chunks: (string | undefined)[][] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(value: string): void {
    const at = this.#length++;
    if ((at & IN_CHUNK) === 0) this.#chunks.push([]);
    (this.#chunks[at >>> CHUNK_BITS] as (string | undefined)[]).push(value);
  }

  at(at: number): string | undefined {
    return (this.#chunks[at >>> CHUNK_BITS] as (string | undefined)[])[at & IN_CHUNK];
  }

  set(at: number, value: string | undefined): void {
    (this.#chunks[at >>> CHUNK_BITS] as (string | undefined)[])[at & IN_CHUNK] = value;
  }
}
