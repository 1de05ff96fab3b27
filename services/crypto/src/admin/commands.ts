// The operator commands of the crypto service (`npm run admin -- crypto <command>`): argument parsing and output
// only; every rule lives in the domain services (AccountAdminService, AssetService). Each command returns a result
// with one JSON document (--json) and a human text; a bad argument throws UsageError (exit 2), an unknown id the
// kit's NotFoundError (exit 1).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '@tributary/kit';
import { ACCOUNT_STATUSES } from '../modules/accounts/account.entity.js';
import { AccountAdminService } from '../modules/accounts/account-admin.service.js';
import { AssetService, type Asset } from '../modules/assets/index.js';

export const USAGE = `usage: admin crypto <command> [--json]
  account create --name NAME [--xpub ASSET=XPUB ...]   create an account (no --xpub: the public test mnemonic's keys)
  account suspend ACCOUNT_ID | account unsuspend ACCOUNT_ID
  assets                                               list assets (asset_id, code, chain, decimals, confirmations)
  asset confirmations ASSET N                          set an asset's confirmation threshold (never below the spec default)
  key create --account ACCOUNT_ID                      new API key <KEY_ID>.<SECRET>, shown once
  key revoke KEY_ID                                    revoke an API key (next request gets 401)
  secret rotate --account ACCOUNT_ID                   new webhook signing secret whsec_..., shown once; the old one stops at once`;

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
  const key = `${group ?? ''} ${group === 'assets' ? '' : (action ?? '')}`.trim();
  switch (key) {
    case 'account create': {
      const args = parseArgs(rest, ['name', 'xpub']);
      noExtra(args, 0, 'account create --name NAME [--xpub ASSET=XPUB ...]');
      const created = await accounts.createAccount({ name: single(args, 'name'), xpubs: xpubOptions(args.options.get('xpub') ?? []) });
      const { account } = created;
      return {
        json: { account_id: account.id, name: account.name, status: account.status, assets: created.assets, test_keys: created.testKeys, signing_secret: created.signingSecret },
        text: [
          `Created account ${account.id} "${account.name}" (assets: ${created.assets.join(', ')}${created.testKeys ? '; receive keys from the PUBLIC test mnemonic, never for real funds' : ''}).`,
          `Webhook signing secret (shown once, store it now): ${created.signingSecret}`,
          `Next: admin crypto key create --account ${account.id}`,
        ].join('\n'),
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
    default:
      throw new UsageError(group === undefined ? 'missing command' : `unknown command "${argv.slice(0, 2).join(' ')}"`);
  }
}
