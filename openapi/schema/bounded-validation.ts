/**
 * A validator whose cost per value is bounded whatever the schema's shape (issue 39, item 1).
 *
 * Ajv with `allErrors` appends each `$ref` call's errors to the caller's list with `concat`, which
 * copies the list: an array of N invalid items behind `items: {$ref}` — how most specs write lists —
 * costs N² (12,000 `{}` items, 36 KB, took 9.3 CPU-seconds against 0.33 for the same schema inline).
 * So a value is judged first by a validator that stops at the first error, whose cost is linear in
 * the value; only an invalid value of at most ALL_ERRORS_VALUE_LIMIT JSON values is judged again
 * with every error collected, where the square cannot matter. A larger invalid value is reported by
 * its first error: a client is told what is wrong, never at the price of freezing the process.
 */
import type { ValidateFunction } from 'ajv';

/** The most JSON values (objects, arrays and scalars, counted through every level) of an invalid value whose every error is collected. */
export const ALL_ERRORS_VALUE_LIMIT = 1000;

/** What judging a value cost, for tests that bound the work rather than the time it takes. */
export interface ValidationWork {
  /** How many values were judged with every error collected. */
  allErrorsRuns: number;
  /** How many values were counted; each count stops past ALL_ERRORS_VALUE_LIMIT. */
  valuesCounted: number;
}

/**
 * One function Ajv's callers use as they would Ajv's own (`validate(value)`, then `.errors`):
 * `firstError` decides, `allErrors` (compiled on first need) only words a small invalid value.
 */
export function boundedValidator(firstError: ValidateFunction, allErrors: () => ValidateFunction, work?: ValidationWork): ValidateFunction {
  let every: ValidateFunction | undefined;
  const judge = ((value: unknown): boolean => {
    if (firstError(value) === true) {
      judge.errors = null;
      return true;
    }
    const found = firstError.errors;
    if (isSmall(value, work)) {
      every ??= allErrors();
      if (work) work.allErrorsRuns++;
      judge.errors = every(value) === true ? found : every.errors;
    } else judge.errors = found;
    return false;
  }) as ValidateFunction;
  judge.errors = null;
  judge.schema = firstError.schema;
  judge.schemaEnv = firstError.schemaEnv;
  return judge;
}

/** Whether `value` holds at most ALL_ERRORS_VALUE_LIMIT JSON values; the walk stops as soon as it knows. */
function isSmall(value: unknown, work: ValidationWork | undefined): boolean {
  const pending: unknown[] = [value];
  let seen = 0;
  while (pending.length > 0) {
    const next = pending.pop();
    seen++;
    if (work) work.valuesCounted++;
    if (seen > ALL_ERRORS_VALUE_LIMIT) return false;
    if (next !== null && typeof next === 'object') {
      for (const inner of Array.isArray(next) ? next : Object.values(next)) {
        pending.push(inner);
        // Pending values are counted before they are walked: a flat array of a million stops here.
        if (seen + pending.length > ALL_ERRORS_VALUE_LIMIT) return false;
      }
    }
  }
  return true;
}
