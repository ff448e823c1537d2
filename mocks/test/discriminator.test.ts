/**
 * A `oneOf` told apart by a `discriminator`, over HTTP against the mock, in a 3.0 and a 3.1
 * document: a body is judged by the schema its discriminating value selects (`mapping`, else the
 * component's name), a 400 names that value and that schema, an unknown value is a 400 naming the
 * known ones, and the answers the mock generates for such a schema pick a branch with its own value.
 * Before, the discriminator was not read: a body with Dog's value and Cat's properties was a Cat.
 */
import { describe, expect, it } from 'vitest';
import { expectError, send, useMockForSpec } from './mock-under-test.js';

/** The base Pet's own keywords, with a petType and a name (YAML under `schemas:`), for the documents whose discriminator sits on it. */
const PET_BASE = `    Pet:
      type: object
      required: [petType, name]
      properties:
        petType: {type: string}
        name: {type: string}`;

/** POST /pets taking and answering a Pet, as every document here has it (YAML under `paths:`). */
const PETS_PATH = `  /pets:
    post:
      operationId: addPet
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Pet'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}`;

/** Pets: Cat, Dog (mapped from `dog`) and Lizard (its name, implicitly), plus an inline union in a property. */
const petSpec = (version: '3.0.3' | '3.1.0'): string => `
openapi: ${version}
info: {title: Pets, version: "1"}
paths:
${PETS_PATH}
  /homes:
    post:
      operationId: addHome
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [resident]
              properties:
                resident:
                  oneOf:
                    - {$ref: '#/components/schemas/Cat'}
                    - {$ref: '#/components/schemas/Dog'}
                  discriminator: {propertyName: petType, mapping: {cat: Cat, dog: '#/components/schemas/Dog'}}
      responses:
        '200': {description: ok}
components:
  schemas:
    Pet:
      oneOf:
        - {$ref: '#/components/schemas/Cat'}
        - {$ref: '#/components/schemas/Dog'}
        - {$ref: '#/components/schemas/Lizard'}
      discriminator:
        propertyName: petType
        mapping:
          dog: '#/components/schemas/Dog'
    Base:
      type: object
      required: [petType, name]
      properties:
        petType: {type: string}
        name: {type: string}
    Cat:
      allOf:
        - {$ref: '#/components/schemas/Base'}
        - type: object
          required: [meows]
          properties:
            meows: {type: boolean}
    Dog:
      allOf:
        - {$ref: '#/components/schemas/Base'}
        - type: object
          required: [barks]
          properties:
            barks: {type: boolean}
    Lizard:
      type: object
      required: [petType, name]
      properties:
        petType: {type: string}
        name: {type: string}
        cold: {type: boolean}
`;

describe.each(['3.0.3', '3.1.0'] as const)('a discriminated oneOf in an OpenAPI %s document', (version) => {
  const mock = useMockForSpec(petSpec(version));
  const post = (path: string, body: unknown) => send(mock.current, path, body);

  it('judges a body by the schema its value maps to, and says which', async () => {
    // Cat's properties under Dog's value: as a oneOf alone it was a valid Cat.
    const message = expectError(await post('/pets', { petType: 'dog', name: 'Rex', meows: true }), 400);
    expect(message).toBe('The request body is not a valid Pet: petType is "dog", so the body must be a valid Dog; barks is required.');
  });

  it('takes a body of the schema its value selects, by mapping or by component name', async () => {
    for (const body of [
      { petType: 'dog', name: 'Rex', barks: true },
      { petType: 'Cat', name: 'Tom', meows: false },
      { petType: 'Lizard', name: 'Liz' },
    ]) {
      const answer = await post('/pets', body);
      expect(answer.status, answer.text).toBe(201);
    }
  });

  it('judges by the implicit mapping too: a Lizard value with only a Cat would be refused as a Lizard', async () => {
    // {petType: 'Lizard', name, meows} matches both Cat and Lizard: a plain oneOf refuses it for matching two.
    const answer = await post('/pets', { petType: 'Lizard', name: 'Liz', meows: true });
    expect(answer.status, answer.text).toBe(201);
    expect(expectError(await post('/pets', { petType: 'Cat', name: 'Tom', barks: true }), 400)).toContain('petType is "Cat", so the body must be a valid Cat; meows is required');
  });

  it('refuses a value no schema is selected by, naming the known ones', async () => {
    for (const petType of ['bird', 'Dog', 5]) {
      const message = expectError(await post('/pets', { petType, name: 'x', barks: true }), 400);
      expect(message).toBe('The request body is not a valid Pet: petType must be one of "dog", "Cat", "Lizard".');
    }
    expect(expectError(await post('/pets', { name: 'x', barks: true }), 400)).toBe('The request body is not a valid Pet: petType is required.');
    expect(expectError(await post('/pets', '"Rex"'), 400)).toBe('The request body is not a valid Pet: the body must be a JSON object, got the string "Rex".');
  });

  it('judges a discriminated property inside a body, mapped by schema name and by ref', async () => {
    expect((await post('/homes', { resident: { petType: 'cat', name: 'Tom', meows: true } })).status).toBe(200);
    const message = expectError(await post('/homes', { resident: { petType: 'cat', name: 'Tom', barks: true } }), 400);
    expect(message).toContain('resident.petType is "cat", so resident must be a valid Cat; resident.meows is required');
    expect(expectError(await post('/homes', { resident: { petType: 'Cat', name: 'Tom', meows: true } }), 400)).toContain('resident.petType must be one of "cat", "dog"');
  });

  it('answers with a generated Pet whose value selects the branch it was written from', async () => {
    const answer = await post('/pets', { petType: 'dog', name: 'Rex', barks: true });
    expect(answer.status, answer.text).toBe(201);
    const pet = answer.json as Record<string, unknown>;
    const selected = { dog: 'barks', Cat: 'meows', Lizard: 'name' }[String(pet.petType)];
    expect(selected, answer.text).toBeDefined();
    expect(pet).toHaveProperty(selected as string);
  });
});

/**
 * OpenAPI's inheritance form: the discriminator on the base, each kind an `allOf` of the base and
 * parts of its own (Dog mapped from `dog`, Cat by its name, Puppy two levels down through Dog).
 */
const inheritedSpec = (version: '3.0.3' | '3.1.0'): string => `
openapi: ${version}
info: {title: Pets by inheritance, version: "1"}
paths:
${PETS_PATH}
  /dogs:
    post:
      operationId: addDog
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Dog'}
      responses:
        '200': {description: ok}
components:
  schemas:
${PET_BASE}
      discriminator:
        propertyName: petType
        mapping: {dog: Dog}
    Dog:
      allOf:
        - {$ref: '#/components/schemas/Pet'}
        - type: object
          required: [barks]
          properties:
            barks: {type: boolean}
    Cat:
      description: a cat
      allOf:
        - {$ref: '#/components/schemas/Pet'}
        - type: object
          required: [meows]
          properties:
            meows: {type: boolean}
    Hamster:
      allOf:
        - {$ref: '#/components/schemas/Pet'}
    Puppy:
      allOf:
        - {$ref: '#/components/schemas/Dog'}
        - type: object
          required: [ageInWeeks]
          properties:
            ageInWeeks: {type: integer, maximum: 52}
`;

describe.each(['3.0.3', '3.1.0'] as const)('a discriminator on a base schema that kinds inherit by allOf, in an OpenAPI %s document', (version) => {
  const mock = useMockForSpec(inheritedSpec(version));
  const post = (path: string, body: unknown) => send(mock.current, path, body);

  it("judges a Pet by the kind its value names too: by mapping, by a component's name, two levels down", async () => {
    // Before, a Pet was judged by the base alone: each of these was a 201.
    expect(expectError(await post('/pets', { petType: 'dog', name: 'Rex' }), 400)).toBe('The request body is not a valid Pet: petType is "dog", so the body must be a valid Dog; barks is required.');
    expect(expectError(await post('/pets', { petType: 'Cat', name: 'Tom', barks: true }), 400)).toBe(
      'The request body is not a valid Pet: petType is "Cat", so the body must be a valid Cat; meows is required.',
    );
    expect(expectError(await post('/pets', { petType: 'Puppy', name: 'Bit', barks: true, ageInWeeks: 60 }), 400)).toContain('petType is "Puppy", so the body must be a valid Puppy');
    expect(expectError(await post('/pets', { petType: 'Puppy', name: 'Bit', ageInWeeks: 6 }), 400)).toContain('barks is required');
    // The base's own rules still hold under every value.
    expect(expectError(await post('/pets', { petType: 'dog', barks: true }), 400)).toContain('name is required');
  });

  it('takes a body of the kind its value names, and a value that names no kind as a plain Pet', async () => {
    for (const body of [
      { petType: 'dog', name: 'Rex', barks: true },
      { petType: 'Cat', name: 'Tom', meows: false },
      { petType: 'Puppy', name: 'Bit', barks: true, ageInWeeks: 6 },
      // A kind with no parts of its own (before, its empty allOf stopped the document loading).
      { petType: 'Hamster', name: 'Ham' },
      { petType: 'gerbil', name: 'Gee' },
    ]) {
      const answer = await post('/pets', body);
      expect(answer.status, answer.text).toBe(201);
    }
  });

  it('judges a kind taken on its own the same way, without going round from the kind to the base and back', async () => {
    expect((await post('/dogs', { petType: 'dog', name: 'Rex', barks: true })).status).toBe(200);
    expect(expectError(await post('/dogs', { petType: 'dog', name: 'Rex' }), 400)).toContain('barks is required');
    // A Dog whose value says Cat is judged as a Cat too (the discriminator is the base's).
    expect(expectError(await post('/dogs', { petType: 'Cat', name: 'Rex', barks: true }), 400)).toContain('petType is "Cat", so the body must be a valid Cat; meows is required');
  });
});

/** A union on the base whose branches inherit from it: Pet is oneOf Dog and Cat, each an allOf of Pet. */
const backReferenceSpec = `
openapi: 3.1.0
info: {title: Pets in a union of their own kinds, version: "1"}
paths:
${PETS_PATH}
components:
  schemas:
${PET_BASE}
      oneOf:
        - {$ref: '#/components/schemas/Dog'}
        - {$ref: '#/components/schemas/Cat'}
      discriminator: {propertyName: petType}
    Dog:
      allOf:
        - {$ref: '#/components/schemas/Pet'}
        - {type: object, required: [barks], properties: {barks: {type: boolean}}}
    Cat:
      allOf:
        - {$ref: '#/components/schemas/Pet'}
        - {type: object, required: [meows], properties: {meows: {type: boolean}}}
`;

describe('a discriminated union on the base whose branches are allOf of the base', () => {
  // As written, judging a Pet leads to Dog and back to Pet without end (refused at load when there is no discriminator to tell the kinds apart).
  const mock = useMockForSpec(backReferenceSpec);
  const post = (body: unknown) => send(mock.current, '/pets', body);

  it('judges a Pet by the base and the own parts of the kind its value names, and answers one it generates the same way', async () => {
    const answer = await post({ petType: 'Dog', name: 'Rex', barks: true });
    // The answer is generated from the schema: before, every branch led back to Pet and none was found (a 500, NO_VALID_BODY).
    expect(answer.status, answer.text).toBe(201);
    const pet = answer.json as Record<string, unknown>;
    expect(typeof pet.name).toBe('string');
    expect(pet).toHaveProperty({ Dog: 'barks', Cat: 'meows' }[String(pet.petType)] ?? 'a kind its petType names');
    expect((await post({ petType: 'Cat', name: 'Tom', meows: false })).status).toBe(201);
    expect(expectError(await post({ petType: 'Dog', name: 'Rex' }), 400)).toBe('The request body is not a valid Pet: petType is "Dog", so the body must be a valid Dog; barks is required.');
    expect(expectError(await post({ petType: 'Cat', meows: true }), 400)).toContain('name is required');
    expect(expectError(await post({ petType: 'Bird', name: 'Tweety' }), 400)).toBe('The request body is not a valid Pet: petType must be one of "Dog", "Cat".');
  });
});
