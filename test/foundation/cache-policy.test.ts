// The cache policy computed from an operation alone, by the rules of Apollo's cache-control plugin.
import { buildSchema, parse } from 'graphql';
import { operationCachePolicy } from '../../src/graphql/cache-control.js';

const schema = buildSchema(`
  enum CacheControlScope { PUBLIC PRIVATE }
  directive @cacheControl(maxAge: Int, scope: CacheControlScope, inheritMaxAge: Boolean) on FIELD_DEFINITION | OBJECT | INTERFACE | UNION

  type Query {
    book: Book
    status: Status @cacheControl(maxAge: 0)
    me: Reader
    feed: [Item!]!
    count: Int
    slowCount: Int @cacheControl(maxAge: 5)
  }
  type Book @cacheControl(maxAge: 300) {
    title: String
    stock: Int @cacheControl(maxAge: 10)
    author: Author
    publisher: Publisher @cacheControl(inheritMaxAge: true)
  }
  type Author { name: String }
  type Publisher { name: String }
  type Status { up: Boolean }
  type Reader @cacheControl(scope: PRIVATE) { name: String }
  interface Item { id: ID! }
  type Post implements Item { id: ID! body: String @cacheControl(maxAge: 30) }
  type Clip implements Item @cacheControl(maxAge: 120) { id: ID! }
`);

const policy = (query: string, operationName?: string) => operationCachePolicy(schema, parse(query), operationName, 60);

test('root fields and object fields without a hint get the default', () => {
  expect(policy('{ count }')).toEqual({ maxAge: 60, scope: undefined });
  expect(policy('{ book { author { name } } }')).toEqual({ maxAge: 60, scope: undefined });
});

test('the smallest hint wins, from a field or a type', () => {
  expect(policy('{ book { title } }')).toEqual({ maxAge: 300, scope: undefined }); // the type's hint replaces the default
  expect(policy('{ book { stock } }')).toEqual({ maxAge: 10, scope: undefined });
  expect(policy('{ slowCount count }')).toEqual({ maxAge: 5, scope: undefined });
  expect(policy('{ book { title } status { up } }')).toEqual({ maxAge: 0, scope: undefined });
});

test("inheritMaxAge takes the parent's age instead of the default", () => {
  // Publisher has no hint: without inheritMaxAge it would add the default (60); inheriting adds nothing.
  expect(policy('{ book { publisher { name } } }')).toEqual({ maxAge: 300, scope: undefined });
});

test('a PRIVATE type makes the whole answer private', () => {
  expect(policy('{ me { name } }')).toEqual({ maxAge: 60, scope: 'PRIVATE' });
});

test('fields of an interface count every implementation; fragments and named operations are followed', () => {
  expect(policy('{ feed { id } }')).toEqual({ maxAge: 60, scope: undefined });
  expect(policy('{ feed { ... on Post { body } } }')).toEqual({ maxAge: 30, scope: undefined });
  expect(policy('query A { count } query B { feed { ...P } } fragment P on Post { body }', 'B')).toEqual({
    maxAge: 30,
    scope: undefined,
  });
  expect(policy('query A { count } query B { feed { ...P } } fragment P on Post { body }', 'A')).toEqual({
    maxAge: 60,
    scope: undefined,
  });
});

test('an operation that cannot be chosen is not cacheable', () => {
  expect(policy('query A { count } query B { count }')).toEqual({ maxAge: 0 });
});
