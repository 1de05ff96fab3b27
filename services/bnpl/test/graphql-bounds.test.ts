// bnpl's own /graphql (the service's public port) is bounded like the gateway: the kit's depth, cost and alias limits
// refuse an operation before anything runs; and every numeric argument is checked like its REST twin (the same
// bounds, the same field messages), as BAD_USER_INPUT that changes nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GRAPHQL_LIMIT_CODES, integerRangeMessage } from '@tributary/kit';
import { PaymentLink } from '../src/modules/payment-links/index.js';
import { Refund } from '../src/modules/refunds/index.js';
import { createFundedLoan, createMerchant, gql, startHarness, type Harness, type TestMerchant } from './helpers.js';

// bnpl's schema has no cycle (its deepest path is five levels), so the depth limit is lowered to show that this port
// reads GRAPHQL_MAX_DEPTH and refuses past it; every other limit keeps its default.
const MAX_DEPTH = 4;

let h: Harness;
let url: string;
let shop: TestMerchant;
let loanId: string;
let linkId: string;
const dt = () => ({ authorization: `Bearer ${shop.token}` });

beforeAll(async () => {
  h = await startHarness({ env: { GRAPHQL_MAX_DEPTH: String(MAX_DEPTH) } });
  url = h.service.url;
  shop = await createMerchant(h, 'Bounds Shop');
  loanId = (await createFundedLoan(h, shop, { amountCents: 40_000, disbursedAt: new Date() })).id;
  const link = await rest({ method: 'POST', path: '/api/v1/merchant/payment-links', body: { title: 'Bounds', amount_cents: 45_000, currency: 'EUR' } });
  expect(link.status).toBe(201);
  linkId = link.body.id as string;
});
afterAll(async () => {
  await h?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies under test
type RestRequest = { method: 'GET' | 'POST' | 'PUT'; path: string; body?: unknown };

async function rest(request: RestRequest): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: { ...dt(), ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

describe('limits on bnpl /graphql', () => {
  it('refuses an operation deeper than GRAPHQL_MAX_DEPTH with QUERY_TOO_DEEP; one at the limit runs', async () => {
    const refused = await gql(url, '{ bnplMerchant { sales { nodes { refunds { id } } } } }', dt());
    // A validation refusal: the operation never executes, so no resolver and no SQL statement runs.
    expect(refused).toEqual({ status: 400, body: { errors: [{ message: `Query depth limit of ${MAX_DEPTH} exceeded, found 5.`, extensions: { code: GRAPHQL_LIMIT_CODES.depth } }] } });
    const atLimit = await gql(url, '{ bnplMerchant { sales { nodes { id } } } }', dt());
    expect(atLimit.body).toEqual({ data: { bnplMerchant: { sales: { nodes: [{ id: loanId }] } } } });
  });

  it('refuses more aliases than GRAPHQL_MAX_ALIASES (15) with TOO_MANY_ALIASES; 15 run', async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `m${i}: bnplMerchant { loans { refunds { id } } }`).join(' ')} }`;
    const refused = await gql(url, aliases(16), dt());
    expect(refused).toEqual({ status: 400, body: { errors: [{ message: 'Aliases limit of 15 exceeded, found 16.', extensions: { code: GRAPHQL_LIMIT_CODES.aliases } }] } });
    const atLimit = await gql(url, aliases(15), dt());
    expect(atLimit.body.errors).toBeUndefined();
    expect(Object.keys(atLimit.body.data ?? {})).toHaveLength(15);
  });
});

const INT_MAX = 2 ** 31 - 1;
const PAGE_SIZE_VALUES = { refused: [0, -1, 101, INT_MAX], accepted: [1, 100] } as const;

/** A numeric argument: its GraphQL use (`$v`) and its REST twin taking the same value. */
interface NumericArgument {
  name: string;
  graphql: string;
  /** The REST twin; a GraphQL-only argument names the fields its refusal carries instead. */
  twin: { rest: (value: number) => RestRequest } | { fields: Record<string, string[]> };
  refused: readonly number[];
  accepted: readonly number[];
}

const link = (fields: Record<string, number>) => ({ title: 'Bounds', amount_cents: 45_000, currency: 'EUR', ...fields });

const ARGUMENTS: NumericArgument[] = [
  {
    name: 'BnplMerchant.sales(limit)',
    graphql: 'query ($v: Int) { bnplMerchant { sales(limit: $v) { nextCursor } } }',
    twin: { rest: (value) => ({ method: 'GET', path: `/api/v1/merchant/sales?limit=${value}` }) },
    ...PAGE_SIZE_VALUES,
  },
  {
    name: 'BnplMerchant.refunds(limit)',
    graphql: 'query ($v: Int) { bnplMerchant { refunds(limit: $v) { nextCursor } } }',
    twin: { rest: (value) => ({ method: 'GET', path: `/api/v1/merchant/refunds?limit=${value}` }) },
    ...PAGE_SIZE_VALUES,
  },
  {
    name: 'BnplMerchant.settlements(limit)',
    graphql: 'query ($v: Int) { bnplMerchant { settlements(limit: $v) { nextCursor } } }',
    twin: { rest: (value) => ({ method: 'GET', path: `/api/v1/merchant/settlements?limit=${value}` }) },
    ...PAGE_SIZE_VALUES,
  },
  // GraphQL only (the dashboard's lists): the kit's integer message.
  { name: 'BnplMerchant.loans(first)', graphql: 'query ($v: Int) { bnplMerchant { loans(first: $v) { id } } }', twin: { fields: { first: [integerRangeMessage(1, 100)] } }, ...PAGE_SIZE_VALUES },
  { name: 'BnplMerchant.sessions(first)', graphql: 'query ($v: Int) { bnplMerchant { sessions(first: $v) { id } } }', twin: { fields: { first: [integerRangeMessage(1, 100)] } }, ...PAGE_SIZE_VALUES },
  {
    name: 'BnplMerchant.webhookDeliveries(limit)',
    graphql: 'query ($v: Int) { bnplMerchant { webhookDeliveries(limit: $v) { id } } }',
    twin: { fields: { limit: [integerRangeMessage(1, 100)] } },
    ...PAGE_SIZE_VALUES,
  },
  {
    name: 'Mutation.createBnplRefund(amountCents)',
    graphql: 'mutation ($v: Int!, $loan: ID!) { createBnplRefund(loanId: $loan, amountCents: $v, reason: "Bounds") { id } }',
    twin: { rest: (value) => ({ method: 'POST', path: '/api/v1/merchant/refunds', body: { loan_id: loanId, amount_cents: value, reason: 'Bounds' } }) },
    refused: [0, -1, 40_001, INT_MAX],
    accepted: [1],
  },
  {
    name: 'BnplPaymentLinkInput.amountCents',
    graphql: 'mutation ($v: Int!) { createBnplPaymentLink(input: { title: "Bounds", amountCents: $v, currency: "EUR" }) { id } }',
    twin: { rest: (value) => ({ method: 'POST', path: '/api/v1/merchant/payment-links', body: link({ amount_cents: value }) }) },
    refused: [0, -1, 4_999, 100_001, INT_MAX],
    // The merchant's enabled plans take 5 000 to 100 000 cents.
    accepted: [5_000, 100_000],
  },
  {
    name: 'BnplPaymentLinkInput.maxUses',
    graphql: 'mutation ($v: Int) { createBnplPaymentLink(input: { title: "Bounds", amountCents: 45000, currency: "EUR", maxUses: $v }) { id } }',
    twin: { rest: (value) => ({ method: 'POST', path: '/api/v1/merchant/payment-links', body: link({ max_uses: value }) }) },
    refused: [0, -1, 1_000_001, INT_MAX],
    accepted: [1, 1_000_000],
  },
  {
    name: 'BnplPaymentLinkUpdate.amountCents',
    graphql: 'mutation ($v: Int, $link: ID!) { updateBnplPaymentLink(id: $link, input: { amountCents: $v }) { id } }',
    twin: { rest: (value) => ({ method: 'PUT', path: `/api/v1/merchant/payment-links/${linkId}`, body: { amount_cents: value } }) },
    refused: [0, -1, 4_999, 100_001, INT_MAX],
    // The merchant's enabled plans take 5 000 to 100 000 cents.
    accepted: [5_000, 100_000],
  },
  {
    name: 'BnplPaymentLinkUpdate.maxUses',
    graphql: 'mutation ($v: Int, $link: ID!) { updateBnplPaymentLink(id: $link, input: { maxUses: $v }) { id } }',
    twin: { rest: (value) => ({ method: 'PUT', path: `/api/v1/merchant/payment-links/${linkId}`, body: { max_uses: value } }) },
    refused: [0, -1, 1_000_001, INT_MAX],
    accepted: [1, 1_000_000],
  },
];

/** The envelope's codes of a refusal without a rule code of its own (GraphQL then has no `reason`). */
const GENERIC_CODES = ['validation_failed', 'rule_violation'];

/** The REST twin's 422 (`fields`, and a rule's own `code` as GraphQL's `reason`), or a GraphQL-only argument's fields. */
async function expectedExtensions(argument: NumericArgument, value: number): Promise<Record<string, unknown>> {
  if ('fields' in argument.twin) return { code: 'BAD_USER_INPUT', fields: argument.twin.fields };
  const answer = await rest(argument.twin.rest(value));
  expect(answer.status).toBe(422);
  const { code, fields } = answer.body.error as { code: string; fields?: Record<string, string[]> };
  return { code: 'BAD_USER_INPUT', ...(fields ? { fields } : {}), ...(GENERIC_CODES.includes(code) ? {} : { reason: code }) };
}

const variables = (value: number) => ({ v: value, loan: loanId, link: linkId });
const stored = async () => [await h.orm.em.fork().count(Refund, {}), await h.orm.em.fork().count(PaymentLink, {}), (await h.orm.em.fork().findOneOrFail(PaymentLink, { id: linkId })).updatedAt.getTime()];

describe('numeric arguments on bnpl /graphql are checked like their REST twins', () => {
  it.each(ARGUMENTS.flatMap((argument) => argument.refused.map((value) => [argument.name, value, argument] as const)))('%s = %d: BAD_USER_INPUT with the REST 422 fields', async (_name, value, argument) => {
    const extensions = await expectedExtensions(argument, value);
    const before = await stored();
    const { status, body } = await gql(url, argument.graphql, dt(), variables(value));
    expect(status).toBe(200);
    expect(body.errors).toEqual([expect.objectContaining({ extensions })]);
    expect(await stored()).toEqual(before);
  });

  it.each(ARGUMENTS.flatMap((argument) => argument.accepted.map((value) => [argument.name, value, argument] as const)))('%s = %d: answered', async (_name, value, argument) => {
    const { status, body } = await gql(url, argument.graphql, dt(), variables(value));
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
  });
});
