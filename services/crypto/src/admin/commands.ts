// The operator commands of the crypto service (`npm run admin -- crypto <command>`): argument parsing and output
// only; every rule lives in the domain services (AccountAdminService, AssetService). Each command returns a result
// with one JSON document (--json) and a human text; a bad argument throws UsageError (exit 2), an unknown id the
// kit's NotFoundError (exit 1).
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox, WebhookDispatcher } from '@tributary/kit';
import { NotFoundError } from '@tributary/kit';
import { ACCOUNT_STATUSES } from '../modules/accounts/account.entity.js';
import { AccountAdminService } from '../modules/accounts/account-admin.service.js';
import { AssetService, type Asset } from '../modules/assets/index.js';
import { PaymentRequestRepository, SLUG_PATTERN } from '../modules/payment-requests/index.js';
import { PaymentService } from '../modules/payments/index.js';
import { WebhookDeliveryQueries, createPaymentWebhookSink, presentDelivery, redeliverPaymentWebhook } from '../modules/webhooks/index.js';

export const USAGE = `usage: admin crypto <command> [--json]
  account create --name NAME [--xpub ASSET=XPUB ...]   create an account (no --xpub: the public test mnemonic's keys of account n' for id n)
  account keys ACCOUNT_ID --xpub ASSET=XPUB ...        register or replace an account's receive keys (a key belongs to one account)
  account suspend ACCOUNT_ID | account unsuspend ACCOUNT_ID
  assets                                               list assets (asset_id, code, chain, decimals, confirmations)
  asset confirmations ASSET N                          set an asset's confirmation threshold (never below the spec default)
  key create --account ACCOUNT_ID                      new API key <KEY_ID>.<SECRET>, shown once
  key revoke KEY_ID                                    revoke an API key (next request gets 401)
  secret rotate --account ACCOUNT_ID                   new webhook signing secret whsec_..., shown once; the old one stops at once
  pay SLUG AMOUNT [--confirmations N] [--txid T]       record an incoming payment (default: the asset's threshold, a random txid, index 0)
  deliveries [--account ACCOUNT_ID]                    recent webhook deliveries with their attempts and status codes
  redeliver DELIVERY_ID                                re-fire a delivery: a new delivery of the same event (same body)`;

/** A malformed command line: exit code 2 and one line on stderr. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface AdminDeps {
  em: EntityManager;
  box: SecretBox;
  /** The webhook dispatcher (Temporal client), opened only by the commands that start deliveries (pay, redeliver). */
  webhooks?: () => Promise<WebhookDispatcher>;
}

function webhooksOf(deps: AdminDeps): Promise<WebhookDispatcher> {
  if (!deps.webhooks) throw new Error('no Temporal client configured for webhook deliveries');
  return deps.webhooks();
}

function deliveryText(view: ReturnType<typeof presentDelivery>): string {
  const codes = view.attempts.map((a) => (a.status_code === null ? (a.outcome === 'delivered' ? 'ok' : 'error') : String(a.status_code))).join(',');
  return `${view.id}  ${view.event.padEnd(15)} ${view.status.padEnd(10)} attempts ${view.attempt_count} [${codes}]  ${view.created_at}  ${view.endpoint_url}`;
}

export interface CommandResult {
  json: unknown;
  text: string;
}

interface ParsedArgs {
  positionals: string[];
  options: Map<string, string[]>;
}

/** `--name N`, `--name=N`, repeatable options; `--json` is taken off by the caller. */
export function parseArgs(argv: readonly string[], known: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      i += 1;
    }
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  return { positionals, options };
}

function single(args: ParsedArgs, name: string): string {
  const values = args.options.get(name) ?? [];
  if (values.length !== 1 || values[0]!.trim() === '') throw new UsageError(`--${name} is required, exactly once`);
  return values[0]!;
}

function noExtra(args: ParsedArgs, expected: number, shape: string): void {
  if (args.positionals.length !== expected) throw new UsageError(`expected: ${shape}`);
}

function positiveId(value: string, what: string): number {
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw new UsageError(`${what} must be a positive whole number (got "${value}")`);
  return Number(value);
}

function xpubOptions(values: readonly string[]): Record<string, string> {
  const xpubs: Record<string, string> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    if (eq <= 0 || eq === value.length - 1) throw new UsageError(`--xpub takes ASSET=XPUB (got "${value}")`);
    const asset = value.slice(0, eq).trim().toUpperCase();
    if (asset in xpubs) throw new UsageError(`--xpub ${asset}= given twice`);
    xpubs[asset] = value.slice(eq + 1).trim();
  }
  return xpubs;
}

function assetJson(asset: Asset) {
  return { id: asset.id, code: asset.code, chain: asset.chain, decimals: asset.decimals, confirmations: asset.confirmations, default_confirmations: asset.defaultConfirmations };
}

/** Runs `argv` (without --json): `["account", "create", "--name", "Shop"]` etc. */
export async function runAdminCommand(argv: readonly string[], deps: AdminDeps): Promise<CommandResult> {
  const [group, action, ...rest] = argv;
  const accounts = new AccountAdminService(deps.em, deps.box);
  const key = `${group ?? ''} ${['assets', 'pay', 'deliveries', 'redeliver'].includes(group ?? '') ? '' : (action ?? '')}`.trim();
  switch (key) {
    case 'account create': {
      const args = parseArgs(rest, ['name', 'xpub']);
      noExtra(args, 0, 'account create --name NAME [--xpub ASSET=XPUB ...]');
      const created = await accounts.createAccount({ name: single(args, 'name'), xpubs: xpubOptions(args.options.get('xpub') ?? []) });
      const { account } = created;
      return {
        json: { account_id: account.id, name: account.name, status: account.status, assets: created.assets, test_keys: created.testKeys, signing_secret: created.signingSecret },
        text: [
          `Created account ${account.id} "${account.name}" (assets: ${created.assets.join(', ')}${created.testKeys ? `; receive keys from the PUBLIC test mnemonic, account ${account.id}' (m/84'/1'/${account.id}', m/44'/60'/${account.id}'), never for real funds` : ''}).`,
          `Webhook signing secret (shown once, store it now): ${created.signingSecret}`,
          `Next: admin crypto key create --account ${account.id}`,
        ].join('\n'),
      };
    }
    case 'account keys': {
      const args = parseArgs(rest, ['xpub']);
      noExtra(args, 1, 'account keys ACCOUNT_ID --xpub ASSET=XPUB ...');
      const xpubs = xpubOptions(args.options.get('xpub') ?? []);
      if (Object.keys(xpubs).length === 0) throw new UsageError('--xpub ASSET=XPUB is required (at least one)');
      const saved = await accounts.setReceiveKeys(positiveId(args.positionals[0]!, 'ACCOUNT_ID'), xpubs);
      return {
        json: { account_id: saved.accountId, assets: saved.assets },
        text: `Account ${saved.accountId} receive keys saved (assets: ${saved.assets.join(', ')}); a replaced key keeps its cursor and stays this account's.`,
      };
    }
    case 'account suspend':
    case 'account unsuspend': {
      const args = parseArgs(rest, []);
      noExtra(args, 1, `account ${action} ACCOUNT_ID`);
      const status = action === 'suspend' ? ACCOUNT_STATUSES[1] : ACCOUNT_STATUSES[0];
      const { account, changed } = await accounts.setStatus(positiveId(args.positionals[0]!, 'ACCOUNT_ID'), status);
      return {
        json: { account_id: account.id, status: account.status, changed },
        text: `Account ${account.id} is ${account.status}${changed ? '' : ' (unchanged)'}.`,
      };
    }
    case 'assets': {
      const args = parseArgs(action === undefined ? rest : [action, ...rest], []);
      noExtra(args, 0, 'assets');
      const assets = (await new AssetService(deps.em).list()).map(assetJson);
      const header = 'asset_id  code   chain      decimals  confirmations (default)';
      const rows = assets.map((a) => `${String(a.id).padEnd(10)}${a.code.padEnd(7)}${a.chain.padEnd(11)}${String(a.decimals).padEnd(10)}${a.confirmations} (${a.default_confirmations})`);
      return { json: { assets }, text: [header, ...rows].join('\n') };
    }
    case 'asset confirmations': {
      const args = parseArgs(rest, []);
      noExtra(args, 2, 'asset confirmations ASSET N');
      const [code, n] = args.positionals as [string, string];
      if (!/^\d{1,9}$/.test(n)) throw new UsageError(`N must be a whole number (got "${n}")`);
      const asset = await new AssetService(deps.em).raiseConfirmations(code, Number(n));
      return { json: { asset: assetJson(asset) }, text: `${asset.code} payments now count at ${asset.confirmations} confirmations.` };
    }
    case 'key create': {
      const args = parseArgs(rest, ['account']);
      noExtra(args, 0, 'key create --account ACCOUNT_ID');
      const created = await accounts.createApiKey(positiveId(single(args, 'account'), '--account'));
      return {
        json: { key: created.key },
        text: `API key for account ${created.accountId} (shown once, store it now; only a hash is kept):\n${created.key}`,
      };
    }
    case 'key revoke': {
      const args = parseArgs(rest, []);
      noExtra(args, 1, 'key revoke KEY_ID');
      const revoked = await accounts.revokeApiKey(args.positionals[0]!);
      return {
        json: { key_id: revoked.keyId, account_id: revoked.accountId, revoked_at: revoked.revokedAt.toISOString(), already_revoked: revoked.alreadyRevoked },
        text: `Key ${revoked.keyId} ${revoked.alreadyRevoked ? 'was already revoked' : 'is revoked'} (since ${revoked.revokedAt.toISOString()}).`,
      };
    }
    case 'secret rotate': {
      const args = parseArgs(rest, ['account']);
      noExtra(args, 0, 'secret rotate --account ACCOUNT_ID');
      const rotated = await accounts.rotateSigningSecret(positiveId(single(args, 'account'), '--account'));
      return {
        json: { account_id: rotated.accountId, signing_secret: rotated.signingSecret },
        text: `New webhook signing secret for account ${rotated.accountId} (shown once; the previous one no longer verifies):\n${rotated.signingSecret}`,
      };
    }
    case 'pay': {
      const args = parseArgs(action === undefined ? rest : [action, ...rest], ['confirmations', 'txid']);
      noExtra(args, 2, 'pay SLUG AMOUNT [--confirmations N] [--txid T]');
      const [slug, amount] = args.positionals as [string, string];
      if (!SLUG_PATTERN.test(slug)) throw new UsageError(`SLUG must be a payment request id (24 letters or digits, got "${slug}")`);
      const request = await new PaymentRequestRepository(deps.em.fork()).findBySlug(slug);
      if (!request) throw new NotFoundError(`No payment request with id ${slug}.`);
      const asset = request.asset as Asset;
      const confirmationsText = args.options.get('confirmations')?.at(-1);
      if (confirmationsText !== undefined && !/^\d{1,9}$/.test(confirmationsText)) throw new UsageError(`--confirmations must be a whole number (got "${confirmationsText}")`);
      const confirmations = confirmationsText === undefined ? asset.confirmations : Number(confirmationsText);
      const txid = args.options.get('txid')?.at(-1) ?? randomBytes(32).toString('hex');
      // Without a reachable Temporal the deliveries stay queued and the worker's sweeper starts them.
      const dispatcher = request.webhookUrl ? await webhooksOf(deps).catch(() => undefined) : undefined;
      const recorded = await new PaymentService(deps.em, { events: createPaymentWebhookSink({ dispatcher }) }).record({ chain: asset.chain, txid, index: 0, amount, confirmations, to: { slug } });
      const { payment, paymentRequest } = recorded;
      const now = new Date();
      const json = {
        payment: { chain: payment.chain, txid: payment.txid, index: payment.outputIndex, amount: payment.value.toString(), confirmations: payment.confirmations, counted: payment.counted },
        credited: recorded.credited,
        duplicate: recorded.duplicate,
        payment_request: { id: paymentRequest.slug, status: paymentRequest.statusAt(now), amount_paid: paymentRequest.amountPaid.toString(), amount_outstanding: paymentRequest.amountOutstanding?.toString() ?? null, paid_at: paymentRequest.paidAt?.toISOString() ?? null },
        events: recorded.events.map((e) => e.event),
      };
      const counted = payment.counted ? '' : ` (not counted yet: ${payment.confirmations} of ${asset.confirmations} confirmations)`;
      return {
        json,
        text: [
          `Payment ${payment.value.toString()} ${asset.code} on ${payment.chain} ${payment.txid}:${payment.outputIndex}${recorded.duplicate ? ' (already recorded)' : ''}${counted}.`,
          `Request ${paymentRequest.slug} is ${json.payment_request.status}; paid ${json.payment_request.amount_paid}${json.payment_request.amount_outstanding === null ? '' : `, outstanding ${json.payment_request.amount_outstanding}`}.`,
          ...(json.events.length > 0 ? [`Events: ${json.events.join(', ')}${request.webhookUrl ? ' (webhook queued)' : ' (no webhook_url)'}.`] : []),
        ].join('\n'),
      };
    }
    case 'deliveries': {
      const args = parseArgs(action === undefined ? rest : [action, ...rest], ['account']);
      noExtra(args, 0, 'deliveries [--account ACCOUNT_ID]');
      const accountText = args.options.get('account')?.at(-1);
      const deliveries = (await new WebhookDeliveryQueries(deps.em).recent({ accountId: accountText === undefined ? undefined : positiveId(accountText, '--account') })).map(presentDelivery);
      return { json: { deliveries }, text: deliveries.length === 0 ? 'No webhook deliveries.' : deliveries.map(deliveryText).join('\n') };
    }
    case 'redeliver': {
      const args = parseArgs(action === undefined ? rest : [action, ...rest], []);
      noExtra(args, 1, 'redeliver DELIVERY_ID');
      const delivery = await redeliverPaymentWebhook(deps.em, await webhooksOf(deps), args.positionals[0]!);
      return {
        json: { delivery_id: delivery.id, workflow_id: delivery.workflowId, redelivery_of: delivery.redeliveryOf, event: delivery.eventName },
        text: `Queued delivery ${delivery.id} (workflow ${delivery.workflowId}), a re-fire of ${delivery.redeliveryOf ?? ''} (${delivery.eventName}).`,
      };
    }
    default:
      throw new UsageError(group === undefined ? 'missing command' : `unknown command "${argv.slice(0, 2).join(' ')}"`);
  }
}
