// Webhook signing secrets: `whsec_` + 48 characters [A-Za-z0-9], separate from API keys (spec "Credentials").
// HMAC needs the plaintext at send time, so the secret is stored sealed (AES-256-GCM, kit SecretBox) rather than
// hashed; the sealed value is bound to its account (associated data), so it does not open on another row.
// One current secret per account: rotation overwrites it, so signatures made with the old one stop verifying at once.
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, randomChars, type SecretBox } from '@tributary/kit';
import { Account } from './account.entity.js';

export const SIGNING_SECRET_PREFIX = 'whsec_';
const SIGNING_SECRET_PATTERN = /^whsec_[A-Za-z0-9]{48}$/;
const REF_PATTERN = /^account:([1-9]\d{0,9})$/;

export function generateSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomChars(48)}`;
}

export function isSigningSecret(value: string): boolean {
  return SIGNING_SECRET_PATTERN.test(value);
}

/** The delivery's `signingSecretRef` for an account: `account:<id>` (resolved to the CURRENT secret at send time). */
export function signingSecretRef(accountId: number): string {
  return `account:${accountId}`;
}

function sealContext(accountId: number): string {
  return `crypto:account:${accountId}:signing-secret`;
}

export class SigningSecretService {
  constructor(
    private readonly em: EntityManager,
    private readonly box: SecretBox,
  ) {}

  /**
   * Replaces the account's signing secret with a new random one (or `secret`, for the seed's fixed dev value) and
   * returns the plaintext: the only time it is shown. Throws NotFoundError for an unknown account.
   */
  async rotate(accountId: number, secret: string = generateSigningSecret()): Promise<string> {
    if (!isSigningSecret(secret)) throw new Error('a signing secret is whsec_ followed by 48 characters [A-Za-z0-9]');
    const account = await this.em.findOne(Account, { id: accountId });
    if (!account) throw new NotFoundError(`No account with id ${accountId}.`);
    account.signingSecretSealed = this.box.seal(secret, sealContext(account.id));
    account.signingSecretRotatedAt = new Date();
    await this.em.flush();
    return secret;
  }

  /** The account's current signing secret, or null (no account, never set). Throws SecretBoxError under a wrong key. */
  async current(accountId: number): Promise<string | null> {
    const account = await this.em.findOne(Account, { id: accountId }, { refresh: true });
    if (!account?.signingSecretSealed) return null;
    return this.box.open(account.signingSecretSealed, sealContext(account.id));
  }

  /** Resolves a delivery's `signingSecretRef` (`account:<id>`); null for any other reference. */
  async resolve(ref: string): Promise<string | null> {
    const match = REF_PATTERN.exec(ref);
    return match ? this.current(Number(match[1])) : null;
  }
}
