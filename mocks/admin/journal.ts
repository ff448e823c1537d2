/**
 * A bounded journal of recent requests, so a frontend developer can see why a request was
 * rejected without reading logs. Memory stays flat whatever the load: a ring of fixed size.
 */
import type { Violation } from '../proxy/violations.js';

export interface JournalEntry {
  seq: number;
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** The catalogue code of a rejection. */
  code?: string;
  message?: string;
  /** Each offending field of a rejected body, in words. */
  problems?: readonly string[];
  /** The spec operation that answered. */
  operationId?: string;
  /** False when the answer came from the spec's examples, not the store. */
  stateful?: boolean;
  /** Proxy mode: where the request or the upstream's answer departs from the spec. */
  violations?: readonly Violation[];
}

type Recorded = Omit<JournalEntry, 'seq' | 'at'> & { time: number };

export const DEFAULT_JOURNAL_SIZE = 500;

export class RequestJournal {
  readonly #ring: (Recorded | undefined)[];
  #next = 0;

  constructor(readonly capacity: number = DEFAULT_JOURNAL_SIZE) {
    this.#ring = new Array(capacity);
  }

  record(entry: Recorded): void {
    this.#ring[this.#next % this.capacity] = entry;
    this.#next++;
  }

  /** Recent entries, newest first. */
  entries(): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let seq = this.#next - 1; seq >= Math.max(0, this.#next - this.capacity); seq--) {
      const { time, ...rest } = this.#ring[seq % this.capacity] as Recorded;
      out.push({ seq: seq + 1, at: new Date(time).toISOString(), ...rest });
    }
    return out;
  }

  clear(): void {
    this.#ring.fill(undefined);
    this.#next = 0;
  }
}
