import { it } from 'vitest';
import { startAndCheckEarlier } from './started.js';

it('finds what the files before it started stopped, and starts its own', startAndCheckEarlier);
