// Seeded, schema-driven GraphQL requests for the fuzz test: random valid operations built from the introspected
// schema, and hostile variants of them (wrong variable types, forged and foreign cursors, unknown operation
// names, deep and wide selections, malformed and oversized bodies and URLs, documents named by id).
import { createHash } from 'node:crypto';
import {
  GraphQLString,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

import { Draws } from '../helpers/random.js';

export interface FuzzRequest {
  kind: string;
  method: string;
  /** Path and query string. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const PREVIEW_VALUES = ['true', 'false', '', 'TRUE', ' true ', 'yes', '1', 'true, true', 'null'];

const ACCEPT_ENCODINGS = [
  'br',
  'gzip',
  'br;q=0.2, gzip;q=0.9',
  '*',
  '*;q=0',
  'identity;q=0',
  'identity;q=0, gzip',
  'deflate',
  'zstd, x-unknown;q=1',
  '',
  'br;q=abc, gzip;q=-1, identity;q=2',
  ';;;,,,=, q=0.5',
  'gzip;q=0.000001',
  'BR;Q=1',
];

export class Fuzzer extends Draws {
  /** Cursors seen in answers: replayed on other connections (foreign) and altered (forged). */
  readonly cursors: string[] = [];

  constructor(
    private readonly schema: GraphQLSchema,
    seed: number,
    private readonly ids: string[],
    private readonly slugs: string[] = ['nothing'],
  ) {
    super(seed);
  }

  /** A plausible value of an input type (ids from the fixture, small page sizes), as a JSON value. */
  value(type: GraphQLInputType, argName = '', depth = 0): unknown {
    if (isNonNullType(type)) return this.value(type.ofType, argName, depth);
    if (this.chance(0.05)) return null;
    if (isListType(type))
      return Array.from({ length: 1 + this.int(3) }, () => this.value(type.ofType, argName, depth + 1));
    if (isEnumType(type)) return this.pick(type.getValues()).name;
    if (isInputObjectType(type)) {
      const out: Record<string, unknown> = {};
      for (const field of Object.values(type.getFields())) {
        if (isNonNullType(field.type) || this.chance(0.5))
          out[field.name] = this.value(field.type, field.name, depth + 1);
      }
      return out;
    }
    const name = getNamedType(type).name;
    if (argName === 'first' || argName === 'limit') return 1 + this.int(this.chance(0.9) ? 10 : 150);
    if (argName === 'after') return this.cursors.length && this.chance(0.6) ? this.pick(this.cursors) : null;
    if (argName === 'lang' || argName === 'language') return this.pick(['en', 'de', 'xx', 'EN', '']);
    if (argName === 'query') return this.searchText();
    if (argName === 'slug')
      return this.chance(0.8) ? this.pick(this.slugs) : this.pick(['', 'no spaces!', '$ne', 'x'.repeat(70)]);
    // Long values too: past the embedded engine's index key limit (about 1 KB), and past MongoDB's names.
    const long = () => this.pick(['a', 'é', '\u{1F600}']).repeat(500 + this.int(5000));
    if (argName === 'email')
      return this.pick(['reader@example.com', 'READER@example.com ', 'not-an-email', '', `${long()}@example.com`]);
    if (name === 'ID')
      return this.chance(0.85)
        ? this.pick(this.ids)
        : this.pick(['', ' ', 'a'.repeat(70), 'no spaces!', '$ne', '7', '0', long()]);
    if (name === 'Int') return this.int(50) - 5;
    if (name === 'Float') return this.rnd() * 100;
    if (name === 'Boolean') return this.chance(0.5);
    if (name === 'DateTime') return new Date(Date.UTC(2026, 0, 1 + this.int(60))).toISOString();
    return this.chance(0.7) ? this.pick(this.ids) : this.chance(0.9) ? `s${this.int(1000)}` : long();
  }

  /** A wrong value for `type`: another JSON type, an operator object, null for a non-null, a huge number. */
  wrongValue(type: GraphQLInputType): unknown {
    const named = getNamedType(type);
    const candidates: unknown[] = [
      { $ne: null },
      ['x', 1],
      'not-a-number',
      1.5,
      2 ** 60,
      true,
      { nested: { deep: [1] } },
    ];
    if (isNonNullType(type)) candidates.push(null);
    if (isScalarType(named) && (named.name === 'String' || named.name === 'ID')) candidates.push(12, { $regex: '(' });
    return this.pick(candidates);
  }

  /** Search text: words, phrases and negations, operator- and regex-looking text, blank, too long, too many words. */
  private searchText(): string {
    const words = ['harbour', 'bridge', 'Article', 'the', 'ünïcödé', '\u{1F600}', 'g-a1', 'running'];
    return this.pick([
      () => Array.from({ length: 1 + this.int(4) }, () => this.pick(words)).join(' '),
      () => `"${this.pick(words)} ${this.pick(words)}" -${this.pick(words)}`,
      () =>
        this.pick(['{"$gt":""}', '{"$where":"sleep(1000)"}', '$text', '.*', '^(a+)+$', '[', '"unclosed', '---', '"']),
      () => this.pick(['', '   ', '!!!', '\u0000', 'a\u0000b']),
      () => 'x'.repeat(190 + this.int(30)),
      () => Array.from({ length: 25 + this.int(20) }, (_, i) => `w${i}`).join(' '),
    ])();
  }

  private selection(type: GraphQLNamedType, depth: number, maxDepth: number): string {
    if (isLeafType(type)) return '';
    if (isUnionType(type) || isInterfaceType(type)) {
      const possible = this.schema.getPossibleTypes(type);
      const chosen = Array.from({ length: 1 + this.int(2) }, () => this.pick(possible));
      return `{ __typename ${chosen.map((t) => `... on ${t.name} ${this.selection(t, depth, maxDepth)}`).join(' ')} }`;
    }
    const object = type as GraphQLObjectType;
    const fields = Object.values(object.getFields());
    const leaves = fields.filter((f) => isLeafType(getNamedType(f.type)) && !f.args.some((a) => isNonNullType(a.type)));
    const parts = ['__typename'];
    for (let i = 0; i < 1 + this.int(4) && leaves.length; i++) parts.push(this.pick(leaves).name);
    if (depth < maxDepth) {
      const composite = fields.filter((f) => !isLeafType(getNamedType(f.type)));
      for (let i = 0; i < this.int(3) && composite.length; i++) {
        const field = this.pick(composite);
        parts.push(
          `${field.name}${this.inlineArgs(field.args)} ${this.selection(getNamedType(field.type), depth + 1, maxDepth)}`,
        );
      }
    }
    return `{ ${[...new Set(parts)].join(' ')} }`;
  }

  private inlineArgs(args: readonly GraphQLArgument[]): string {
    const given = args.filter((a) => isNonNullType(a.type) || this.chance(0.4));
    if (!given.length) return '';
    return `(${given.map((a) => `${a.name}: ${literal(this.value(a.type, a.name))}`).join(', ')})`;
  }

  /** A random operation on a root field, its arguments passed as variables. */
  operation(kind: 'query' | 'mutation' = 'query'): {
    query: string;
    variables: Record<string, unknown>;
    defs: Array<[string, GraphQLInputType]>;
  } {
    const root = kind === 'query' ? this.schema.getQueryType()! : this.schema.getMutationType()!;
    const field: GraphQLField<unknown, unknown> = this.pick(Object.values(root.getFields()));
    const given = field.args.filter((a) => isNonNullType(a.type) || this.chance(0.6));
    const defs = given.map((a) => [a.name, a.type] as [string, GraphQLInputType]);
    const variables = Object.fromEntries(given.map((a) => [a.name, this.value(a.type, a.name)]));
    const head = defs.length ? `(${defs.map(([n, t]) => `$${n}: ${String(t)}`).join(', ')})` : '';
    const args = defs.length ? `(${defs.map(([n]) => `${n}: $${n}`).join(', ')})` : '';
    const body = `${field.name}${args} ${this.selection(getNamedType(field.type), 1, 2 + this.int(3))}`;
    const name = `F${this.int(1e6)}`;
    const directive = this.chance(0.2) ? ` @include(if: ${this.chance(0.5)})` : '';
    return { query: `${kind} ${name}${head} { ${body.replace(/^(\w+)/, `$1${directive}`)} }`, variables, defs };
  }

  private post(kind: string, payload: unknown, headers: Record<string, string> = {}): FuzzRequest {
    return {
      kind,
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
    };
  }

  /** The next request: mostly valid operations, a third hostile ones of every kind. */
  next(): FuzzRequest {
    const accept: Record<string, string> = this.chance(0.5) ? { accept: 'application/graphql-response+json' } : {};
    // Some requests as a signed-in customer (carts, viewer), a few with a token the service does not know.
    const token = this.rnd();
    if (token < 0.15) accept.authorization = 'Bearer alice-cart';
    else if (token < 0.2) accept.authorization = 'Bearer forged-token';
    // Any Accept-Encoding, sensible or not: it changes the coding of an answer, never its outcome (a refusal of
    // every coding is a 406 problem, JSON like every other answer).
    if (this.chance(0.3)) accept['accept-encoding'] = this.pick(ACCEPT_ENCODINGS);
    // Previews asked for rightly and wrongly: never a server fault, never an answer a shared cache may keep.
    if (this.chance(0.08)) accept.preview = this.pick(PREVIEW_VALUES);
    if (this.chance(0.08)) accept['preview-token'] = this.previewToken();
    const roll = this.rnd();
    if (roll < 0.55) return this.post('valid query', this.operation('query'), accept);
    if (roll < 0.6) return this.post('valid mutation', this.operation('mutation'), accept);
    const hostile = this.int(19);
    const op = this.operation();
    switch (hostile) {
      case 0: {
        if (!op.defs.length) return this.post('unknown operation name', { query: op.query, operationName: 'Nope' });
        const [name, type] = this.pick(op.defs);
        return this.post(
          'wrong variable type',
          { query: op.query, variables: { ...op.variables, [name]: this.wrongValue(type) } },
          accept,
        );
      }
      case 1: {
        const forged = this.cursors.length ? this.forge(this.pick(this.cursors)) : 'eyJ4IjoxfQ';
        const head = this.pick(['pages(', 'articles(', 'searchArticles(query: "article", ']);
        const query = `query($a: String) { ${head}first: 3, after: $a) { edges { cursor node { id } } } }`;
        return this.post('forged cursor', { query, variables: { a: forged } }, accept);
      }
      case 2: {
        const foreign = this.cursors.length ? this.pick(this.cursors) : null;
        const query = `query($a: String) { page(id: "${this.pick(this.ids)}") { issues(first: 2, after: $a) { edges { cursor node { id } } } } }`;
        return this.post('foreign cursor', { query, variables: { a: foreign } }, accept);
      }
      case 3:
        return this.post('unknown operation name', {
          query: op.query,
          variables: op.variables,
          operationName: this.pick(['Nope', '', '__proto__', 'x'.repeat(300)]),
        });
      case 4: {
        const k = 3 + this.int(8);
        const query = `{ page(id: "${this.pick(this.ids)}") { ${'issues(first: 1) { edges { node { page { '.repeat(k)}id${' } } } }'.repeat(k)} } }`;
        return this.post('deep selection', { query }, accept);
      }
      case 5: {
        const n = 40 + this.int(400);
        return this.post(
          'wide selection',
          { query: `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }` },
          accept,
        );
      }
      case 6:
        return this.post('huge body', { query: `{ __typename } # ${'x'.repeat(1_100_000 + this.int(100_000))}` });
      case 7:
        return {
          kind: 'huge URL',
          method: 'GET',
          path: `/graphql?query=${encodeURIComponent(`{ __typename } #${'y'.repeat(2_000 + this.int(80_000))}`)}`,
          headers: { 'apollo-require-preflight': '1' },
        };
      case 8:
        return this.post(
          'malformed JSON',
          this.pick([
            '{"query": ',
            '{',
            'null',
            '"string"',
            '123',
            '[]',
            '{"query": 5}',
            '{"query": "{ __typename }", "variables": "x"}',
            '{"query": "{ __typename }", "extensions": 7}',
            '',
          ]),
        );
      case 9:
        return {
          kind: 'wrong media type',
          method: 'POST',
          path: '/graphql',
          headers: { 'content-type': this.pick(['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) },
          body: JSON.stringify({ query: op.query }),
        };
      case 10:
        if (this.chance(0.3))
          return this.post(
            'body not matching its encoding',
            { query: op.query },
            { 'content-encoding': this.pick(['gzip', 'deflate', 'br', 'compress']) },
          );
        return this.post('batch', [{ query: op.query }, { query: '{ __typename }' }]);
      case 11:
        return {
          kind: 'GET operation',
          method: 'GET',
          path: `/graphql?query=${encodeURIComponent(op.query)}&variables=${encodeURIComponent(this.chance(0.3) ? '{bad' : JSON.stringify(op.variables))}${this.chance(0.2) ? `&previewToken=${encodeURIComponent(this.previewToken())}` : ''}`,
          headers: this.chance(0.5) ? { 'apollo-require-preflight': '1' } : {},
        };
      case 12:
        return this.post('syntax error', { query: op.query.slice(0, this.int(op.query.length)) });
      case 13: {
        const rest = this.rest();
        const coding = accept['accept-encoding'];
        return coding === undefined ? rest : { ...rest, headers: { ...rest.headers, 'accept-encoding': coding } };
      }
      case 14: {
        // Variables nested around the limit (64 levels, the variables object the first) and far past it.
        const over = this.chance(0.6);
        const depth = over ? this.pick([65, 66, 200, 5_000, 20_000]) : 1 + this.int(64);
        const nested = `${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}`;
        const kind = over ? 'deeply nested variables (over the limit)' : 'nested variables (within the limit)';
        const query = this.pick([
          '{ __typename }',
          `query($x: [ID!]) { nodes(ids: ["${this.pick(this.ids)}"]) { id } }`,
          op.query,
        ]);
        if (this.chance(0.3)) {
          return {
            kind,
            method: 'GET',
            path: `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(`{"x":${nested}}`)}`,
            headers: { 'apollo-require-preflight': '1', ...accept },
          };
        }
        return this.post(kind, `{"query":${JSON.stringify(query)},"variables":{"x":${nested}}}`, accept);
      }
      case 15: {
        // The router matches /graphql in any case and with a trailing slash: the cache must treat those as GraphQL too.
        const path = this.pick(['/GRAPHQL', '/graphql/', '/GraphQL/', '/Graphql']);
        return { ...this.post('odd-case /graphql path', this.operation('query'), accept), path };
      }
      case 16: {
        // A category page by itself: by id, by slug, both or neither, its products paged with a cursor seen
        // anywhere (foreign), forged, or none; or the same cursor on every category of the list at once.
        const by = this.pick(['id', 'slug', 'both', 'neither']);
        const slug = by === 'slug' || by === 'both' ? this.value(GraphQLString, 'slug') : undefined;
        const args = [
          by === 'id' || by === 'both' ? `id: "${this.pick(this.ids)}"` : '',
          slug === undefined ? '' : 'slug: $slug',
          `lang: "${this.pick(['de', 'en', 'fr'])}"`,
        ].filter(Boolean);
        const after =
          this.cursors.length && this.chance(0.7)
            ? this.chance(0.5)
              ? this.pick(this.cursors)
              : this.forge(this.pick(this.cursors))
            : null;
        const products = `products(first: ${1 + this.int(3)}, after: $after) { totalCount edges { cursor node { id } } pageInfo { endCursor hasNextPage } }`;
        if (this.chance(0.3))
          return this.post(
            'category page',
            { query: `query($after: String) { productCategories { id ${products} } }`, variables: { after } },
            accept,
          );
        const head = slug === undefined ? '$after: String' : '$slug: String, $after: String';
        const query = `query(${head}) { productCategory(${args.join(', ')}) { id slug ${products} } }`;
        return this.post(
          'category page',
          { query, variables: slug === undefined ? { after } : { slug, after } },
          accept,
        );
      }
      case 17:
        return this.byId(op.query, accept);
      default:
        return this.post('subscription over HTTP', { query: 'subscription S { __typename }' }, accept);
    }
  }

  /**
   * A document named by id (`documentId`, an APQ `extensions.persistedQuery`) rather than sent, or beside the text:
   * well-formed ids nobody registered, malformed ones, ids that are not the text's, extensions of every shape.
   */
  private byId(query: string, accept: Record<string, string>): FuzzRequest {
    const hash = createHash('sha256').update(query).digest('hex');
    const documentId = this.pick<unknown>([
      `sha256:${hash}`,
      `sha256:${createHash('sha256').update(String(this.rnd())).digest('hex')}`,
      `sha256:${hash.toUpperCase()}`,
      `sha256:${hash.slice(1)}`,
      'sha256:',
      'md5:0123',
      'x-custom:abc',
      createHash('sha1').update(query).digest('hex'),
      'a'.repeat(300),
      '../../etc/passwd',
      'ünïcode',
      '',
      7,
      null,
      [],
      { $gt: '' },
      undefined,
    ]);
    const extensions = this.pick<unknown>([
      undefined,
      { persistedQuery: { version: 1, sha256Hash: hash } },
      { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } },
      { persistedQuery: { version: 2, sha256Hash: hash } },
      { persistedQuery: { version: 1, sha256Hash: 5 } },
      { persistedQuery: 7 },
      { persistedQuery: null },
      { __proto__: { persistedQuery: 1 } },
      'extensions as a string',
      [],
    ]);
    const params: Record<string, unknown> = { documentId, extensions };
    if (this.chance(0.3)) params.query = this.chance(0.5) ? query : '{ __typename }';
    if (this.chance(0.2)) params.operationName = this.pick(['', 'Nope', '__proto__']);
    if (this.chance(0.4)) {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) {
        if (value === undefined) continue;
        search.append(name, typeof value === 'string' ? value : JSON.stringify(value));
        if (name === 'documentId' && this.chance(0.1)) search.append(name, 'sha256:' + hash);
      }
      return {
        kind: 'document by id (GET)',
        method: 'GET',
        path: `/graphql?${search.toString()}`,
        headers: { 'apollo-require-preflight': '1', ...accept },
      };
    }
    return this.post('document by id', params, accept);
  }

  /** A REST shim called with odd values: numbers out of range, repeated or bracketed parameters, odd paths and bodies. */
  private rest(): FuzzRequest {
    const odd = () =>
      this.pick([
        '0',
        '-1',
        '1e309',
        'NaN',
        '99999999999999999999',
        '',
        '%00',
        'x'.repeat(300),
        'x'.repeat(3000),
        '1.5',
        this.pick(this.ids),
      ]);
    const id = encodeURIComponent(this.chance(0.7) ? this.pick(this.ids) : odd());
    const json = { 'content-type': 'application/json' };
    const body = () =>
      JSON.stringify(
        this.pick([
          {},
          { cartId: odd(), couponId: odd() },
          { email: odd(), key: odd() },
          [],
          { $where: 1 },
          { email: 'a@example.com', key: 'k', extra: 1 },
        ]),
      );
    return this.pick<FuzzRequest>([
      {
        kind: 'REST',
        method: 'GET',
        path: `/cms/page/${id}/issues?page=${encodeURIComponent(odd())}&limit=${encodeURIComponent(odd())}`,
        headers: {},
      },
      {
        kind: 'REST preview',
        method: 'GET',
        path: `/cms/page/${id}/issues?previewToken=${encodeURIComponent(this.previewToken())}${this.chance(0.3) ? '&previewToken=x' : ''}`,
        headers: this.chance(0.5) ? { preview: this.pick(PREVIEW_VALUES) } : {},
      },
      { kind: 'REST', method: 'GET', path: `/cms/page/${id}/issues?page[$gt]=1&limit=2&limit=3`, headers: {} },
      {
        kind: 'REST',
        method: 'GET',
        path: `/cms/product/categories?parentId=${id}&featured=${encodeURIComponent(odd())}&lang=${encodeURIComponent(odd())}&includeProducts=${encodeURIComponent(odd())}`,
        headers: {},
      },
      {
        kind: 'REST',
        method: 'GET',
        // Paging alone, each value odd or in range, so some requests get past validation to the store.
        path: `/cms/product/categories?${[
          ['page', this.chance(0.5) ? String(1 + this.int(4)) : odd()],
          ['limit', this.chance(0.5) ? String(1 + this.int(100)) : odd()],
          ['productsLimit', this.chance(0.5) ? String(1 + this.int(100)) : odd()],
        ]
          .filter(() => this.chance(0.8))
          .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
          .join('&')}`,
        headers: {},
      },
      {
        kind: 'REST',
        method: 'GET',
        path: `/cms/product/categories?page[$gt]=1&limit=2&limit=3&productsLimit[$ne]=1`,
        headers: {},
      },
      {
        kind: 'REST',
        method: 'POST',
        path: `/cms/channel/${encodeURIComponent(odd())}/activate_subscription`,
        headers: json,
        body: body(),
      },
      {
        kind: 'REST',
        method: 'DELETE',
        path: `/cms/customer/coupon/remove?cartId=${id}`,
        headers: { ...json, authorization: 'Bearer alice-cart' },
        body: body(),
      },
      {
        kind: 'REST',
        method: this.pick(['PUT', 'PATCH', 'DELETE'] as const) as 'POST',
        path: `/cms/product/categories`,
        headers: {},
      },
    ]);
  }

  /** A preview token as a client might send one: garbage, empty, JWT-shaped but forged, huge. */
  previewToken(): string {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const header = part({ alg: this.pick(['HS256', 'none', 'RS256']), typ: 'preview+jwt' });
    const claims = part({
      jti: this.pick(this.ids),
      sub: this.pick(this.ids),
      kind: 'articles',
      exp: 4e9,
      aud: 'preview',
    });
    return this.pick([
      '',
      ' ',
      'garbage',
      `${header}.${claims}.`,
      `${header}.${claims}.${'A'.repeat(43)}`,
      `${header}.${part({ $ne: null })}.x`,
      'x'.repeat(this.int(5000)),
      'a.b.c',
    ]);
  }

  /** A cursor altered the ways a client might: a flipped byte, a swapped tag, a JSON payload with operators. */
  private forge(cursor: string): string {
    const [payload = '', tag = ''] = cursor.split('.');
    const operator = Buffer.from(
      JSON.stringify([0, [this.pick([{ $ne: null }, { $regex: '(' }, { $where: '1' }, { $foo: 1 }]), 'x']]),
    ).toString('base64url');
    return this.pick([
      `${payload.slice(0, -2)}AA.${tag}`,
      `${payload}.${tag.split('').reverse().join('')}`,
      operator,
      `${operator}.${tag}`,
      cursor.slice(0, this.int(cursor.length)),
      'A'.repeat(this.int(2000)),
    ]);
  }
}

function literal(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object')
    return `{ ${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${literal(v)}`)
      .join(', ')} }`;
  return JSON.stringify(value);
}
