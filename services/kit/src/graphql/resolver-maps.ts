// Helpers for resolver maps: merging several modules' maps into the subgraph's one map (a shallow spread would let a
// second module's `Query` or `Mutation` replace the first's; merging per type keeps every field, and a field defined
// twice is a startup error), and mapping entity enum values to GraphQL enum values.

type ResolverMap = Record<string, unknown>;

/** `A | B | C` -> `A & B & C`: the merged map has every module's types and fields. */
type Merged<T> = (T extends unknown ? (value: T) => void : never) extends (value: infer M) => void ? M : never;

const isFieldMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** Merges modules' resolver maps type by type; throws naming `Type.field` when two modules define the same field. */
export function mergeResolvers<const T extends readonly object[]>(...maps: T): Merged<T[number]> {
  const merged: ResolverMap = {};
  for (const map of maps) {
    for (const [typeName, resolvers] of Object.entries(map as ResolverMap)) {
      const existing = merged[typeName];
      if (existing === undefined) {
        merged[typeName] = isFieldMap(resolvers) ? { ...resolvers } : resolvers;
        continue;
      }
      // A scalar (GraphQLScalarType) or any other non-map value may be given only once.
      if (!isFieldMap(existing) || !isFieldMap(resolvers)) throw new Error(`mergeResolvers: ${typeName} is defined twice`);
      for (const [field, resolver] of Object.entries(resolvers)) {
        if (field in existing) throw new Error(`mergeResolvers: ${typeName}.${field} is defined twice`);
        existing[field] = resolver;
      }
    }
  }
  return merged as Merged<T[number]>;
}

/** Entity enum value -> GraphQL enum value; `fromGraphql` maps an argument's value back. */
export interface EnumMapping<TEntity extends string, TGraphQL extends string> {
  (value: TEntity): TGraphQL;
  fromGraphql(value: TGraphQL): TEntity;
}

/**
 * Maps an entity's enum values (lower-case in the database) to its GraphQL enum's values, and arguments back. The
 * Record makes the mapping exhaustive: an entity value without a GraphQL counterpart, or a value the SDL lacks, fails
 * to typecheck.
 */
export function enumMapping<TEntity extends string, TGraphQL extends string>(values: Readonly<Record<TEntity, TGraphQL>>): EnumMapping<TEntity, TGraphQL> {
  const entityValues = new Map(Object.entries(values).map(([entity, graphql]) => [graphql as TGraphQL, entity as TEntity]));
  return Object.assign((value: TEntity) => values[value], { fromGraphql: (value: TGraphQL) => entityValues.get(value)! });
}
