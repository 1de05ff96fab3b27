// The limits every /graphql applies before an operation runs: the gateway's and each service's own subgraph, which is
// reachable on the service's public port. The schemas have cycles (project ↔ photos, payment request ↔ deliveries), so
// without them one request could nest those cycles without end.
//
// The gateway's query-plan fetches must never be refused by a subgraph for an operation the gateway accepted. Every
// supergraph type belongs to one subgraph, so a fetch is the client's selection of that subgraph's root fields: the
// planner drops what other subgraphs answer, inlines a fragment used once and keeps one used more often, and adds no
// field, alias or directive. Both fragment forms count as their expansion here (flattenFragments: a fragment adds no
// depth, and costs at least what its inlined fields cost), so each measure of a fetch is at most the client's. An
// `_entities` fetch (`_entities { ... on T { … } }`) starts below the field that returned T, so with flattened
// fragments it is no deeper than the client's selection under that field. Its cost is another matter: `_entities` and
// the fragment add 4, and the fetch to the subgraph that returned T adds T's key fields, so a client operation at the
// cost limit could yield a fetch just over it. No such fetch exists while no type spans two subgraphs
// (tests/graphql-limits.test.ts fails when one does).
import type { ApolloServerOptions, ApolloServerPlugin, BaseContext } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { GraphQLArmorRejectCallback } from '@escape.tech/graphql-armor-types';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { GraphqlLimitsConfig } from '../config/index.js';

/** The `extensions.code` of each limit's refusal (HTTP 400). */
export const GRAPHQL_LIMIT_CODES = {
  depth: 'QUERY_TOO_DEEP',
  cost: 'QUERY_TOO_COSTLY',
  aliases: 'TOO_MANY_ALIASES',
  directives: 'TOO_MANY_DIRECTIVES',
  tokens: 'TOO_MANY_TOKENS',
} as const;

/** The extension a refusal carries until formatError turns it into extensions.code. */
const LIMIT_CODE = 'limitCode';

/** graphql-js's own refusal when parseOptions.maxTokens is passed (its wording has read "more that"). */
const TOKEN_LIMIT_PARSE_ERROR = /^Syntax Error: Document contains more tha[nt] \d+ tokens\. Parsing aborted\.$/;

export const tokenLimitMessage = (maxTokens: number) => `Token limit of ${maxTokens} exceeded.`;

export interface GraphqlLimits {
  /** Spread into the ApolloServer options (its own plugins go after `plugins`). */
  options: Required<Pick<ApolloServerOptions<BaseContext>, 'validationRules' | 'parseOptions' | 'allowBatchedHttpRequests'>>;
  /** graphql-armor's plugins (field suggestions masked in every error). */
  plugins: ApolloServerPlugin<BaseContext>[];
  /** Gives a refusal its limit's extensions.code instead of Apollo's GRAPHQL_VALIDATION_FAILED / GRAPHQL_PARSE_FAILED. */
  formatError(formatted: GraphQLFormattedError): GraphQLFormattedError;
}

/** A refusal reported as a validation error carrying its code (armor's own would throw a bare syntax error). */
function refuseWith(code: string): GraphQLArmorRejectCallback[] {
  return [(ctx, error) => ctx?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { extensions: { [LIMIT_CODE]: code } }))];
}

export function graphqlLimits(config: GraphqlLimitsConfig): GraphqlLimits {
  const refusal = { propagateOnRejection: false } as const;
  const armor = new ApolloArmor({
    maxDepth: { n: config.GRAPHQL_MAX_DEPTH, flattenFragments: true, ...refusal, onReject: refuseWith(GRAPHQL_LIMIT_CODES.depth) },
    costLimit: { maxCost: config.GRAPHQL_MAX_COST, flattenFragments: true, ...refusal, onReject: refuseWith(GRAPHQL_LIMIT_CODES.cost) },
    maxAliases: { n: config.GRAPHQL_MAX_ALIASES, ...refusal, onReject: refuseWith(GRAPHQL_LIMIT_CODES.aliases) },
    maxDirectives: { n: config.GRAPHQL_MAX_DIRECTIVES, ...refusal, onReject: refuseWith(GRAPHQL_LIMIT_CODES.directives) },
    // graphql-armor's token check runs beside Apollo's parse and cannot refuse without throwing (a 500); graphql-js's
    // parser counts the same tokens and stops at the limit itself (parseOptions.maxTokens below).
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: true },
  }).protect();
  return {
    options: { validationRules: armor.validationRules, parseOptions: { maxTokens: config.GRAPHQL_MAX_TOKENS }, allowBatchedHttpRequests: false },
    // graphql-armor's types come from @apollo/server's CJS declarations; the plugins are the same at runtime.
    plugins: armor.plugins as unknown as ApolloServerPlugin<BaseContext>[],
    formatError: (formatted) => withLimitCode(formatted, config.GRAPHQL_MAX_TOKENS),
  };
}

function withLimitCode(formatted: GraphQLFormattedError, maxTokens: number): GraphQLFormattedError {
  const { [LIMIT_CODE]: limitCode, ...extensions } = formatted.extensions ?? {};
  if (typeof limitCode === 'string') return { ...formatted, extensions: { ...extensions, code: limitCode } };
  if (extensions.code === 'GRAPHQL_PARSE_FAILED' && TOKEN_LIMIT_PARSE_ERROR.test(formatted.message)) {
    return { ...formatted, message: tokenLimitMessage(maxTokens), extensions: { ...extensions, code: GRAPHQL_LIMIT_CODES.tokens } };
  }
  return formatted;
}
