/**
 * The CRUD rule every tool shares: which collections a spec implies, how their records are
 * identified, and what each operation does to them (openapi/operations/collections.ts), on small documents.
 */
import { describe, expect, it } from 'vitest';
import { compileContract } from '../compile.js';
import { parseIdentityOverrides, recogniseCollections, type RecognitionOptions } from '../collections.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = (schema: unknown) => ({ '200': { description: 'ok', ...json(schema) } });

function recognise(paths: Record<string, unknown>, schemas: Record<string, unknown> = {}, options: RecognitionOptions = {}) {
  const contract = compileContract({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths, components: { schemas } }, 'test.yaml');
  const { collections, stateful } = recogniseCollections(contract, options);
  return { collections, roles: Object.fromEntries([...stateful].map(([id, s]) => [id, s.role])), stateful };
}

const pet = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string' }, tag: { type: 'string' } } };
const newPet = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string' } } };

describe('collections recognised from a spec', () => {
  it('a create body without the identity: the answer schema names it, the mock assigns a sequence', () => {
    const { collections, roles } = recognise(
      {
        '/pets': {
          get: {
            operationId: 'findPets',
            parameters: [
              { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
              { name: 'limit', in: 'query', schema: { type: 'integer' } },
            ],
            responses: ok({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }),
          },
          post: { operationId: 'addPet', requestBody: { required: true, ...json({ $ref: '#/components/schemas/NewPet' }) }, responses: ok({ $ref: '#/components/schemas/Pet' }) },
        },
        '/pets/{id}': {
          get: { operationId: 'findPetById', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: ok({ $ref: '#/components/schemas/Pet' }) },
          delete: { operationId: 'deletePet', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '204': { description: 'gone' } } },
        },
      },
      { Pet: pet, NewPet: newPet },
    );
    expect(roles).toEqual({ addPet: 'create', findPets: 'list', findPetById: 'read', deletePet: 'delete' });
    expect(collections[0]?.identity).toEqual({ property: 'id', type: 'integer', assigned: 'sequence' });
    expect([...(collections[0]?.declared ?? [])]).toEqual(['name', 'tag']);
  });

  it('the item path parameter names the identity (`/user/{username}` → username), a per-path override wins', () => {
    const user = { type: 'object', properties: { id: { type: 'integer' }, username: { type: 'string' } } };
    const paths = {
      '/user': { post: { operationId: 'createUser', requestBody: json(user), responses: ok(user) } },
      '/user/{username}': { get: { operationId: 'getUser', parameters: [{ name: 'username', in: 'path', required: true, schema: { type: 'string' } }], responses: ok(user) } },
    };
    // The create body declares username without requiring it: the client may send it, else the mock assigns one (issue 37).
    expect(recognise(paths).collections[0]?.identity).toEqual({ property: 'username', type: 'string', assigned: 'string', optional: true });
    expect(recognise(paths, {}, { identity: parseIdentityOverrides('/user=id') }).collections[0]?.identity.property).toBe('id');
    // An override naming a property the schema lacks, or a path that is no collection, is refused: never a silently stateless collection.
    expect(() => recognise(paths, {}, { identity: parseIdentityOverrides('/user=nope') })).toThrow(
      /--identity \/user=nope: the records of \/user declare no property 'nope' \(they declare id, username\)/,
    );
    expect(() => recognise(paths, {}, { identity: parseIdentityOverrides('/users=id') })).toThrow(/\/users is not a collection \(\/user\)/);
  });

  it('`{petId}` names `id`; a readOnly uuid id is assigned as a UUID and never kept from a client', () => {
    const thing = { type: 'object', properties: { id: { type: 'string', format: 'uuid', readOnly: true }, name: { type: 'string' } } };
    const { collections } = recognise({
      '/things': { post: { operationId: 'createThing', requestBody: json(thing), responses: { '201': { description: 'made', ...json(thing) } } } },
      '/things/{thingId}': { get: { operationId: 'getThing', parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string' } }], responses: ok(thing) } },
    });
    expect(collections[0]?.identity).toEqual({ property: 'id', type: 'string', assigned: 'uuid' });
    expect([...(collections[0]?.declared ?? [])]).toEqual(['name']);
  });

  it('a wrapped list: the array property holding records, paging and filters by the declared names', () => {
    const thing = { type: 'object', properties: { id: { type: 'integer' }, colour: { type: 'string' }, secret: { type: 'string', writeOnly: true } } };
    const { stateful } = recognise({
      '/things': {
        post: { operationId: 'createThing', requestBody: json(thing), responses: ok(thing) },
        get: {
          operationId: 'listThings',
          parameters: ['page', 'per_page', 'colour', 'secret', 'sort'].map((name) => ({ name, in: 'query', schema: { type: name.startsWith('p') ? 'integer' : 'string' } })),
          responses: ok({ type: 'object', properties: { data: { type: 'array', maxItems: 50, items: thing }, links: { type: 'object' }, tags: { type: 'array', items: { type: 'string' } } } }),
        },
      },
    });
    expect(stateful.get('listThings')?.list).toEqual({
      shape: { kind: 'wrapped', property: 'data' },
      items: new Set(['id', 'colour']),
      paging: { size: 'per_page', defaultSize: undefined, offset: undefined, page: 'page', firstPage: 1 },
      filters: new Map([['colour', 'colour']]),
      maxItems: 50,
    });
  });

  it('updates at the collection path with the identity in the body, form updates at the item path, a nested collection under its parent', () => {
    const booking = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    const payment = { type: 'object', properties: { id: { type: 'integer', readOnly: true }, cvc: { type: 'string', writeOnly: true } } };
    const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer' } });
    const { collections, roles } = recognise({
      '/bookings': {
        post: { operationId: 'createBooking', requestBody: json(booking), responses: ok(booking) },
        put: { operationId: 'updateBooking', requestBody: json(booking), responses: ok(booking) },
        patch: { operationId: 'patchBooking', requestBody: json(booking), responses: ok(booking) },
      },
      '/bookings/{bookingId}': {
        post: { operationId: 'updateBookingWithForm', parameters: [param('bookingId'), { name: 'name', in: 'query', schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } },
      },
      '/bookings/{bookingId}/payments': { parameters: [param('bookingId')], post: { operationId: 'pay', requestBody: json(payment), responses: ok(payment) } },
      '/bookings/{bookingId}/payments/{paymentId}': { get: { operationId: 'getPayment', parameters: [param('bookingId'), param('paymentId')], responses: ok(payment) } },
    });
    expect(roles).toEqual({ createBooking: 'create', updateBooking: 'replace-in-body', patchBooking: 'patch-in-body', updateBookingWithForm: 'form-update', pay: 'create', getPayment: 'read' });
    const payments = collections[1];
    expect(payments?.parent?.collection).toBe(collections[0]);
    expect(payments?.parent?.parameter).toBe('bookingId');
    expect([...(payments?.writeOnly ?? [])]).toEqual(['cvc']);
  });

  it('reads --identity: one property everywhere and per collection path', () => {
    expect(parseIdentityOverrides('username, /pets/=petId,/user=name')).toEqual({
      everywhere: 'username',
      byPath: new Map([
        ['/pets', 'petId'],
        ['/user', 'name'],
      ]),
    });
    expect(() => parseIdentityOverrides('pets=id')).toThrow(/not \/collection-path=property/);
  });
});
