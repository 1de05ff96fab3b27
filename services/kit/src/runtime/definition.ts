// What a service hands the kit's runtime: everything about it that is not the same in every service.
import type { Constructor, MigrationObject } from '@mikro-orm/core';
import type { Migration } from '@mikro-orm/migrations';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { ServiceName } from '@tributary/workflows';
import type { Express } from 'express';
import type { z } from 'zod';
import type { ServiceEnv } from '../config/index.js';
import type { EntityClassOrSchema } from '../database/index.js';
import type { Logger } from '../logging/index.js';
import type { WorkflowOutbox } from '../outbox/index.js';
import type { WebhookDelivery } from '../webhooks/index.js';

/** A service's Express app plus what it holds open (subgraph, readiness connections); the ORM belongs to the caller. */
export interface ServiceApp {
  app: Express;
  /** Stops the subgraph and the readiness probe's Temporal connection (not the ORM: its owner closes it). */
  close(): Promise<void>;
}

export interface BuildServiceAppOptions<C extends ServiceEnv = ServiceEnv> {
  orm: MikroORM;
  logger: Logger;
  config: C;
}

/** What the runtime hands `resolveSigningSecret`: a fresh EntityManager on the service's database and the process env. */
export interface SigningSecretContext {
  em: EntityManager;
  env: NodeJS.ProcessEnv;
}

/** What the runtime hands a service's own worker parts (extra activities, background loops). */
export interface ServiceWorkerContext {
  /** The worker's ORM (fork an EntityManager per unit of work). */
  orm: MikroORM;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** Dispatches the workflow starts and signals an activity's transaction enqueued, right after its commit. */
  outbox: WorkflowOutbox;
  /** The worker's Temporal client (the outbox's), e.g. to create the service's Schedules at start. */
  temporal: Client;
}

export interface ServiceWorkerDefinition {
  /**
   * Resolves a delivery's signing-secret reference at send time (so a rotated secret applies to the next attempt);
   * null records the attempt as failed rather than sending it unsigned.
   */
  resolveSigningSecret(ref: string, context: SigningSecretContext): Promise<string | null>;
  /**
   * Renders a delivery's body at each attempt (e.g. fields its spec wants as they are at the moment of sending); the
   * result is signed and sent. Without it every attempt sends the stored body.
   */
  renderWebhookBody?(delivery: WebhookDelivery, attemptedAt: Date, context: SigningSecretContext): Promise<string>;
  /**
   * The service's own activities (for its own workflows, e.g. crypto's invoice expiry), registered on its task queue
   * next to the webhook delivery activities. Names must not clash with those.
   */
  activities?(context: ServiceWorkerContext): object;
  /** Background loops that run while the worker runs (e.g. sweepers); each is stopped before the worker's connections close. */
  background?(context: ServiceWorkerContext): Array<{ stop(): Promise<void> }>;
}

export interface ServiceDefinition<C extends ServiceEnv = ServiceEnv, TCredentials extends object = object> {
  /** Service name: logs, task queue (TASK_QUEUES[name]), webhook rows. */
  name: ServiceName;
  /** The `serve` command's environment schema (serviceEnv or an extension of it). */
  env: z.ZodObject & z.ZodType<C>;
  entities: EntityClassOrSchema[];
  migrations: Array<MigrationObject | Constructor<Migration>>;
  buildApp(options: BuildServiceAppOptions<C>): Promise<ServiceApp>;
  /** Idempotent demo data; returns the credentials `seed` prints as `{"credentials": ...}`. */
  seed(em: EntityManager): Promise<TCredentials>;
  worker: ServiceWorkerDefinition;
}

/** Identity function that pins the definition's config and credentials types. */
export function defineService<C extends ServiceEnv, TCredentials extends object>(definition: ServiceDefinition<C, TCredentials>): ServiceDefinition<C, TCredentials> {
  return definition;
}
