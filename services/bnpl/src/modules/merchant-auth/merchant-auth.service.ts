import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthenticationError, bearerCredential, hexDigestsEqual } from '@tributary/kit';
import { ApiKey, VerifiedApiKeyCache, secretKeyMatches, type ApiKeyEnvironment, type VerifiedApiKey } from '../api-keys/index.js';
import { DashboardToken, isDashboardTokenUsable } from './dashboard-token.entity.js';
import { DASHBOARD_TOKEN_PATTERN, hashDashboardToken } from './dashboard-token-credentials.js';
import type { DashboardTokenCredential } from './dashboard-token.repository.js';
import { VerifiedDashboardTokenCache } from './verified-dashboard-token-cache.js';

/**
 * Who is calling, and with which of the spec's two credential flavors. An API key caller carries its key's
 * environment: `livemode` is true for a `live` key (live sessions and loans, fees apply), false for a `test` key.
 */
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
  /** Injected in tests; the wall clock otherwise. */
  clock?: () => Date;
}

/** Authenticates both flavors of the spec; every failure is the same AuthenticationError (the reason is logged only). */
export class MerchantAuthService {
  private readonly verifiedApiKeys: VerifiedApiKeyCache;
  private readonly verifiedDashboardTokens: VerifiedDashboardTokenCache;
  private readonly now: () => Date;

  constructor(
    private readonly em: EntityManager,
    options: MerchantAuthOptions = {},
  ) {
    this.verifiedApiKeys = options.verifiedApiKeys ?? new VerifiedApiKeyCache();
    this.verifiedDashboardTokens = options.verifiedDashboardTokens ?? new VerifiedDashboardTokenCache();
    this.now = options.clock ?? (() => new Date());
  }

  /**
   * DT: `Authorization: Bearer <DASHBOARD_TOKEN>`. A token verified within the last few seconds is answered from the
   * cache (see VerifiedDashboardTokenCache for the revocation delay); its expiry is checked on every request.
   */
  async authenticateDashboard(authorization: string | undefined): Promise<BnplPrincipal & { kind: 'dashboard' }> {
    const credential = bearerCredential(authorization) ?? '';
    // Hash first, whatever arrived, so malformed and unknown tokens cost the same as known ones.
    const hash = hashDashboardToken(credential);
    if (!DASHBOARD_TOKEN_PATTERN.test(credential)) throw new AuthenticationError('malformed dashboard token');
    const token = await this.verifiedDashboardTokens.verifyOnce(hash, () => this.verifyDashboardToken(hash));
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
  async authenticateApiKey(
    authorization: string | undefined,
    publicKey: string | undefined,
  ): Promise<BnplPrincipal & { kind: 'api_key' }> {
    const secretKey = bearerCredential(authorization) ?? '';
    const verified = publicKey
      ? await this.verifiedApiKeys.verifyOnce(publicKey, secretKey, () => this.verifyApiKey(secretKey, publicKey))
      : await this.verifyApiKey(secretKey, undefined);
    return apiKeyPrincipal(verified);
  }

  /**
   * The check behind a cache miss: the key read from the database (revocation), and bcrypt unless this pair was
   * already proven against the key's stored hash (VerifiedApiKeyCache proofs). Unknown public keys and wrong secrets
   * always cost a comparison.
   */
  private async verifyApiKey(secretKey: string, publicKey: string | undefined): Promise<VerifiedApiKey> {
    const key = publicKey ? await this.em.getRepository(ApiKey).findByPublicKeyWithMerchant(publicKey) : null;
    const proven = key !== null && this.verifiedApiKeys.isProven(publicKey!, secretKey, key.secretKeyHash);
    const matches = proven || (await secretKeyMatches(secretKey, key?.secretKeyHash));
    if (!key || !matches) throw new AuthenticationError('unknown public key or wrong secret key');
    if (!proven) this.verifiedApiKeys.recordProof(key.publicKey, secretKey, key.secretKeyHash);
    if (key.isRevoked()) throw new AuthenticationError('revoked API key');
    return { apiKeyId: key.id, merchantId: key.merchant.id, environment: key.environment };
  }

  /** GraphQL accepts either flavor: a public-key header selects KEYS, otherwise the bearer is a dashboard token. */
  authenticateEither(authorization: string | undefined, publicKey: string | undefined): Promise<BnplPrincipal> {
    return publicKey ? this.authenticateApiKey(authorization, publicKey) : this.authenticateDashboard(authorization);
  }
}

function apiKeyPrincipal(key: VerifiedApiKey): BnplPrincipal & { kind: 'api_key' } {
  return { kind: 'api_key', merchantId: key.merchantId, apiKeyId: key.apiKeyId, environment: key.environment, livemode: key.environment === 'live' };
}
