// Operator-side account management (the spec's "done in the dashboard"; here the `admin` commands): accounts with
// their receive keys, API keys, suspension and the webhook signing secret. Every rule lives here; the command layer
// only parses arguments and prints.
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError, type SecretBox } from '@tributary/kit';
import {
  DEFAULT_CHAIN_NETWORK,
  TEST_KEYS_ON_MAINNET_MESSAGE,
  accountXpubs,
  saveAccountXpubs,
  testMnemonicAccountKeys,
  validateAccountXpubs,
  type ChainNetwork,
  type ReceiveAsset,
} from '../receive-addresses/index.js';
import { Account, type AccountStatus } from './account.entity.js';
import { ApiKey } from './api-key.entity.js';
import { generateApiKey, hashSecret } from './api-key-credentials.js';
import { SigningSecretService } from './signing-secret.service.js';

export interface CreatedAccount {
  account: Account;
  /** Assets the account can be paid in (those with a receive key). */
  assets: ReceiveAsset[];
  /** True when the keys come from the public test mnemonic (no --xpub given). */
  testKeys: boolean;
  /** The new account's webhook signing secret, shown once. */
  signingSecret: string;
}

export class AccountAdminService {
  constructor(
    private readonly em: EntityManager,
    private readonly box: SecretBox,
    /** CRYPTO_NETWORK: receive keys must be this network's (a test-network key on mainnet is refused, and vice versa). */
    private readonly network: ChainNetwork = DEFAULT_CHAIN_NETWORK,
  ) {}

  /**
   * Creates an active account with receive keys `xpubs` (validated first; nothing is written when one is bad or
   * belongs to another account) or, when none are given, the public test mnemonic's keys for BIP32 account n' where n
   * is the new account's id (its own keys, see test-mnemonic.ts), and a fresh webhook signing secret.
   */
  async createAccount(input: { name: string; xpubs?: Record<string, string> }): Promise<CreatedAccount> {
    const name = input.name.trim();
    if (name === '' || name.length > 191) throw new ValidationError({ name: ['The name must be 1 to 191 characters.'] }, 'The account name must be 1 to 191 characters.');
    const given = input.xpubs && Object.keys(input.xpubs).length > 0 ? validateAccountXpubs(this.network, input.xpubs!) : undefined;
    if (!given && this.network === 'mainnet') throw new ValidationError({ xpub: [TEST_KEYS_ON_MAINNET_MESSAGE] }, TEST_KEYS_ON_MAINNET_MESSAGE);
    return this.em.transactional(async (tx) => {
      const account = tx.create(Account, { name, status: 'active' });
      await tx.flush();
      const xpubs = given ?? testMnemonicAccountKeys(account.id);
      await saveAccountXpubs(tx, this.network, account.id, xpubs);
      const signingSecret = await new SigningSecretService(tx, this.box).rotate(account.id);
      return { account, assets: Object.keys(xpubs).sort() as ReceiveAsset[], testKeys: !given, signingSecret };
    });
  }

  /**
   * Registers or replaces receive keys of an existing account (e.g. its own key after a shared one was taken away). A
   * replaced key keeps its cursor and stays the account's; another account's key is refused on `xpub.<ASSET>`.
   * Returns every asset the account can now be paid in.
   */
  async setReceiveKeys(accountId: number, xpubs: Record<string, string>): Promise<{ accountId: number; assets: ReceiveAsset[] }> {
    await this.requireAccount(accountId);
    if (Object.keys(xpubs).length === 0) throw new ValidationError({ xpub: ['Give at least one ASSET=XPUB.'] }, 'Give at least one receive key (ASSET=XPUB).');
    await saveAccountXpubs(this.em, this.network, accountId, validateAccountXpubs(this.network, xpubs));
    return { accountId, assets: Object.keys(await accountXpubs(this.em, accountId)).sort() as ReceiveAsset[] };
  }

  /** A new API key for the account; returns `<KEY_ID>.<SECRET>` (the only time the secret exists in plaintext). */
  async createApiKey(accountId: number, name = 'Operator key'): Promise<{ key: string; keyId: string; accountId: number }> {
    const account = await this.requireAccount(accountId);
    const generated = generateApiKey();
    this.em.create(ApiKey, { account, keyId: generated.keyId, secretHash: hashSecret(generated.secret), name });
    await this.em.flush();
    return { key: generated.plaintext, keyId: generated.keyId, accountId: account.id };
  }

  /** Revokes a key by its key id; the next request with it gets the 401. Revoking a revoked key keeps its first date. */
  async revokeApiKey(keyId: string): Promise<{ keyId: string; accountId: number; revokedAt: Date; alreadyRevoked: boolean }> {
    const key = await this.em.findOne(ApiKey, { keyId });
    if (!key) throw new NotFoundError(`No API key with id ${keyId}.`);
    const alreadyRevoked = key.revokedAt != null;
    key.revokedAt ??= new Date();
    await this.em.flush();
    return { keyId: key.keyId, accountId: key.account.id, revokedAt: key.revokedAt, alreadyRevoked };
  }

  /** Suspends or reactivates an account; takes effect on its next request. */
  async setStatus(accountId: number, status: AccountStatus): Promise<{ account: Account; changed: boolean }> {
    const account = await this.requireAccount(accountId);
    const changed = account.status !== status;
    account.status = status;
    await this.em.flush();
    return { account, changed };
  }

  /** Replaces the account's signing secret at once; returns the new one (shown once, never again). */
  async rotateSigningSecret(accountId: number): Promise<{ accountId: number; signingSecret: string }> {
    await this.requireAccount(accountId);
    return { accountId, signingSecret: await new SigningSecretService(this.em, this.box).rotate(accountId) };
  }

  private async requireAccount(accountId: number): Promise<Account> {
    const account = Number.isSafeInteger(accountId) && accountId > 0 ? await this.em.findOne(Account, { id: accountId }) : null;
    if (!account) throw new NotFoundError(`No account with id ${accountId}.`);
    return account;
  }
}
