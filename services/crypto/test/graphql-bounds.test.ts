// crypto's own /graphql (the service's public port) is bounded like the gateway: the kit's depth, cost and alias
// limits refuse an operation before anything runs; and every numeric argument is checked like its REST twin (the same
// bounds, the same field messages), as BAD_USER_INPUT that changes nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GRAPHQL_LIMIT_CODES, integerRangeMessage } from '@tributary/kit';
import { PaymentRequest } from '../src/modules/payment-requests/index.js';
import { createMerchant, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

let h: Harness;
let url: string;
let merchant: TestMerchant;
const auth = () => ({ authorization: `Bearer ${merchant.key}` });

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
  merchant = await createMerchant(h, 'Bounds Merchant');
  const created = await rest({ method: 'POST', path: '/api/merchant/v1/payment-requests', body: { asset_id: 1, title: 'Seed', amount: '0.001' } });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await h?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies under test

async function rest(request: RestRequest): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: { ...auth(), accept: 'application/json', ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** `levels` fields down payment request ↔ webhook deliveries below paymentRequests.data, ending in id: depth levels + 3. */
const deliveriesCycle = (levels: number): string => {
  const open = Array.from({ length: levels }, (_, i) => (i % 2 === 0 ? 'webhookDeliveries {' : 'paymentRequest {')).join(' ');
  return `{ paymentRequests { data { ${open} id ${'} '.repeat(levels)}} } }`;
};

describe('limits on crypto /graphql', () => {
  it('refuses an operation deeper than GRAPHQL_MAX_DEPTH (10) through payment request ↔ deliveries with QUERY_TOO_DEEP; 10 runs', async () => {
    const refused = await gql(url, deliveriesCycle(8), auth());
    // A validation refusal: the operation never executes, so no resolver and no SQL statement runs.
    expect(refused).toEqual({ status: 400, body: { errors: [{ message: 'Query depth limit of 10 exceeded, found 11.', extensions: { code: GRAPHQL_LIMIT_CODES.depth } }] } });
    const atLimit = await gql(url, deliveriesCycle(7), auth());
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.errors).toBeUndefined();
    expect(atLimit.body.data).toEqual({ paymentRequests: { data: [{ webhookDeliveries: [] }] } });
  });

  it('refuses more aliases than GRAPHQL_MAX_ALIASES (15) with TOO_MANY_ALIASES; 15 run', async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `r${i}: paymentRequests(perPage: 1) { data { webhookDeliveries { paymentRequest { id } } } }`).join(' ')} }`;
    const refused = await gql(url, aliases(16), auth());
    expect(refused).toEqual({ status: 400, body: { errors: [{ message: 'Aliases limit of 15 exceeded, found 16.', extensions: { code: GRAPHQL_LIMIT_CODES.aliases } }] } });
    const atLimit = await gql(url, aliases(15), auth());
    expect(atLimit.body.errors).toBeUndefined();
    expect(Object.keys(atLimit.body.data ?? {})).toHaveLength(15);
  });
});

const INT_MAX = 2 ** 31 - 1;
const CREATE = '/api/merchant/v1/payment-requests';

type RestRequest = { method: 'GET' | 'POST'; path: string; body?: unknown };

/** A numeric argument: its GraphQL use (`$v`) and its REST twin taking the same value. */
interface NumericArgument {
  name: string;
  graphql: string;
  /** The REST twin; a GraphQL-only argument names the fields its refusal carries instead. */
  twin: { rest: (value: number) => RestRequest } | { fields: Record<string, string[]> };
  refused: readonly number[];
  accepted: readonly number[];
}

const createWith = (fields: Record<string, number>): RestRequest => ({ method: 'POST', path: CREATE, body: { asset_id: 1, title: 'Bounds', amount: '0.001', ...fields } });

const ARGUMENTS: NumericArgument[] = [
  {
    name: 'Query.paymentRequests(page)',
    graphql: 'query ($v: Int) { paymentRequests(page: $v) { total } }',
    twin: { rest: (value) => ({ method: 'GET', path: `${CREATE}?page=${value}` }) },
    refused: [0, -1, 1_000_001, INT_MAX],
    accepted: [1, 1_000_000],
  },
  {
    name: 'Query.paymentRequests(perPage)',
    graphql: 'query ($v: Int) { paymentRequests(perPage: $v) { total } }',
    twin: { rest: (value) => ({ method: 'GET', path: `${CREATE}?per_page=${value}` }) },
    refused: [0, -1, 101, INT_MAX],
    accepted: [1, 100],
  },
  {
    // GraphQL only (the dashboard's list): the kit's integer message.
    name: 'CryptoAccount.webhookDeliveries(limit)',
    graphql: 'query ($v: Int) { cryptoAccount { webhookDeliveries(limit: $v) { id } } }',
    twin: { fields: { limit: [integerRangeMessage(1, 100)] } },
    refused: [0, -1, 101, INT_MAX],
    accepted: [1, 100],
  },
  {
    name: 'CreatePaymentRequestInput.assetId',
    graphql: 'mutation ($v: Int!) { createPaymentRequest(input: { assetId: $v, title: "Bounds", amount: "0.001" }) { id } }',
    twin: { rest: (value) => createWith({ asset_id: value }) },
    refused: [0, -1, INT_MAX],
    accepted: [1],
  },
  {
    name: 'CreatePaymentRequestInput.ttlMinutes',
    graphql: 'mutation ($v: Int) { createPaymentRequest(input: { assetId: 1, title: "Bounds", amount: "0.001", ttlMinutes: $v }) { id } }',
    twin: { rest: (value) => createWith({ ttl_minutes: value }) },
    refused: [0, -1, 10_081, INT_MAX],
    accepted: [1, 10_080],
  },
];

/** The fields of the REST twin's 422 (the spec's `{"message", "errors"}`), or the expected fields of a GraphQL-only argument. */
async function expectedFields(argument: NumericArgument, value: number): Promise<Record<string, string[]>> {
  if ('fields' in argument.twin) return argument.twin.fields;
  const answer = await rest(argument.twin.rest(value));
  expect(answer.status).toBe(422);
  return answer.body.errors as Record<string, string[]>;
}

describe('numeric arguments on crypto /graphql are checked like their REST twins', () => {
  it.each(ARGUMENTS.flatMap((argument) => argument.refused.map((value) => [argument.name, value, argument] as const)))('%s = %d: BAD_USER_INPUT with the REST 422 fields', async (_name, value, argument) => {
    const fields = await expectedFields(argument, value);
    const requests = await h.orm.em.fork().count(PaymentRequest, {});
    const { status, body } = await gql(url, argument.graphql, auth(), { v: value });
    expect(status).toBe(200);
    expect(body.errors).toEqual([expect.objectContaining({ message: 'The given data was invalid.', extensions: { code: 'BAD_USER_INPUT', fields } })]);
    expect(await h.orm.em.fork().count(PaymentRequest, {})).toBe(requests);
  });

  it.each(ARGUMENTS.flatMap((argument) => argument.accepted.map((value) => [argument.name, value, argument] as const)))('%s = %d: answered', async (_name, value, argument) => {
    const { status, body } = await gql(url, argument.graphql, auth(), { v: value });
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
  });
});

