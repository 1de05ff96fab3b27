// Work that must happen only once a transaction has committed (starting the workflows its outbox rows ask for): the
// transaction's callback returns it next to its result, so there is no flag set inside the transaction and read after
// it, and nothing runs when the transaction rolls back.
import type { EntityManager } from '@mikro-orm/postgresql';

/** What runs after the commit. It must not throw: the change is stored whatever it does (failures are its to log). */
export type AfterCommit = () => Promise<void>;

/** What a transaction's callback returns: its result and, optionally, the work to run once it has committed. */
export interface Committed<T> {
  result: T;
  afterCommit?: AfterCommit | undefined;
}

/**
 * Runs `work` in a transaction on `em` and, once the transaction has committed, the `afterCommit` it returned; resolves
 * to its `result`. A rollback (a thrown error) runs nothing after it.
 */
export async function transactionWithAfterCommit<T>(em: EntityManager, work: (tx: EntityManager) => Promise<Committed<T>>): Promise<T> {
  const { result, afterCommit } = await em.transactional(work);
  if (afterCommit) await afterCommit();
  return result;
}

/** The work of several parts of one transaction, run in order (undefined parts are skipped). */
export function afterCommitAll(...parts: ReadonlyArray<AfterCommit | undefined>): AfterCommit | undefined {
  const present = parts.filter((part): part is AfterCommit => part !== undefined);
  if (present.length <= 1) return present[0];
  return async () => {
    for (const part of present) await part();
  };
}
