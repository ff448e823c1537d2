/**
 * The corpus test (real-world-corpus.ts), its second third of the documents: the suite green against the
 * mock on each, red behind a proxy that breaks its answers.
 */
import { describeCorpusShard } from './real-world-corpus.js';

describeCorpusShard(1);
