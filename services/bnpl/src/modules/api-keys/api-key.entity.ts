import { defineEntity, p } from '@mikro-orm/core';
import { Merchant } from '../merchants/index.js';
import { ApiKeyRepository } from './api-key.repository.js';

export const API_KEY_ENVIRONMENTS = ['test', 'live'] as const;
export type ApiKeyEnvironment = (typeof API_KEY_ENVIRONMENTS)[number];

/** A merchant API key pair: public key stored as is, secret key only as a bcrypt hash. Revoked keys stay for audit. */
export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  repository: () => ApiKeyRepository,
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    merchant: () => p.manyToOne(Merchant).deleteRule('cascade'),
    name: p.string().length(191),
    environment: p.enum(API_KEY_ENVIRONMENTS),
    publicKey: p.string().length(64).unique(),
    secretKeyHash: p.string().length(60),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  },
});

export class ApiKey extends ApiKeySchema.class {
  isRevoked(): boolean {
    return this.revokedAt != null;
  }
}
ApiKeySchema.setClass(ApiKey);
