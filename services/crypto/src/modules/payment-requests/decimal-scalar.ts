// GraphQL `Decimal`: an exact amount as a string. Output: Amount (or string) -> its plain decimal string.
// Input: strings only (a number literal or variable is refused, as the REST API refuses JSON numbers); the domain
// service validates the format with the same rules and messages as REST.
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { Amount } from '../../money/index.js';

const refuse = (): never => {
  throw new GraphQLError('Decimal values are strings such as "0.5", never numbers.');
};

export const DecimalScalar = new GraphQLScalarType({
  name: 'Decimal',
  description: 'Exact decimal amount serialised as a string.',
  serialize(value) {
    if (value instanceof Amount) return value.toString();
    if (typeof value === 'string') return value;
    return refuse();
  },
  parseValue(value) {
    return typeof value === 'string' ? value : refuse();
  },
  parseLiteral(ast) {
    return ast.kind === Kind.STRING ? ast.value : refuse();
  },
});
