/**
 * Envelopes (issue 37 §2): a resource sent and answered wrapped in one member
 * (`POST /articles {"article": {...}}` → `{"article": {...}}`), stored as the inner object with its
 * identity inside it, and answered in the envelope each operation declares, over real HTTP. The
 * list's envelope is its own (`{"articles": [...], "articlesCount": n}`).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../server.js';
import { call, corpusSpec, expectDeclared } from './corpus.js';
import { useMock } from './mock-under-test.js';

describe('an envelope API (fixtures/specs/envelopes, shaped as RealWorld/Conduit)', () => {
  const mock = useMock({ spec: corpusSpec('envelopes') });

  it('infers one collection, identity slug inside the envelope, and says so', () => {
    const [collection] = mock.current.engine.collections;
    expect(collection?.envelope).toBe('article');
    expect(collection?.identity.property).toBe('slug');
    expect(mock.current.engine.stateful.size).toBe(5);
  });

  it('round-trips create, read, list, update and delete in their envelopes', async () => {
    const m = mock.current;
    const created = expectDeclared(m, 'createArticle', await call(m, 'POST', '/articles', { article: { title: 'Hello', description: 'first', body: 'text', tagList: ['a'] } }), 201);
    expect(created.article).toMatchObject({ title: 'Hello', description: 'first', body: 'text', tagList: ['a'] });
    const slug = created.article.slug as string;
    expect(typeof slug).toBe('string');
    // Stored as the inner object, keyed by its identity: the admin listing shows no envelope.
    const stored = await (await fetch(`${m.url}/__mock/articles`)).json();
    expect(JSON.stringify(stored)).not.toContain('"article"');
    expect(JSON.stringify(stored)).toContain(slug);

    const read = expectDeclared(m, 'getArticle', await call(m, 'GET', `/articles/${slug}`), 200);
    expect(read.article).toMatchObject({ slug, title: 'Hello' });
    const listed = expectDeclared(m, 'listArticles', await call(m, 'GET', '/articles'), 200);
    expect(listed.articles.map((a: { slug: string }) => a.slug)).toContain(slug);
    // The list's own count is its total (`articlesCount` beside `articles`), not a sampled 0.
    expect(listed.articlesCount).toBe(listed.articles.length);

    const updated = expectDeclared(m, 'updateArticle', await call(m, 'PUT', `/articles/${slug}`, { article: { title: 'Changed', description: 'first', body: 'text' } }), 200);
    expect(updated.article).toMatchObject({ slug, title: 'Changed' });
    expect(expectDeclared(m, 'getArticle', await call(m, 'GET', `/articles/${slug}`), 200).article.title).toBe('Changed');

    expectDeclared(m, 'deleteArticle', await call(m, 'DELETE', `/articles/${slug}`), 200);
    expect((await call(m, 'GET', `/articles/${slug}`)).status).toBe(404);
  });

  it('judges the inner object: a create without the envelope is refused as the spec declares', async () => {
    const reply = await call(mock.current, 'POST', '/articles', { title: 'bare' });
    expect(reply.status).toBe(422);
  });
});

describe('the corpus document lago (envelope: POST /taxes {"tax": {...}} → {"tax": {...}})', () => {
  const spec = fileURLToPath(new URL('../../fixtures/real-world/lago/openapi.yaml', import.meta.url));

  it('serves /taxes from the store, in its envelopes', async () => {
    const m = await createMockServer({ port: 0, logLevel: 'silent', spec });
    try {
      const taxes = m.engine.collections.find((c) => c.path === '/taxes');
      expect(taxes?.envelope).toBe('tax');
      expect(taxes?.identity.property).toBe('code');
      const created = expectDeclared(m, 'createTax', await call(m, 'POST', '/taxes', { tax: { name: 'VAT', code: 'vat_fr', rate: '20.0' } }), 200);
      expect(created.tax).toMatchObject({ name: 'VAT', code: 'vat_fr', rate: 20 });
      expect(expectDeclared(m, 'findTax', await call(m, 'GET', '/taxes/vat_fr'), 200).tax).toMatchObject({ code: 'vat_fr', name: 'VAT' });
      const listed = expectDeclared(m, 'findAllTaxes', await call(m, 'GET', '/taxes'), 200);
      expect(listed.taxes.map((t: { code: string }) => t.code)).toEqual(['vat_fr']);
      expect(expectDeclared(m, 'updateTax', await call(m, 'PUT', '/taxes/vat_fr', { tax: { name: 'TVA', code: 'vat_fr', rate: '20.0' } }), 200).tax.name).toBe('TVA');
      expectDeclared(m, 'destroyTax', await call(m, 'DELETE', '/taxes/vat_fr'), 200);
      expect((await call(m, 'GET', '/taxes/vat_fr')).status).toBe(404);
    } finally {
      await m.close();
    }
  });
});
