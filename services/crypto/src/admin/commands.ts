// The operator commands of the crypto service (`npm run admin -- crypto <command>`): argument parsing and output
// only; every rule lives in the domain services (AccountAdminService, AssetService, PaymentService,
// WebhookDeliveryService). Each command returns one JSON document (--json) and a human text; a bad argument throws
// UsageError (exit 2), an unknown id the kit's NotFoundError (exit 1). The command-line toolkit (parsing, dispatch,
// usage) is the kit's (`@tributary/kit/admin`).
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox, WorkflowOutbox } from '@tributary/kit';
import { BusinessRuleError, NotFoundError, ValidationError, presentWebhookDelivery, webhookDeliveryLine } from '@tributary/kit';
import { UsageError, adminUsage, optionalOption, positionalArgs, requiredOption, runAdminCommandOf, type AdminCommand, type CommandResult } from '@tributary/kit/admin';
import { AccountAdminService } from '../modules/accounts/index.js';
import { AssetService, type Asset, type Chain } from '../modules/assets/index.js';
import { EvmRpcClient, UtxoRpcClient } from '../modules/chain-nodes/index.js';
import type { EvmChain } from '../modules/chain-watch/index.js';
import { EVM_CHAIN_IDS } from '../modules/hosted-page/index.js';
import { PaymentRequest, SLUG_PATTERN } from '../modules/payment-requests/index.js';
import { PaymentService, wrongNetworkMessage } from '../modules/payments/index.js';
import { ReceiveAddressGapService, type ChainNetwork } from '../modules/receive-addresses/index.js';
import { Amount } from '../money/index.js';
import { WebhookDeliveryService, createPaymentWebhookSink } from '../modules/webhooks/index.js';

export interface AdminDeps {
  em: EntityManager;
  box: SecretBox;
  /** The workflow outbox (a Temporal client), opened only by the commands that queue deliveries (pay, redeliver). */
  outbox?: () => Promise<WorkflowOutbox>;
  /** CRYPTO_NETWORK (default testnet): keys are checked for it, and `pay` records a payment seen on it. */
  network?: ChainNetwork;
  /** CRYPTO_GAP_LIMIT (default 20): `account gaps` warns past it. */
  gapLimit?: number;
  /** Local chain nodes `pay` sends real transactions through on regtest (CRYPTO_<ASSET>_RPC_URL, CRYPTO_PAY_WALLET). */
  chainNodes?: PayChainNodes;
}

/** The chains that have a node RPC URL, and the node wallet `pay` sends from on a UTXO chain. */
export interface PayChainNodes {
  rpcUrls: Partial<Record<Chain, string>>;
  /** A wallet loaded on a UTXO chain's node; unset: the node's only loaded wallet (the RPC's default). EVM: unused. */
  wallet?: string;
}

type Command = AdminCommand<AdminDeps>;

/** The longest event name (payment.expired), so `deliveries` lines up. */
const DELIVERY_EVENT_WIDTH = 15;

export { UsageError, type CommandResult };

function positiveId(value: string, what: string): number {
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw new UsageError(`${what} must be a positive whole number (got "${value}")`);
  return Number(value);
}

function wholeNumber(value: string, what: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`${what} must be a whole number (got "${value}")`);
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

/**
 * The outbox that dispatches a command's deliveries right after its commit, or none when Temporal cannot be reached:
 * the deliveries then stay queued and the worker's outbox sweeper dispatches them once Temporal answers.
 */
function outboxOf(deps: AdminDeps): Promise<WorkflowOutbox | undefined> {
  return deps.outbox ? deps.outbox().catch(() => undefined) : Promise.resolve(undefined);
}

function assetJson(asset: Asset) {
  return { id: asset.id, code: asset.code, chain: asset.chain, decimals: asset.decimals, confirmations: asset.confirmations, default_confirmations: asset.defaultConfirmations };
}

const accountCreate: Command = {
  usage: 'account create --name NAME [--xpub ASSET=XPUB ...]',
  summary: "create an account (no --xpub: the public test mnemonic's keys of account n' for id n)",
  options: ['name', 'xpub'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const created = await new AccountAdminService(deps.em, deps.box, deps.network).createAccount({ name: requiredOption(args, 'name'), xpubs: xpubOptions(args.options.get('xpub') ?? []) });
    const { account } = created;
    return {
      json: { account_id: account.id, name: account.name, status: account.status, assets: created.assets, test_keys: created.testKeys, signing_secret: created.signingSecret },
      text: [
        `Created account ${account.id} "${account.name}" (assets: ${created.assets.join(', ')}${created.testKeys ? '; receive keys from the PUBLIC test mnemonic, never for real funds' : ''}).`,
        `Webhook signing secret (shown once, store it now): ${created.signingSecret}`,
        `Next: admin crypto key create --account ${account.id}`,
      ].join('\n'),
    };
  },
};

const accountKeys: Command = {
  usage: 'account keys ACCOUNT_ID --xpub ASSET=XPUB ...',
  summary: "register or replace an account's receive keys (a key belongs to one account)",
  options: ['xpub'],
  async run(args, deps) {
    const [id] = positionalArgs(args, 1, this.usage);
    const xpubs = xpubOptions(args.options.get('xpub') ?? []);
    if (Object.keys(xpubs).length === 0) throw new UsageError('--xpub ASSET=XPUB is required (at least one)');
    const saved = await new AccountAdminService(deps.em, deps.box, deps.network).setReceiveKeys(positiveId(id!, 'ACCOUNT_ID'), xpubs);
    return {
      json: { account_id: saved.accountId, assets: saved.assets },
      text: `Account ${saved.accountId} receive keys saved (assets: ${saved.assets.join(', ')}); a replaced key keeps its cursor and stays this account's.`,
    };
  },
};

const accountGaps: Command = {
  usage: 'account gaps ACCOUNT_ID',
  summary: "per asset: the current key's highest receive index, the unused run at the end, a WARNING past the gap limit",
  options: [],
  async run(args, deps) {
    const [id] = positionalArgs(args, 1, this.usage);
    const accountId = positiveId(id!, 'ACCOUNT_ID');
    const gaps = await new ReceiveAddressGapService(deps.em, deps.gapLimit).forAccount(accountId);
    const json = gaps.map((gap) => ({
      asset: gap.asset,
      highest_derived_index: gap.highestDerivedIndex,
      highest_used_index: gap.highestUsedIndex,
      unused_run: gap.unusedRun,
      gap_limit: gap.gapLimit,
      exceeds_gap_limit: gap.exceedsGapLimit,
      warning: gap.warning,
    }));
    const index = (value: number | null) => (value === null ? '-' : String(value));
    const lines = gaps.flatMap((gap) => [
      `${gap.asset.padEnd(6)}highest index ${index(gap.highestDerivedIndex)}, last paid ${index(gap.highestUsedIndex)}, unused run ${gap.unusedRun} (gap limit ${gap.gapLimit})`,
      ...(gap.warning === null ? [] : [`WARNING ${gap.warning}`]),
    ]);
    return { json: { account_id: accountId, gaps: json }, text: lines.length === 0 ? `Account ${accountId} has no receive keys.` : lines.join('\n') };
  },
};

function accountStatusCommand(action: 'suspend' | 'unsuspend'): Command {
  return {
    usage: `account ${action} ACCOUNT_ID`,
    summary: action === 'suspend' ? 'refuse every key of the account from its next request' : 'let the account in again',
    options: [],
    async run(args, deps) {
      const [id] = positionalArgs(args, 1, this.usage);
      const status = action === 'suspend' ? 'suspended' : 'active';
      const { account, changed } = await new AccountAdminService(deps.em, deps.box).setStatus(positiveId(id!, 'ACCOUNT_ID'), status);
      return { json: { account_id: account.id, status: account.status, changed }, text: `Account ${account.id} is ${account.status}${changed ? '' : ' (unchanged)'}.` };
    },
  };
}

const assetsList: Command = {
  usage: 'assets',
  summary: 'list assets (asset_id, code, chain, decimals, confirmations)',
  options: [],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const assets = (await new AssetService(deps.em).list()).map(assetJson);
    const header = 'asset_id  code   chain      decimals  confirmations (default)';
    const rows = assets.map((a) => `${String(a.id).padEnd(10)}${a.code.padEnd(7)}${a.chain.padEnd(11)}${String(a.decimals).padEnd(10)}${a.confirmations} (${a.default_confirmations})`);
    return { json: { assets }, text: [header, ...rows].join('\n') };
  },
};

const assetConfirmations: Command = {
  usage: 'asset confirmations ASSET N',
  summary: "set an asset's confirmation threshold (never below the spec default)",
  options: [],
  async run(args, deps) {
    const [code, n] = positionalArgs(args, 2, this.usage);
    const asset = await new AssetService(deps.em).raiseConfirmations(code!, wholeNumber(n!, 'N'));
    return { json: { asset: assetJson(asset) }, text: `${asset.code} payments now count at ${asset.confirmations} confirmations.` };
  },
};

const keyCreate: Command = {
  usage: 'key create --account ACCOUNT_ID',
  summary: 'new API key <KEY_ID>.<SECRET>, shown once',
  options: ['account'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const created = await new AccountAdminService(deps.em, deps.box).createApiKey(positiveId(requiredOption(args, 'account'), '--account'));
    return { json: { key: created.key }, text: `API key for account ${created.accountId} (shown once, store it now; only a hash is kept):\n${created.key}` };
  },
};

const keyRevoke: Command = {
  usage: 'key revoke KEY_ID',
  summary: 'revoke an API key (next request gets 401)',
  options: [],
  async run(args, deps) {
    const [keyId] = positionalArgs(args, 1, this.usage);
    const revoked = await new AccountAdminService(deps.em, deps.box).revokeApiKey(keyId!);
    return {
      json: { key_id: revoked.keyId, account_id: revoked.accountId, revoked_at: revoked.revokedAt.toISOString(), already_revoked: revoked.alreadyRevoked },
      text: `Key ${revoked.keyId} ${revoked.alreadyRevoked ? 'was already revoked' : 'is revoked'} (since ${revoked.revokedAt.toISOString()}).`,
    };
  },
};

const secretRotate: Command = {
  usage: 'secret rotate --account ACCOUNT_ID',
  summary: 'new webhook signing secret whsec_..., shown once; the old one stops at once',
  options: ['account'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const rotated = await new AccountAdminService(deps.em, deps.box).rotateSigningSecret(positiveId(requiredOption(args, 'account'), '--account'));
    return {
      json: { account_id: rotated.accountId, signing_secret: rotated.signingSecret },
      text: `New webhook signing secret for account ${rotated.accountId} (shown once; the previous one no longer verifies):\n${rotated.signingSecret}`,
    };
  },
};

/**
 * `pay` on regtest with the request's chain node configured: a real transaction to the request's address for the exact
 * amount, from the node's wallet (UTXO) or its first dev account (EVM). Nothing is written here: the chain watcher
 * records the payment from the blocks, as for any payer. The JSON is the same for every chain: `wallet` names what sent.
 */
async function sendOnChain(request: PaymentRequest, amountText: string, rpcUrl: string, wallet: string | undefined): Promise<CommandResult> {
  const asset = request.asset as Asset;
  const network: ChainNetwork = 'regtest';
  if (request.network !== network) throw new BusinessRuleError(wrongNetworkMessage(request.network, network), { network: [`Must be ${request.network}.`] });
  const parsed = Amount.safeParse(amountText, { maxDecimals: asset.decimals, positive: true, assetCode: asset.code });
  if (!parsed.ok) throw new ValidationError({ amount: [parsed.error.message] });
  const chain = asset.chain;
  const { txid, from } =
    chain === 'ethereum' || chain === 'polygon'
      ? await sendEvm(chain, rpcUrl, request.address, parsed.amount.toBaseUnits(asset.decimals))
      : await sendUtxo(rpcUrl, request.address, parsed.amount.toString(), wallet);
  const amount = parsed.amount.toString();
  const sent = { chain, network, asset: asset.code, txid, address: request.address, amount, wallet: from };
  return {
    json: { sent, payment_request: { id: request.slug } },
    text: [
      `Sent ${amount} ${asset.code} on ${chain} (${network}) to ${request.address}${from === null ? '' : ` from ${chain === 'ethereum' || chain === 'polygon' ? 'account' : 'wallet'} "${from}"`}: txid ${txid}.`,
      `Nothing is recorded by this command: the chain watcher records the payment for request ${request.slug} when it scans the block that mines it, and counts it at ${asset.confirmations} confirmations.`,
    ].join('\n'),
  };
}

/** Bitcoin Core's `sendtoaddress` takes the amount as a string, so no float ever carries it. */
async function sendUtxo(rpcUrl: string, address: string, amount: string, wallet: string | undefined): Promise<{ txid: string; from: string | null }> {
  const txid = await new UtxoRpcClient({ url: rpcUrl }).call<string>('sendtoaddress', [address, amount], wallet === undefined ? {} : { wallet });
  return { txid, from: wallet ?? null };
}

/**
 * A value transfer of exactly `wei` from the node's first account (anvil's first dev account, unlocked: the node signs).
 * The node must run the regtest chain id of `chain`, as the watcher requires (a polygon URL given for ethereum would
 * otherwise send coins on the other chain, where the same address is another request's).
 */
async function sendEvm(chain: EvmChain, rpcUrl: string, address: string, wei: bigint): Promise<{ txid: string; from: string }> {
  const node = new EvmRpcClient({ url: rpcUrl });
  const expected = EVM_CHAIN_IDS.regtest[chain];
  const chainId = await node.chainId();
  if (chainId !== expected) throw new BusinessRuleError(`The ${chain} node runs chain id ${chainId}, not ${expected} (${chain} on regtest); nothing was sent.`, { chain: [`Must be chain id ${expected}.`] });
  const [from] = await node.accounts();
  if (from === undefined) throw new BusinessRuleError(`The ${chain} node holds no account to send from (anvil's dev accounts); nothing was sent.`, { chain: ['Needs a node account.'] });
  const txid = await node.sendValue(from, address, wei);
  return { txid, from };
}

const pay: Command = {
  usage: 'pay SLUG AMOUNT [--confirmations N] [--txid T]',
  summary: "record an incoming payment (default: the asset's threshold, a random txid, index 0); on regtest with the chain's node configured, send a real transaction instead",
  options: ['confirmations', 'txid'],
  async run(args, deps) {
    const [slug, amount] = positionalArgs(args, 2, this.usage) as [string, string];
    if (!SLUG_PATTERN.test(slug)) throw new UsageError(`SLUG must be a payment request id (24 letters or digits, got "${slug}")`);
    const request = await deps.em.fork().getRepository(PaymentRequest).findBySlug(slug);
    if (!request) throw new NotFoundError(`No payment request with id ${slug}.`);
    const asset = request.asset as Asset;
    const rpcUrl = deps.network === 'regtest' ? deps.chainNodes?.rpcUrls[asset.chain] : undefined;
    if (rpcUrl !== undefined) {
      // The chain decides the txid and the confirmations of a real transaction.
      for (const option of ['confirmations', 'txid']) {
        if (optionalOption(args, option) !== undefined) throw new UsageError(`--${option} applies only to a payment written directly; on regtest with CRYPTO_${asset.code}_RPC_URL set, pay sends a real transaction`);
      }
      return sendOnChain(request, amount, rpcUrl, deps.chainNodes?.wallet);
    }
    const confirmationsText = optionalOption(args, 'confirmations');
    const confirmations = confirmationsText === undefined ? asset.confirmations : wholeNumber(confirmationsText, '--confirmations');
    const txid = optionalOption(args, 'txid') ?? randomBytes(32).toString('hex');
    const outbox = request.webhookUrl ? await outboxOf(deps) : undefined;
    const recorded = await new PaymentService(deps.em, { events: createPaymentWebhookSink({ outbox }), outbox, ...(deps.network ? { network: deps.network } : {}) }).record({ chain: asset.chain, txid, index: 0, amount, confirmations, to: { slug } });
    const { payment, paymentRequest } = recorded;
    const json = {
      payment: { chain: payment.chain, txid: payment.txid, index: payment.outputIndex, amount: payment.value.toString(), confirmations: payment.confirmations, counted: payment.counted },
      credited: recorded.credited,
      duplicate: recorded.duplicate,
      payment_request: { id: paymentRequest.slug, status: paymentRequest.statusAt(new Date()), amount_paid: paymentRequest.amountPaid.toString(), amount_outstanding: paymentRequest.amountOutstanding?.toString() ?? null, paid_at: paymentRequest.paidAt?.toISOString() ?? null },
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
  },
};

const deliveries: Command = {
  usage: 'deliveries [--account ACCOUNT_ID]',
  summary: 'recent webhook deliveries with their attempts and status codes',
  options: ['account'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const accountText = optionalOption(args, 'account');
    const scope = { accountId: accountText === undefined ? undefined : positiveId(accountText, '--account') };
    const views = (await new WebhookDeliveryService(deps.em).recent(scope)).map(presentWebhookDelivery);
    return { json: { deliveries: views }, text: views.length === 0 ? 'No webhook deliveries.' : views.map((view) => webhookDeliveryLine(view, DELIVERY_EVENT_WIDTH)).join('\n') };
  },
};

const redeliver: Command = {
  usage: 'redeliver DELIVERY_ID',
  summary: 're-send a delivery: a new delivery of the same event (same body)',
  options: [],
  async run(args, deps) {
    const [id] = positionalArgs(args, 1, this.usage);
    const outbox = await outboxOf(deps);
    const { delivery } = await new WebhookDeliveryService(deps.em, outbox).redeliver(id!);
    return {
      json: { delivery_id: delivery.id, workflow_id: delivery.workflowId, redelivery_of: delivery.redeliveryOf, event: delivery.eventName },
      text: `Queued delivery ${delivery.id} (workflow ${delivery.workflowId}), a re-send of ${delivery.redeliveryOf ?? ''} (${delivery.eventName}).`,
    };
  },
};

/** Every command by its words. */
const COMMANDS: Readonly<Record<string, Command>> = {
  'account create': accountCreate,
  'account keys': accountKeys,
  'account gaps': accountGaps,
  'account suspend': accountStatusCommand('suspend'),
  'account unsuspend': accountStatusCommand('unsuspend'),
  assets: assetsList,
  'asset confirmations': assetConfirmations,
  'key create': keyCreate,
  'key revoke': keyRevoke,
  'secret rotate': secretRotate,
  pay,
  deliveries,
  redeliver,
};

export const USAGE = adminUsage('crypto', COMMANDS);

/** Runs `argv` (without --json): the command named by its first one or two words. */
export function runAdminCommand(argv: readonly string[], deps: AdminDeps): Promise<CommandResult> {
  return runAdminCommandOf(COMMANDS, argv, deps);
}

