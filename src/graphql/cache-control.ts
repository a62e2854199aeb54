// Cache hints: an answer's max age is the smallest of its fields' `@cacheControl` hints, public reads default to
// CACHE_MAX_AGE, and fields marked `@cacheControl(maxAge: 0)` make an answer uncacheable.
//
// `@cacheControl(scope: PRIVATE)` marks a per-viewer field: its value depends on which signed-in customer asks
// (`viewer`, carts, a poll's `voted`) beyond their entitlements. A signed-in reader's query without such a field
// is answered `max-age=N, private` and may be shared with readers holding the same active entitlements (never
// with a shared cache, never past the first of those entitlements' end); with one it is `no-store`. Anonymous
// readers have no viewer, so for them the marker changes nothing and their answers stay public. The marker is
// backed at run time (src/cache/shared-viewer.ts): a field that reads who the viewer is without it makes its answer
// `no-store` all the same.
//
// Apollo's own cache-control plugin computes the same policy while the operation runs, through `willResolveField`,
// which makes Apollo wrap every resolver of the schema (one closure and policy object per resolved field). Our
// hints are all static (no resolver sets one), so the policy is a function of the operation alone: it is computed
// once per parsed document here, from the same directives with the same rules, and Apollo's plugin is disabled.
// Unlike Apollo's, it counts every field the operation selects, not only those a given answer reached (a field
// under a null parent, an empty list), so one query always gets one policy, never a longer one.
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import {
  DirectiveLocation,
  getNamedType,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLEnumType,
  GraphQLInt,
  isCompositeType,
  Kind,
  type ConstDirectiveNode,
  type DocumentNode,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import type { Context } from '../context.js';
import { forEachSelectedField } from './selection.js';
import { entitlementsOnlyViewer } from '../cache/shared-viewer.js';
import { PREVIEW_VARY } from '../cache/cacheable.js';

const CacheControlScope = new GraphQLEnumType({
  name: 'CacheControlScope',
  description: 'Whom a cached answer may be shared with',
  values: {
    PUBLIC: { description: 'The same for every reader with the same entitlements (the default)' },
    PRIVATE: {
      description: "Depends on which signed-in customer asks: a signed-in reader's answer holding it is not cached",
    },
  },
});

/** The directive the policy is read from (declared so the SDL is valid). */
export const cacheControlDirective = new GraphQLDirective({
  name: 'cacheControl',
  description: 'How long (seconds) an answer containing this field may be cached, and by whom',
  locations: [
    DirectiveLocation.FIELD_DEFINITION,
    DirectiveLocation.OBJECT,
    DirectiveLocation.INTERFACE,
    DirectiveLocation.UNION,
  ],
  args: {
    maxAge: { type: GraphQLInt, description: 'Seconds the answer may be cached; 0 makes it uncacheable' },
    scope: { type: CacheControlScope, description: 'PRIVATE for a field whose value depends on which customer asks' },
    inheritMaxAge: { type: GraphQLBoolean, description: "Take the parent field's max age instead of the default" },
  },
});

/** A hint as Apollo's plugins speak it (its type lives in a package we do not depend on directly). */
export interface CacheHint {
  maxAge?: number;
  scope?: 'PUBLIC' | 'PRIVATE';
}

interface Annotation extends CacheHint {
  inheritMaxAge?: boolean;
}

function annotationFrom(directives: readonly ConstDirectiveNode[] | undefined): Annotation | undefined {
  const directive = directives?.find((d) => d.name.value === 'cacheControl');
  if (!directive) return undefined;
  const arg = (name: string) => directive.arguments?.find((a) => a.name.value === name)?.value;
  const scopeNode = arg('scope');
  const scope =
    scopeNode?.kind === Kind.ENUM && (scopeNode.value === 'PUBLIC' || scopeNode.value === 'PRIVATE')
      ? scopeNode.value
      : undefined;
  const inherit = arg('inheritMaxAge');
  if (inherit?.kind === Kind.BOOLEAN && inherit.value) return { inheritMaxAge: true, scope };
  const maxAge = arg('maxAge');
  return { maxAge: maxAge?.kind === Kind.INT ? Number.parseInt(maxAge.value, 10) : undefined, scope };
}

function typeAnnotation(type: GraphQLNamedType): Annotation {
  return (
    annotationFrom(type.astNode?.directives) ??
    type.extensionASTNodes.map((n) => annotationFrom(n.directives)).find(Boolean) ??
    {}
  );
}

/** A policy being narrowed: the smallest max age, and PRIVATE as soon as one field says so. */
class Policy {
  maxAge: number | undefined;
  scope: 'PUBLIC' | 'PRIVATE' | undefined;

  replace(hint: CacheHint): void {
    if (hint.maxAge !== undefined) this.maxAge = hint.maxAge;
    if (hint.scope !== undefined) this.scope = hint.scope;
  }

  restrict(hint: CacheHint): void {
    if (hint.maxAge !== undefined && (this.maxAge === undefined || hint.maxAge < this.maxAge))
      this.maxAge = hint.maxAge;
    if (hint.scope === 'PRIVATE') this.scope = 'PRIVATE';
  }
}

/**
 * The cache policy of one operation of `document`, by the rules of Apollo's cache-control plugin: a field's hint
 * is its return type's, overridden by its own; root fields and fields returning objects without a max age get
 * `defaultMaxAge` unless they inherit their parent's; scalar fields without a hint add nothing.
 */
export function operationCachePolicy(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  defaultMaxAge: number,
): CacheHint {
  const overall = new Policy();
  const found = forEachSelectedField(schema, document, operationName, (_parent, field, atRoot) => {
    const policy = new Policy();
    const target = getNamedType(field.type);
    let inherits = false;
    if (isCompositeType(target)) {
      const annotation = typeAnnotation(target);
      policy.replace(annotation);
      inherits = Boolean(annotation.inheritMaxAge);
    }
    const own = annotationFrom(field.astNode?.directives) ?? {};
    if (own.inheritMaxAge && policy.maxAge === undefined) {
      inherits = true;
      if (own.scope) policy.replace({ scope: own.scope });
    } else {
      policy.replace(own);
    }
    if (policy.maxAge === undefined && ((isCompositeType(target) && !inherits) || atRoot))
      policy.restrict({ maxAge: defaultMaxAge });
    overall.restrict(policy);
  });
  return found ? { maxAge: overall.maxAge, scope: overall.scope } : { maxAge: 0 };
}

const CACHEABLE_HEADER = /^max-age=(\d+), (public|private)$/;

export function cacheControlPlugins(defaultMaxAge: number): ApolloServerPlugin<Context>[] {
  // Parsed documents are reused by Apollo's document store, so a repeated query finds its policy here.
  const policies = new WeakMap<DocumentNode, Map<string, CacheHint>>();
  const policyOf = (
    schema: GraphQLSchema,
    document: DocumentNode,
    operationName: string | null | undefined,
  ): CacheHint => {
    let byName = policies.get(document);
    if (!byName) policies.set(document, (byName = new Map()));
    const key = operationName ?? '';
    let policy = byName.get(key);
    if (!policy) byName.set(key, (policy = operationCachePolicy(schema, document, operationName, defaultMaxAge)));
    return policy;
  };

  const staticPolicy: ApolloServerPlugin<Context> = {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operationName, operation, overallCachePolicy, contextValue }) {
          const policy = policyOf(schema, document, operationName);
          overallCachePolicy.restrict({ maxAge: policy.maxAge });
          const viewer = contextValue.viewer;
          if (!contextValue.authenticated) return;
          if (!viewer || policy.scope === 'PRIVATE' || operation?.operation !== 'query') {
            overallCachePolicy.restrict({ maxAge: 0 });
            return;
          }
          contextValue.http.shared = { personal: false };
          contextValue.viewer = entitlementsOnlyViewer(viewer, contextValue.now, contextValue.http.shared);
        },
        async willSendResponse({ response, overallCachePolicy, contextValue }) {
          const shared = contextValue.http.shared;
          if (shared?.personal) {
            if (shared.readBy)
              contextValue.log.warn(
                { read: shared.readBy, operation: contextValue.http.operationName },
                'a field without the per-viewer marker read the viewer: answer not shared',
              );
            overallCachePolicy.restrict({ maxAge: 0 });
          }
          // An answer that read the reader's entitlements must not outlive the first of them.
          const until = shared?.active?.until;
          if (until != null)
            overallCachePolicy.restrict({
              maxAge: Math.max(0, Math.floor((until - contextValue.now.getTime()) / 1000)),
            });
          // As Apollo's plugin does: a header already set by the request is narrowed, never widened.
          const existing = response.http.headers.get('cache-control');
          const match = existing ? CACHEABLE_HEADER.exec(existing) : null;
          if (existing && existing !== 'no-store' && !match) return;
          const policy = new Policy();
          policy.replace(overallCachePolicy);
          if (match) policy.restrict({ maxAge: Number(match[1]), scope: match[2] === 'public' ? 'PUBLIC' : 'PRIVATE' });
          const cacheable = existing !== 'no-store' && policy.maxAge !== undefined && policy.maxAge > 0;
          const single = response.body.kind === 'single' && !response.body.singleResult.errors;
          // Scope follows the reader: anything answered to a token is private, anonymous answers are public.
          const scope = contextValue.authenticated || match?.[2] === 'private' ? 'private' : 'public';
          response.http.headers.set(
            'cache-control',
            cacheable && single ? `max-age=${policy.maxAge}, ${scope}` : 'no-store',
          );
          // One URL answers anonymous readers publicly, signed-in ones privately and previews not at all: caches must
          // tell them apart.
          if (cacheable && single) {
            const vary = response.http.headers.get('vary');
            const missing = PREVIEW_VARY.filter((name) => !vary?.toLowerCase().includes(name.toLowerCase()));
            if (missing.length > 0) response.http.headers.set('vary', [vary, ...missing].filter(Boolean).join(', '));
          }
        },
      };
    },
  };
  return [ApolloServerPluginCacheControlDisabled(), staticPolicy];
}
