/**
 * Property-based cases (fast-check): valid NewPlants — any printable Unicode name including
 * the empty one, an optional tag, ids across the whole int64 range — and single mutations of
 * them that break NewPlant. Sampling is bounded and seeded: the same seed gives the same
 * shapes, while each id's low 32 bits are drawn afresh per run so that ids never repeat.
 */
import fc from 'fast-check';
import { LosslessNumber, stringify } from 'lossless-json';
import type { IdSource } from '../fixtures/index.js';
import { parseBody } from './spec-contract.js';
import type { ValidateFunction } from 'ajv';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export interface GeneratedPlant {
  id: bigint;
  name: string;
  tag?: string;
}

export interface GeneratedBody {
  /** Short label for the case id and report: `valid`, `id-as-string`, `truncated` … */
  label: string;
  description: string;
  text: string;
  /** For a valid NewPlant: what a Plant must echo. */
  plant?: { name: string; tag?: string };
}

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 24 }),
);

/** A valid NewPlant, id as an exact bigint over the full int64 range. */
export const newPlantArbitrary: fc.Arbitrary<GeneratedPlant> = fc.record(
  { id: fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), name: text, tag: text },
  { requiredKeys: ['id', 'name'] },
);

type Mutation = { label: string; description: string; apply: (plant: GeneratedPlant) => string };

/** JSON values of the wrong type for a string field… */
const notStrings: fc.Arbitrary<[string, unknown]> = fc.constantFrom<[string, unknown]>(
  ['null', null],
  ['true', true],
  ['a number', 42],
  ['an array', []],
  ['an object', {}],
);
/** …and for an integer field (a digit string is its own mutation). */
const notIntegers: fc.Arbitrary<[string, unknown]> = fc.constantFrom<[string, unknown]>(
  ['null', null],
  ['false', false],
  ['an array', [1]],
  ['an object', {}],
);

/** One way to break a NewPlant, chosen by fast-check along with its parameters. */
const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant<Mutation>({ label: 'missing-id', description: 'id is missing', apply: ({ name, tag }) => json({ name, tag }) }),
  fc.constant<Mutation>({ label: 'missing-name', description: 'name is missing', apply: ({ id, tag }) => json({ id, tag }) }),
  fc.constant<Mutation>({
    label: 'id-as-string',
    description: 'id is a string of digits',
    apply: ({ id, name, tag }) => json({ id: id.toString(), name, tag }),
  }),
  fc.constant<Mutation>({
    label: 'id-fraction',
    description: 'id has a fractional part',
    apply: ({ id, name, tag }) => json({ id: new LosslessNumber(`${id}.5`), name, tag }),
  }),
  fc.bigInt({ min: 0n, max: 2n ** 62n }).map<Mutation>((k) => ({
    label: 'id-int64-overflow',
    description: `id is 2^63 + ${k}, past the int64 range`,
    apply: ({ name, tag }) => json({ id: INT64_MAX + 1n + k, name, tag }),
  })),
  fc.bigInt({ min: 0n, max: 2n ** 62n }).map<Mutation>((k) => ({
    label: 'id-int64-underflow',
    description: `id is -2^63 - 1 - ${k}, below the int64 range`,
    apply: ({ name, tag }) => json({ id: INT64_MIN - 1n - k, name, tag }),
  })),
  fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 19, max: 400 })).map<Mutation>(([digit, exponent]) => ({
    label: 'id-exponent-beyond-int64',
    description: `id is ${digit}e${exponent}, an integer far past int64`,
    apply: ({ name, tag }) => json({ id: new LosslessNumber(`${digit}e${exponent}`), name, tag }),
  })),
  notIntegers.map<Mutation>(([what, value]) => ({
    label: 'id-wrong-type',
    description: `id is ${what}`,
    apply: ({ name, tag }) => json({ id: value, name, tag }),
  })),
  notStrings.map<Mutation>(([what, value]) => ({
    label: 'name-wrong-type',
    description: `name is ${what}`,
    apply: ({ id, tag }) => json({ id, name: value, tag }),
  })),
  notStrings.map<Mutation>(([what, value]) => ({
    label: 'tag-wrong-type',
    description: `tag is ${what}`,
    apply: ({ id, name }) => json({ id, name, tag: value }),
  })),
  fc.constantFrom<Mutation>(
    { label: 'body-null', description: 'the body is null', apply: () => 'null' },
    { label: 'body-array', description: 'the body is an array holding the NewPlant', apply: (plant) => `[${json(plant)}]` },
    { label: 'body-string', description: 'the body is a JSON string', apply: ({ name }) => JSON.stringify(name) },
    { label: 'body-number', description: 'the body is a JSON number', apply: ({ id }) => id.toString() },
  ),
  fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }).map<Mutation>((at) => ({
    label: 'truncated',
    description: 'the JSON text is cut short',
    // Every proper prefix of an object's text lacks its closing brace: never JSON.
    apply: (plant) => {
      const whole = json(plant);
      return whole.slice(0, 1 + Math.floor(at * (whole.length - 1)));
    },
  })),
);

/** JSON text with fields in order, undefined ones left out, bigints as exact digits. */
function json(fields: object): string {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return stringify(defined) as string;
}

export interface GenerationOptions {
  seed: number;
  positive: number;
  negative: number;
  ids: IdSource;
  /** The spec's NewPlant validator: every case is checked against it before it is sent. */
  validateNewPlant: ValidateFunction;
}

/** The generated bodies of one run; throws if the generator ever disagrees with the spec. */
export function generateBodies(options: GenerationOptions): { positive: GeneratedBody[]; negative: GeneratedBody[] } {
  const { seed, ids } = options;
  const unique = (plant: GeneratedPlant): GeneratedPlant => ({ ...plant, id: ids.unique(plant.id) });
  const positive = sample(newPlantArbitrary, seed, options.positive).map((raw): GeneratedBody => {
    const plant = unique(raw);
    return {
      label: 'valid',
      description: `a generated valid NewPlant (id ${plant.id}, name ${JSON.stringify(plant.name)}${plant.tag === undefined ? ', no tag' : `, tag ${JSON.stringify(plant.tag)}`})`,
      text: json({ id: plant.id, name: plant.name, tag: plant.tag }),
      plant: plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag },
    };
  });
  // A different stream for the negatives, so changing one count leaves the other's cases alone.
  const negative = sample(fc.tuple(newPlantArbitrary, mutationArbitrary), seed ^ 0x5eed, options.negative).map(
    ([raw, mutation]): GeneratedBody => ({
      label: mutation.label,
      description: `a generated NewPlant broken so that ${mutation.description}`,
      text: mutation.apply(unique(raw)),
    }),
  );
  for (const body of positive) assertVerdict(body, true, options.validateNewPlant);
  for (const body of negative) assertVerdict(body, false, options.validateNewPlant);
  return { positive, negative };
}

function sample<T>(arbitrary: fc.Arbitrary<T>, seed: number, count: number): T[] {
  return count > 0 ? fc.sample(arbitrary, { seed, numRuns: count }) : [];
}

function assertVerdict(body: GeneratedBody, valid: boolean, validateNewPlant: ValidateFunction): void {
  const parsed = parseBody(body.text);
  const isValid = parsed.ok && validateNewPlant(parsed.value) === true;
  if (isValid !== valid) {
    throw new Error(`Generator bug: ${body.text} was generated as ${valid ? 'a valid' : 'an invalid'} NewPlant, but the spec says otherwise.`);
  }
}
