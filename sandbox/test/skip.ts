/** A skip that says why: as the skip note (verbose and JUnit reports) and on stderr (the default reporter). */
import type { TestContext } from 'vitest';

export function skipBecause(context: TestContext, reason: string): never {
  console.warn(`skipped "${context.task.name}": ${reason}`);
  return context.skip(reason);
}
