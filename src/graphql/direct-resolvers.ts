// Calls our resolver methods directly instead of through type-graphql's generic handler. For every call that
// handler builds a resolver-data object, looks the class instance up in its container, sorts and maps the
// parameter list, runs the (empty) middleware chain, and turns any `@Arg` into a promise (its validation step is
// async even with validation off): one more promise and a microtask per resolved field. The nested query calls
// field resolvers a few hundred times per answer. Where a resolver's parameters are only `@Root`, `@Ctx`,
// `@Info` and scalar `@Arg`s, and it has no middlewares or roles (we use neither), its schema field gets a
// function that passes exactly those values. Anything else (`@Args` classes, input objects, subscriptions,
// mutations) stays with type-graphql.
import {
  getNamedType,
  isLeafType,
  isObjectType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type ParamMetadata = ReturnType<typeof getMetadataStorage>['params'][number];
type Resolver = GraphQLFieldResolver<unknown, unknown, Record<string, unknown>>;
/** A resolver class: type-graphql's metadata records it as its constructor, which takes no arguments. */
type ResolverClass = new () => ResolverInstance;
/** A resolver class's instance: its methods by name. */
type ResolverInstance = Record<string, unknown>;
type ResolverFunction = (this: ResolverInstance, ...args: unknown[]) => unknown;

interface ResolverMethod {
  /** The resolver class (typed by type-graphql as any function). */
  target: object;
  methodName: string;
  params?: ParamMetadata[];
  middlewares?: unknown[];
  roles?: unknown[];
}

/** One argument of the call, from what graphql-js hands a resolver; undefined when type-graphql must handle it. */
function paramGetter(
  param: ParamMetadata,
  field: GraphQLField<unknown, unknown>,
): ((root: unknown, args: Record<string, unknown>, context: unknown, info: unknown) => unknown) | undefined {
  switch (param.kind) {
    case 'root': {
      if (param.getType) return undefined; // would be converted to a class instance (build-schema.ts clears these)
      const property = param.propertyName;
      return property ? (root) => (root as Record<string, unknown>)[property] : (root) => root;
    }
    case 'context': {
      const property = param.propertyName;
      return property
        ? (_r, _a, context) => (context as Record<string, unknown>)[property]
        : (_r, _a, context) => context;
    }
    case 'info':
      return (_r, _a, _c, info) => info;
    case 'arg': {
      // A scalar or enum argument reaches the method as graphql-js coerced it (type-graphql returns those as they are).
      const definition = field.args.find((a) => a.name === param.name);
      if (!definition || !isLeafType(getNamedType(definition.type))) return undefined;
      const name = param.name;
      return (_r, args) => args[name];
    }
    default:
      return undefined;
  }
}

function directResolver(
  method: ResolverMethod,
  field: GraphQLField<unknown, unknown>,
  instances: Map<object, ResolverInstance>,
): Resolver | undefined {
  if (method.middlewares?.length || method.roles?.length) return undefined;
  const params = [...(method.params ?? [])].sort((a, b) => a.index - b.index);
  const getters = params.map((p) => paramGetter(p, field));
  if (getters.some((g) => g === undefined) || params.some((p, i) => p.index !== i)) return undefined;
  let instance = instances.get(method.target);
  if (!instance) instances.set(method.target, (instance = new (method.target as ResolverClass)()));
  const found = instance[method.methodName];
  if (typeof found !== 'function') return undefined;
  const fn = found as ResolverFunction;
  const target = instance;
  const get = getters as Array<NonNullable<(typeof getters)[number]>>;
  switch (get.length) {
    case 1:
      return (root, args, context, info) => fn.call(target, get[0]!(root, args, context, info));
    case 2:
      return (root, args, context, info) =>
        fn.call(target, get[0]!(root, args, context, info), get[1]!(root, args, context, info));
    default:
      return (root, args, context, info) =>
        fn.apply(
          target,
          get.map((g) => g(root, args, context, info)),
        );
  }
}

/** Replaces type-graphql's handler on the Query fields and object-type field resolvers that qualify. */
export function useDirectResolvers(schema: GraphQLSchema): void {
  const storage = getMetadataStorage();
  const instances = new Map<object, ResolverInstance>();
  const replace = (typeName: string | undefined, fieldName: string, method: ResolverMethod): void => {
    const type = typeName ? schema.getType(typeName) : undefined;
    if (!isObjectType(type)) return;
    const field = type.getFields()[fieldName];
    if (!field?.resolve) return;
    const direct = directResolver(method, field, instances);
    if (direct) field.resolve = direct;
  };
  const queryType = schema.getQueryType()?.name;
  for (const query of storage.queries) replace(queryType, query.schemaName, query);
  for (const resolver of storage.fieldResolvers) {
    if (resolver.kind !== 'external' || !resolver.getObjectType) continue;
    const objectClass = resolver.getObjectType();
    replace(storage.objectTypes.find((t) => t.target === objectClass)?.name, resolver.schemaName, resolver);
  }
}
