// Onboarding and platform settings of merchants (spec: "MDR set at onboarding", "cadence set by a platform
// administrator, outside this interface"): the operator commands' one domain path (src/admin/).
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConflictError, NotFoundError, parseInput, hashPassword } from '@tributary/kit';
import { z } from 'zod';
import { Merchant, type SettlementCadence } from './merchant.entity.js';
import { MerchantUser } from './merchant-user.entity.js';
import { addMerchantUserInput, createMerchantInput, mdrBpsInput, settlementCadenceInput, type AddMerchantUserInput, type CreateMerchantInput } from './merchant.validation.js';

export interface CreatedMerchant {
  merchant: Merchant;
  user: MerchantUser;
}

/** A setting change: the merchant after it, and whether the value was different before. */
export interface MerchantSettingChange {
  merchant: Merchant;
  changed: boolean;
}

export class MerchantAdminService {
  constructor(private readonly em: EntityManager) {}

  /** A merchant with its first dashboard user (the e-mail must not belong to any user yet). */
  async createMerchant(input: CreateMerchantInput): Promise<CreatedMerchant> {
    const data = parseInput(createMerchantInput, input);
    const passwordHash = await hashPassword(data.password);
    return this.em.transactional(async (tx) => {
      await assertEmailFree(tx, data.email);
      const merchant = tx.create(Merchant, { name: data.name, mdrBps: data.mdrBps, settlementCadence: data.cadence });
      const user = tx.create(MerchantUser, { merchant, email: data.email, name: data.userName ?? localPart(data.email), passwordHash });
      await flushUnique(tx, data.email);
      return { merchant, user };
    });
  }

  /** Another dashboard user of an existing merchant. */
  async addUser(input: AddMerchantUserInput): Promise<MerchantUser> {
    const data = parseInput(addMerchantUserInput, input);
    const passwordHash = await hashPassword(data.password);
    return this.em.transactional(async (tx) => {
      const merchant = await findMerchant(tx, data.merchantId);
      await assertEmailFree(tx, data.email);
      const user = tx.create(MerchantUser, { merchant, email: data.email, name: data.userName ?? localPart(data.email), passwordHash });
      await flushUnique(tx, data.email);
      return user;
    });
  }

  setSettlementCadence(merchantId: string, cadence: SettlementCadence): Promise<MerchantSettingChange> {
    const value = parseInput(z.strictObject({ cadence: settlementCadenceInput }), { cadence }).cadence;
    return this.change(merchantId, (merchant) => {
      const changed = merchant.settlementCadence !== value;
      merchant.settlementCadence = value;
      return changed;
    });
  }

  setMdrBps(merchantId: string, mdrBps: number): Promise<MerchantSettingChange> {
    const value = parseInput(z.strictObject({ mdrBps: mdrBpsInput }), { mdrBps }).mdrBps;
    return this.change(merchantId, (merchant) => {
      const changed = merchant.mdrBps !== value;
      merchant.mdrBps = value;
      return changed;
    });
  }

  private change(merchantId: string, apply: (merchant: Merchant) => boolean): Promise<MerchantSettingChange> {
    return this.em.transactional(async (tx) => {
      const merchant = await findMerchant(tx, merchantId);
      const changed = apply(merchant);
      await tx.flush();
      return { merchant, changed };
    });
  }
}

async function findMerchant(em: EntityManager, id: string): Promise<Merchant> {
  const merchant = z.uuid().safeParse(id).success ? await em.getRepository(Merchant).findById(id) : null;
  if (!merchant) throw new NotFoundError(`No merchant with id ${id}.`);
  return merchant;
}

const emailTaken = (email: string) => new ConflictError(`A dashboard user with e-mail ${email} already exists.`);

async function assertEmailFree(em: EntityManager, email: string): Promise<void> {
  if ((await em.count(MerchantUser, { email })) > 0) throw emailTaken(email);
}

/** Flushes; a concurrent insert of the same e-mail (the unique index) reads as the same conflict. */
async function flushUnique(em: EntityManager, email: string): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw emailTaken(email);
    throw error;
  }
}

function localPart(email: string): string {
  return email.slice(0, email.lastIndexOf('@')).slice(0, 191);
}
