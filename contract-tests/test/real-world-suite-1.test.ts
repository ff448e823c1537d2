/**
 * The corpus test (real-world-corpus.ts), its first third of the documents: the suite green against the
 * mock on each, red behind a proxy that breaks its answers.
 */
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusShards, describeCorpusShard, SHARDS } from './real-world-corpus.js';

describeCorpusShard(0);

describe('the corpus test files', () => {
  it(`cover every document of fixtures/real-world once between the ${SHARDS} of them`, () => {
    const shards = corpusShards();
    expect(shards).toHaveLength(SHARDS);
    expect(shards.flat().sort()).toEqual(CORPUS.map((entry) => entry.name).sort());
    for (const shard of shards) expect(shard).not.toEqual([]);
  });
});
