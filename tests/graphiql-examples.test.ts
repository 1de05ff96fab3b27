// Every example tab of every GraphiQL page is one named operation, valid (with its variables) against the schema the
// page's endpoint serves: each service's against its subgraph SDL (schema/subgraphs), the gateway's against the
// supergraph's API schema. A schema change that breaks an example fails here.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApolloGateway } from '@apollo/gateway';
import { buildSubgraphSchema } from '@apollo/subgraph';
import * as bnpl from '@tributary/bnpl';
import * as crypto from '@tributary/crypto';
import { GATEWAY_GRAPHIQL_EXAMPLES } from '@tributary/gateway';
import { loadTypeDefs, type GraphiqlExample } from '@tributary/kit';
import * as photos from '@tributary/photos';
import { readSupergraphSdl, subgraphSdlPath } from '@tributary/schema';
import type { ServiceName } from '@tributary/workflows';
import { Kind, getVariableValues, parse, validate, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';

/** Every problem of `examples` against `schema`, as `<operation>: <message>`; empty when all are valid. */
function problemsOf(examples: readonly GraphiqlExample[], schema: GraphQLSchema): string[] {
  return examples.flatMap((example, index) => {
    const document = parse(example.query);
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const name = operations[0]?.name?.value ?? `example ${index + 1}`;
    if (operations.length !== 1 || !operations[0]!.name) return [`${name}: must be exactly one named operation (its name is the tab's title)`];
    const errors = [...validate(schema, document), ...(getVariableValues(schema, operations[0]!.variableDefinitions ?? [], example.variables ?? {}).errors ?? [])];
    return errors.map((error) => `${name}: ${error.message}`);
  });
}

const subgraphExamples: Record<ServiceName, readonly GraphiqlExample[]> = {
  bnpl: bnpl.GRAPHIQL_EXAMPLES,
  crypto: crypto.GRAPHIQL_EXAMPLES,
  photos: photos.GRAPHIQL_EXAMPLES,
};

describe('GraphiQL example queries', () => {
  it.each(Object.keys(subgraphExamples) as ServiceName[])('%s: valid against its subgraph SDL', (name) => {
    const schema = buildSubgraphSchema({ typeDefs: loadTypeDefs(subgraphSdlPath(name)) });
    expect(subgraphExamples[name].length).toBeGreaterThan(0);
    expect(problemsOf(subgraphExamples[name], schema)).toEqual([]);
  });

  describe('gateway', () => {
    let gateway: ApolloGateway;
    let apiSchema: GraphQLSchema;
    beforeAll(async () => {
      gateway = new ApolloGateway({ supergraphSdl: readSupergraphSdl() });
      apiSchema = (await gateway.load()).schema;
    });
    afterAll(async () => {
      await gateway?.stop();
    });

    it('valid against the supergraph API schema, one of them touching all three subgraphs', () => {
      expect(problemsOf(GATEWAY_GRAPHIQL_EXAMPLES, apiSchema)).toEqual([]);
      const rootFields = (example: GraphiqlExample) =>
        (parse(example.query).definitions[0] as OperationDefinitionNode).selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
      expect(GATEWAY_GRAPHIQL_EXAMPLES.map(rootFields)).toContainEqual(expect.arrayContaining(['bnplMerchant', 'cryptoAccount', 'photosTeam']));
    });

    it('a broken example is reported by name (the check can fail)', () => {
      const broken = [{ query: 'query Broken($page: Int) {\n  cryptoAccount {\n    nope\n  }\n}\n', variables: { page: 'one' } }, { query: '{ photosTeam { id } }' }];
      expect(problemsOf(broken, apiSchema)).toEqual([
        'Broken: Cannot query field "nope" on type "CryptoAccount". Did you mean "name"?',
        'Broken: Variable "$page" is never used in operation "Broken".',
        'Broken: Variable "$page" got invalid value "one"; Int cannot represent non-integer value: "one"',
        "example 2: must be exactly one named operation (its name is the tab's title)",
      ]);
    });
  });
});
