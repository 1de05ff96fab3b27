import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { EntityRepository } from '@mikro-orm/postgresql';
import { OPEN_SESSION_STATUSES } from './session-status-engine.js';
import type { WidgetSession } from './widget-session.entity.js';

/** Who may see a session by token: the merchant and the mode (test or live) of the credential that asks. */
export interface SessionViewer {
  merchantId: string;
  livemode: boolean;
}

/**
 * Queries of widget sessions. Taken from a transaction's EntityManager (`tx.getRepository(WidgetSession)`), the
 * `lock…` reads are `SELECT … FOR UPDATE` on the session row, held until that transaction ends; every state change
 * goes through one of them.
 */
export class WidgetSessionRepository extends EntityRepository<WidgetSession> {
  /** The session of this token if the viewer may see it (its merchant, its mode), else null: the same answer for both. */
  findVisible(token: string, viewer: SessionViewer): Promise<WidgetSession | null> {
    return this.findOne(visibleWhere(token, viewer), { populate: ['merchant'] });
  }

  lockVisible(token: string, viewer: SessionViewer): Promise<WidgetSession | null> {
    return this.lockOne(visibleWhere(token, viewer));
  }

  /** By token alone (the shopper's capability: the checkout page). */
  findByToken(token: string): Promise<WidgetSession | null> {
    return this.findOne({ token }, { populate: ['merchant'] });
  }

  lockByToken(token: string): Promise<WidgetSession | null> {
    return this.lockOne({ token });
  }

  lockById(id: string): Promise<WidgetSession | null> {
    return this.lockOne({ id });
  }

  /** The session an Idempotency-Key of this merchant already created, if any. */
  findByIdempotencyKey(merchantId: string, idempotencyKey: string): Promise<WidgetSession | null> {
    return this.findOne({ merchant: merchantId, idempotencyKey }, { populate: ['merchant'] });
  }

  /** The merchant's most recent sessions, newest first (created_at, then id, both descending); one mode's when given. */
  recentFor(merchantId: string, limit: number, livemode?: boolean): Promise<WidgetSession[]> {
    const where = livemode === undefined ? { merchant: merchantId } : { merchant: merchantId, livemode };
    return this.find(where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
  }

  /** Sessions a payment link started that are still open at `now` (served by the partial index of open link sessions). */
  countOpenForPaymentLink(paymentLinkId: string, now: Date): Promise<number> {
    return this.count({ paymentLinkId, status: { $in: [...OPEN_SESSION_STATUSES] }, expiresAt: { $gt: now } });
  }

  /**
   * The id of the loan checkout booked for this session, if any. Read by column here because the loans module
   * references sessions (a loan belongs to its session): importing it back would tie the two modules in a cycle.
   */
  async loanIdOf(sessionId: string): Promise<string | null> {
    const rows = await this.em.getConnection().execute<Array<{ id: string }>>('select "id" from "loans" where "session_id" = ?', [sessionId], 'all', this.em.getTransactionContext());
    return rows[0]?.id ?? null;
  }

  /** Re-reads the row from the database under `FOR UPDATE` (the merchant is loaded by a separate query, unlocked). */
  private async lockOne(where: FilterQuery<WidgetSession>): Promise<WidgetSession | null> {
    const session = await this.findOne(where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (session) await this.em.populate(session, ['merchant']);
    return session;
  }
}

function visibleWhere(token: string, viewer: SessionViewer): FilterQuery<WidgetSession> {
  return { token, merchant: viewer.merchantId, livemode: viewer.livemode };
}
