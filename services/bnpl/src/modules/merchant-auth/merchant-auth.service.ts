import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthenticationError, bearerCredential, hexDigestsEqual, type AuthenticationFailureLimit } from '@tributary/kit';
import { ApiKey, PUBLIC_KEY_PATTERN, SECRET_KEY_PATTERN, VerifiedApiKeyCache, secretKeyMatches, type ApiKeyEnvironment, type VerifiedApiKey } from '../api-keys/index.js';
import { DashboardToken, isDashboardTokenUsable } from './dashboard-token.entity.js';
import { DASHBOARD_TOKEN_PATTERN, hashDashboardToken } from './dashboard-token-credentials.js';
import type { DashboardTokenCredential } from './dashboard-token.repository.js';
import { VerifiedDashboardTokenCache } from './verified-dashboard-token-cache.js';

/**
 * Who is calling, and with which of the spec's two credential flavors. An API key caller carries its key's
 * environment: `livemode` is true for a `live` key (live sessions and loans, fees apply), false for a `test` key.
 */
/** Who called a PK route: the merchant and the mode of the active key whose public key came with the request. */
export interface PublicKeyCaller {
  merchantId: string;
  apiKeyId: string;
  environment: ApiKeyEnvironment;
}

export type BnplPrincipal =
  | { kind: 'dashboard'; merchantId: string; merchantUserId: string; tokenId: string }
  | { kind: 'api_key'; merchantId: string; apiKeyId: string; environment: ApiKeyEnvironment; livemode: boolean };

export interface MerchantAuthOptions {
  /**
   * Verified API key pairs (process-wide; shared with ApiKeyService so a revocation is forgotten at once). A new
   * cache per service when omitted.
   */
  verifiedApiKeys?: VerifiedApiKeyCache;
  /** Verified dashboard tokens (process-wide; shared with DashboardLoginService so a logout is forgotten at once). */
  verifiedDashboardTokens?: VerifiedDashboardTokenCache;
  /**
   * Failed authentications per client (a client IP key): spent by a credential that was looked up and refused, checked
   * before the next lookup. Without it (operator commands, unit tests) nothing is counted.
   */
  failureLimit?: AuthenticationFailureLimit;
  /** Injected in tests; the wall clock otherwise. */
  clock?: () => Date;
}

/** Who presents a credential, for the failure budget: a client key (clientIpKey), or undefined when not counted. */
export type CredentialClient = string | undefined;

/**
 * Every refusal is the same AuthenticationError (the reason is logged only). A missing or malformed credential is
 * refused before any lookup, an unknown one after one indexed read; bcrypt runs only for a known public key whose
 * pair was not proven against its stored hash (VerifiedApiKeyCache), and failures spend the client's budget.
 */

export class MerchantAuthService {
  private readonly verifiedApiKeys: VerifiedApiKeyCache;
  private readonly verifiedDashboardTokens: VerifiedDashboardTokenCache;
  private readonly failureLimit: AuthenticationFailureLimit | undefined;
  private readonly now: () => Date;

  constructor(
    private readonly em: EntityManager,
    options: MerchantAuthOptions = {},
  ) {
    this.verifiedApiKeys = options.verifiedApiKeys ?? new VerifiedApiKeyCache();
    this.verifiedDashboardTokens = options.verifiedDashboardTokens ?? new VerifiedDashboardTokenCache();
    this.failureLimit = options.failureLimit;
    this.now = options.clock ?? (() => new Date());
  }

  /**
   * DT: `Authorization: Bearer <DASHBOARD_TOKEN>`. A token verified within the last few seconds is answered from the
   * cache (see VerifiedDashboardTokenCache for the revocation delay); its expiry is checked on every request.
   */
  async authenticateDashboard(authorization: string | undefined, client?: CredentialClient): Promise<BnplPrincipal & { kind: 'dashboard' }> {
    const credential = bearerCredential(authorization);
    if (!credential || !DASHBOARD_TOKEN_PATTERN.test(credential)) throw new AuthenticationError('missing or malformed dashboard token');
    const hash = hashDashboardToken(credential);
    const token = await this.verifiedDashboardTokens.verifyOnce(hash, () => this.limited(client, () => this.verifyDashboardToken(hash)));
    if (!isDashboardTokenUsable(token, this.now())) throw new AuthenticationError('expired dashboard token');
    return { kind: 'dashboard', merchantId: token.merchantId, merchantUserId: token.merchantUserId, tokenId: token.id };
  }

  /** The check behind a cache miss: the token read from the database; unknown, revoked and expired tokens refused. */
  private async verifyDashboardToken(hash: string): Promise<DashboardTokenCredential> {
    const token = await this.em.getRepository(DashboardToken).findCredentialByHash(hash);
    if (!token || !hexDigestsEqual(hash, token.tokenHash)) throw new AuthenticationError('unknown dashboard token');
    if (!isDashboardTokenUsable(token, this.now())) throw new AuthenticationError('revoked or expired dashboard token');
    return token;
  }

  /**
   * KEYS: `Authorization: Bearer <SECRET_KEY>` plus `X-Merchant-Public-Key: <PUBLIC_KEY>`. A pair verified within the
   * last few seconds is answered from the cache (see VerifiedApiKeyCache for the revocation delay); requests arriving
   * while the pair is being verified wait for that one verification.
   */
  async authenticateApiKey(authorization: string | undefined, publicKey: string | undefined, client?: CredentialClient): Promise<BnplPrincipal & { kind: 'api_key' }> {
    const secretKey = bearerCredential(authorization);
    if (!secretKey || !SECRET_KEY_PATTERN.test(secretKey) || !publicKey || !PUBLIC_KEY_PATTERN.test(publicKey)) {
      throw new AuthenticationError('missing or malformed API key pair');
    }
    const verified = await this.verifiedApiKeys.verifyOnce(publicKey, secretKey, () => this.limited(client, () => this.verifyApiKey(secretKey, publicKey)));
    return apiKeyPrincipal(verified);
  }

  /**
   * The check behind a cache miss: the key read by its public key (revocation, stored hash), then bcrypt unless this
   * pair was already proven against that stored hash (VerifiedApiKeyCache proofs).
   */
  private async verifyApiKey(secretKey: string, publicKey: string): Promise<VerifiedApiKey> {
    const key = await this.em.getRepository(ApiKey).findByPublicKeyWithMerchant(publicKey);
    if (!key) throw new AuthenticationError('unknown public key');
    const proven = this.verifiedApiKeys.isProven(publicKey, secretKey, key.secretKeyHash);
    if (!proven && !(await secretKeyMatches(secretKey, key.secretKeyHash))) throw new AuthenticationError('wrong secret key');
    if (!proven) this.verifiedApiKeys.recordProof(publicKey, secretKey, key.secretKeyHash);
    if (key.isRevoked()) throw new AuthenticationError('revoked API key');
    return { apiKeyId: key.id, merchantId: key.merchant.id, environment: key.environment };
  }

  /**
   * PK: `X-Merchant-Public-Key` of an active (unrevoked) key; no secret is involved. A missing, malformed, unknown or
   * revoked public key is the one 401.
   */
  async authenticatePublicKey(publicKey: string | undefined, client?: CredentialClient): Promise<PublicKeyCaller> {
    if (!publicKey || !PUBLIC_KEY_PATTERN.test(publicKey)) throw new AuthenticationError('missing or malformed public key');
    return this.limited(client, async () => {
      const key = await this.em.getRepository(ApiKey).findByPublicKeyWithMerchant(publicKey);
      if (!key) throw new AuthenticationError('unknown public key');
      if (key.isRevoked()) throw new AuthenticationError('revoked public key');
      return { merchantId: key.merchant.id, apiKeyId: key.id, environment: key.environment };
    });
  }

  /** GraphQL accepts either flavor: a public-key header selects KEYS, otherwise the bearer is a dashboard token. */
  authenticateEither(authorization: string | undefined, publicKey: string | undefined, client?: CredentialClient): Promise<BnplPrincipal> {
    return publicKey ? this.authenticateApiKey(authorization, publicKey, client) : this.authenticateDashboard(authorization, client);
  }

  /** Runs a lookup under the client's failure budget (when there is a budget and a client). */
  private limited<T>(client: CredentialClient, lookup: () => Promise<T>): Promise<T> {
    return this.failureLimit && client !== undefined ? this.failureLimit.guard(client, lookup) : lookup();
  }
}

function apiKeyPrincipal(key: VerifiedApiKey): BnplPrincipal & { kind: 'api_key' } {
  return { kind: 'api_key', merchantId: key.merchantId, apiKeyId: key.apiKeyId, environment: key.environment, livemode: key.environment === 'live' };
}
