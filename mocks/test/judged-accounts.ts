/**
 * A spec for judging answers (the one judge's tests: contract-tests/test/one-judge.test.ts,
 * ./self-check.test.ts): one read whose 200 requires a header, declares a writeOnly property, and
 * has three named examples — a correct one, one that breaks the schema, one that answers the password.
 */
const account = (value: unknown) => ({ value });
export const ACCOUNTS_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Accounts', version: '1' },
  paths: {
    '/accounts/{id}': {
      get: {
        operationId: 'getAccount',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: {
          '200': {
            description: 'The account',
            headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer', minimum: 1 }, example: 5 } },
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/Account' },
                examples: { good: account({ id: 1, login: 'ann' }), broken: account({ id: 'one', login: 'ann' }), leaky: account({ id: 1, login: 'ann', password: 'hunter22' }) },
              },
            },
          },
          '404': { description: 'No such account', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Account: {
        type: 'object',
        required: ['id', 'login'],
        properties: { id: { type: 'integer' }, login: { type: 'string' }, password: { type: 'string', writeOnly: true } },
      },
      Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    },
  },
};
