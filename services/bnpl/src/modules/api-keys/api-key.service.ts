import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, parseInput } from '@tributary/kit';
import { z } from 'zod';
import type { BnplPrincipal } from '../merchant-auth/index.js';
import { Merchant } from '../merchants/index.js';
import { ApiKey } from './api-key.entity.js';
import { generateKeyPair, hashSecretKey } from './api-key-credentials.js';
import { createApiKeyInput } from './api-key.validation.js';
import type { VerifiedApiKeyCache } from './verified-api-key-cache.js';

/** A newly created key: the only moment the secret key is readable. */
export interface CreatedApiKey {
  key: ApiKey;
  secretKey: string;
}

export class ApiKeyService {
  /** `verifiedKeys`: the cache MerchantAuthService authenticates through, so a revoked key is forgotten at once. */
  constructor(
    private readonly em: EntityManager,
    private readonly verifiedKeys?: VerifiedApiKeyCache,
  ) {}

  /** The merchant's active keys: every one for the dashboard, an API key pair only its own environment's. */
  listActive(principal: BnplPrincipal): Promise<ApiKey[]> {
    return this.em.getRepository(ApiKey).activeFor(principal.merchantId, principal.kind === 'api_key' ? principal.environment : undefined);
  }

  async create(principal: BnplPrincipal, body: unknown): Promise<CreatedApiKey> {
    const input = parseInput(createApiKeyInput, body);
    const { publicKey, secretKey } = generateKeyPair(input.environment);
    const key = this.em.create(ApiKey, {
      merchant: this.em.getReference(Merchant, principal.merchantId),
      name: input.name,
      environment: input.environment,
      publicKey,
      secretKeyHash: await hashSecretKey(secretKey),
    });
    await this.em.flush();
    return { key, secretKey };
  }

  /** Revokes one of the merchant's own keys; another merchant's or an unknown id reads as not found. */
  async revoke(principal: BnplPrincipal, id: string): Promise<void> {
    const key = z.uuid().safeParse(id).success
      ? await this.em.getRepository(ApiKey).findOne({ id, merchant: principal.merchantId, revokedAt: null })
      : null;
    if (!key) throw new NotFoundError(`api key ${id}`);
    key.revokedAt = new Date();
    await this.em.flush();
    this.verifiedKeys?.forget(key.id);
  }
}
