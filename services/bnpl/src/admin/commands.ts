// The operator commands of the bnpl service (`npm run admin -- bnpl <command>`): argument parsing and output only;
// every rule lives in the domain services (MerchantAdminService, WebhookDeliveryService, SettlementService). Each command returns one
// JSON document (--json) and a human text; a bad argument throws UsageError (exit 2), an unknown id the kit's
// NotFoundError (exit 1). The command-line toolkit (parsing, dispatch, usage) is the kit's (`@tributary/kit/admin`).
import type { EntityManager } from '@mikro-orm/postgresql';
import { webhookDeliveryLine, type WorkflowOutbox } from '@tributary/kit';
import { UsageError, adminUsage, optionalOption, positionalArgs, requiredOption, runAdminCommandOf, type AdminCommand, type CommandResult } from '@tributary/kit/admin';
import { LoanLifecycleService, TestClockService, type TestClockReading } from '../modules/loans/index.js';
import { MerchantAdminService, SETTLEMENT_CADENCES, type Merchant, type MerchantUser, type SettlementCadence } from '../modules/merchants/index.js';
import { SettlementService, presentSettlement, testClockSettlementsStart } from '../modules/settlements/index.js';
import { WebhookDeliveryService, createLoanWebhookSink, createSettlementWebhookSink, presentDelivery } from '../modules/webhooks/index.js';

export interface AdminDeps {
  em: EntityManager;
  /** The workflow outbox, for the commands that queue deliveries (redeliver): they are dispatched right after the commit. */
  outbox?: () => WorkflowOutbox;
}

type Command = AdminCommand<AdminDeps>;

/** The longest event name (settlement.processed), so `deliveries` lines up. */
const DELIVERY_EVENT_WIDTH = 20;

export { UsageError, type CommandResult };

/** Basis points as typed: digits only (the range is the domain's rule). */
function basisPoints(value: string, what: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`${what} must be a whole number of basis points, e.g. 290 for 2.90 % (got "${value}")`);
  return Number(value);
}

function cadence(value: string): SettlementCadence {
  const found = SETTLEMENT_CADENCES.find((c) => c === value);
  if (!found) throw new UsageError(`cadence must be one of ${SETTLEMENT_CADENCES.join(', ')} (got "${value}")`);
  return found;
}

function merchantJson(merchant: Merchant) {
  return { merchant_id: merchant.id, name: merchant.name, mdr_bps: merchant.mdrBps, settlement_cadence: merchant.settlementCadence };
}

function userJson(user: MerchantUser) {
  return { merchant_user_id: user.id, email: user.email, name: user.name };
}

const percent = (bps: number) => `${(bps / 100).toFixed(2)} %`;

const merchantCreate: Command = {
  usage: 'merchant create --name N --email E --password P [--mdr-bps B] [--cadence C] [--user-name U]',
  summary: 'onboard a merchant with its first dashboard user (MDR default 290 bps, cadence weekly)',
  options: ['name', 'email', 'password', 'mdr-bps', 'cadence', 'user-name'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const mdrText = optionalOption(args, 'mdr-bps');
    const cadenceText = optionalOption(args, 'cadence');
    const userName = optionalOption(args, 'user-name');
    const { merchant, user } = await new MerchantAdminService(deps.em).createMerchant({
      name: requiredOption(args, 'name'),
      email: requiredOption(args, 'email'),
      password: requiredOption(args, 'password'),
      ...(mdrText === undefined ? {} : { mdrBps: basisPoints(mdrText, '--mdr-bps') }),
      ...(cadenceText === undefined ? {} : { cadence: cadence(cadenceText) }),
      ...(userName === undefined ? {} : { userName }),
    });
    return {
      json: { ...merchantJson(merchant), user: userJson(user) },
      text: [
        `Created merchant ${merchant.id} "${merchant.name}" (MDR ${merchant.mdrBps} bps = ${percent(merchant.mdrBps)}, ${merchant.settlementCadence} settlement).`,
        `Dashboard user ${user.email} (${user.id}) signs in with the given password and an e-mailed code.`,
      ].join('\n'),
    };
  },
};

const userAdd: Command = {
  usage: 'user add --merchant ID --email E --password P [--user-name U]',
  summary: 'add a dashboard user to a merchant',
  options: ['merchant', 'email', 'password', 'user-name'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const name = optionalOption(args, 'user-name');
    const user = await new MerchantAdminService(deps.em).addUser({
      merchantId: requiredOption(args, 'merchant'),
      email: requiredOption(args, 'email'),
      password: requiredOption(args, 'password'),
      ...(name === undefined ? {} : { userName: name }),
    });
    const merchantId = user.merchant.id;
    return { json: { ...userJson(user), merchant_id: merchantId }, text: `Added dashboard user ${user.email} (${user.id}) to merchant ${merchantId}.` };
  },
};

const merchantCadence: Command = {
  usage: `merchant cadence ID ${SETTLEMENT_CADENCES.join('|')}`,
  summary: "set a merchant's settlement cadence",
  options: [],
  async run(args, deps) {
    const [id, value] = positionalArgs(args, 2, this.usage) as [string, string];
    const { merchant, changed } = await new MerchantAdminService(deps.em).setSettlementCadence(id, cadence(value));
    return { json: { ...merchantJson(merchant), changed }, text: `Merchant ${merchant.id} settles ${merchant.settlementCadence}${changed ? '' : ' (unchanged)'}.` };
  },
};

const merchantMdr: Command = {
  usage: 'merchant mdr ID BPS',
  summary: "set a merchant's discount rate in basis points (0..10000; 290 = 2.90 %)",
  options: [],
  async run(args, deps) {
    const [id, bps] = positionalArgs(args, 2, this.usage) as [string, string];
    const { merchant, changed } = await new MerchantAdminService(deps.em).setMdrBps(id, basisPoints(bps, 'BPS'));
    return {
      json: { ...merchantJson(merchant), changed },
      text: `Merchant ${merchant.id} MDR is ${merchant.mdrBps} bps (${percent(merchant.mdrBps)})${changed ? '' : ' (unchanged)'}.`,
    };
  },
};

const deliveries: Command = {
  usage: 'deliveries [--merchant ID] [--limit N]',
  summary: 'recent webhook deliveries (newest first) with their attempts and status codes',
  options: ['merchant', 'limit'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const merchantId = optionalOption(args, 'merchant');
    const limitText = optionalOption(args, 'limit');
    if (limitText !== undefined && !/^\d{1,3}$/.test(limitText)) throw new UsageError(`--limit must be a number from 1 to 100 (got "${limitText}")`);
    const scope = merchantId === undefined ? {} : { merchantId };
    const views = (await new WebhookDeliveryService(deps.em).recent(scope, limitText === undefined ? undefined : Number(limitText))).map(presentDelivery);
    return { json: { deliveries: views }, text: views.length === 0 ? 'No webhook deliveries.' : views.map((view) => webhookDeliveryLine(view, DELIVERY_EVENT_WIDTH)).join('\n') };
  },
};

const redeliver: Command = {
  usage: 'redeliver DELIVERY_ID',
  summary: "re-send a delivery to its endpoint's current URL: a new delivery of the same event (same body bytes)",
  options: [],
  async run(args, deps) {
    const [id] = positionalArgs(args, 1, this.usage) as [string];
    const { delivery } = await new WebhookDeliveryService(deps.em, deps.outbox?.()).redeliver(id);
    return {
      json: { delivery_id: delivery.id, workflow_id: delivery.workflowId, redelivery_of: delivery.redeliveryOf, event: delivery.eventName, endpoint_url: delivery.endpointUrl },
      text: `Queued delivery ${delivery.id} (workflow ${delivery.workflowId}), a re-send of ${delivery.redeliveryOf ?? ''} (${delivery.eventName}) to ${delivery.endpointUrl}.`,
    };
  },
};

const adjust: Command = {
  usage: 'adjust --merchant ID --amount-cents N --currency CUR --mode test|live --reason TEXT',
  summary: "add an adjustment to a merchant's next settlement in that currency and mode (negative N pays less)",
  options: ['merchant', 'amount-cents', 'currency', 'mode', 'reason'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const amount = requiredOption(args, 'amount-cents');
    if (!/^-?\d{1,10}$/.test(amount)) throw new UsageError(`--amount-cents must be a whole number of cents, e.g. -1500 (got "${amount}")`);
    const mode = requiredOption(args, 'mode');
    if (mode !== 'test' && mode !== 'live') throw new UsageError(`--mode must be test or live (got "${mode}")`);
    const adjustment = await new SettlementService(deps.em).adjust(requiredOption(args, 'merchant'), {
      amountCents: Number(amount),
      currency: requiredOption(args, 'currency'),
      livemode: mode === 'live',
      reason: requiredOption(args, 'reason'),
    });
    return {
      json: { adjustment_id: adjustment.id, amount_cents: adjustment.amountCents, currency: adjustment.currency, livemode: adjustment.livemode, reason: adjustment.reason },
      text: `Adjustment ${adjustment.id}: ${adjustment.amountCents} ${adjustment.currency} (${mode}) goes into the merchant's next settlement.`,
    };
  },
};

const settle: Command = {
  usage: 'settle --merchant ID [--at ISO-8601]',
  summary: "cut a merchant's settlements for the period its cadence closed at --at (default now) and queue their payouts",
  options: ['merchant', 'at'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const atText = optionalOption(args, 'at');
    const at = atText === undefined ? new Date() : new Date(atText);
    if (Number.isNaN(at.getTime())) throw new UsageError(`--at must be an ISO 8601 time, e.g. 2026-11-30T00:15:00Z (got "${atText}")`);
    const outbox = deps.outbox?.();
    const service = new SettlementService(deps.em, { outbox, events: createSettlementWebhookSink({ outbox }) });
    const cut = (await service.cut(requiredOption(args, 'merchant'), at)).map(presentSettlement);
    return {
      json: { settlements: cut },
      text: cut.length === 0 ? 'Nothing to settle for that period (or it was cut already).' : cut.map((s) => `${s.id}  ${s.batch}  net ${s.net_cents} ${s.currency}  ${s.status}`).join('\n'),
    };
  },
};

const installmentPay: Command = {
  usage: 'installment pay --loan LOAN_ID|LOAN_NUMBER --number N',
  summary: "the shopper's in-app payment of an unpaid installment with the loan's payment method (installment.paid)",
  options: ['loan', 'number'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const numberText = requiredOption(args, 'number');
    if (!/^\d{1,2}$/.test(numberText)) throw new UsageError(`--number must be an installment number, e.g. 2 (got "${numberText}")`);
    const outbox = deps.outbox?.();
    const lifecycle = new LoanLifecycleService(deps.em, { events: createLoanWebhookSink({ outbox }), outbox });
    const { loan, installment } = await lifecycle.payInstallment(requiredOption(args, 'loan'), Number(numberText));
    const paidAt = installment.paidAt?.toISOString() ?? null;
    return {
      json: { loan_id: loan.id, loan_number: loan.loanNumber, status: loan.status, installment_id: installment.id, installment_number: installment.installmentNumber, amount_cents: installment.amountCents, paid_at: paidAt },
      text: `Paid installment ${installment.installmentNumber} of loan ${loan.loanNumber} (${installment.amountCents} ${loan.currency} minor units) at ${paidAt}; the loan is ${loan.status}.`,
    };
  },
};

const loanCancel: Command = {
  usage: 'loan cancel LOAN_ID|LOAN_NUMBER',
  summary: 'cancel a loan not yet funded (its workflow then ends without funding it)',
  options: [],
  async run(args, deps) {
    const [id] = positionalArgs(args, 1, this.usage) as [string];
    const loan = await new LoanLifecycleService(deps.em).cancel(id);
    return { json: { loan_id: loan.id, loan_number: loan.loanNumber, status: loan.status }, text: `Loan ${loan.loanNumber} is ${loan.status}.` };
  },
};

function clockJson(clock: TestClockReading) {
  return { merchant_id: clock.merchantId, offset_seconds: clock.offsetSeconds, now: clock.now.toISOString() };
}

const clockAdvance: Command = {
  usage: 'clock advance --merchant ID --by DURATION',
  summary: "advance a merchant's test clock (14d, 36h, 90m): its test-mode loans behave as if that much time had passed",
  options: ['merchant', 'by'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const { loansSignalled, ...clock } = await new TestClockService(deps.em, { outbox: deps.outbox?.(), advanceStarts: (advance) => [testClockSettlementsStart(advance)] }).advance(requiredOption(args, 'merchant'), requiredOption(args, 'by'));
    const days = (clock.offsetSeconds / 86_400).toFixed(2);
    return {
      json: { ...clockJson(clock), loans_signalled: loansSignalled },
      text: `Test clock of merchant ${clock.merchantId} is now ${clock.now.toISOString()} (${days} days ahead of real time); ${loansSignalled} open test-mode loan(s) told.`,
    };
  },
};

/** Every command by its words. */
const COMMANDS: Readonly<Record<string, Command>> = {
  'merchant create': merchantCreate,
  'merchant cadence': merchantCadence,
  'merchant mdr': merchantMdr,
  'user add': userAdd,
  deliveries,
  redeliver,
  'installment pay': installmentPay,
  'loan cancel': loanCancel,
  'clock advance': clockAdvance,
  adjust,
  settle,
};

export const USAGE = adminUsage('bnpl', COMMANDS);

/** Runs `argv` (without --json): the command named by its first one or two words. */
export function runAdminCommand(argv: readonly string[], deps: AdminDeps): Promise<CommandResult> {
  return runAdminCommandOf(COMMANDS, argv, deps);
}

