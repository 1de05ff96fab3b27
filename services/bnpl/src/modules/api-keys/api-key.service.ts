import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, parseInput, wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import type { BnplPrincipal } from '../dashboard-auth/dashboard-auth.service.js';
import { Merchant } from '../merchants/merchant.entity.js';
import { API_KEY_ENVIRONMENTS, ApiKey } from './api-key.entity.js';
import { generateKeyPair, hashSecretKey } from './api-key-credentials.js';

export const createApiKeyInput = z.object({
  name: wellFormedText(z.string().trim().min(1).max(191)),
  environment: z.enum(API_KEY_ENVIRONMENTS),
});

/** A newly created key: the only moment the secret key is readable. */
export interface CreatedApiKey {
  key: ApiKey;
  secretKey: string;
}

export class ApiKeyService {
  constructor(private readonly em: EntityManager) {}

  listActive(principal: BnplPrincipal): Promise<ApiKey[]> {
    return this.em.getRepository(ApiKey).activeFor(principal.merchantId);
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
  }
}
