// The photos service's Temporal worker: the kit's service worker (shared webhook delivery workflow on the `photos` task
// queue, activities on the photos database, the workflow outbox's sweeper) with photos' signing-secret resolver and
// the photo media workflow's activities (thumbnails and video posters).
import {
  startServiceWorker,
  type RunningWorker,
  type ServiceWorkerContext,
  type ServiceWorkerDefinition,
  type SigningSecretContext,
  type StartServiceWorkerOptions,
} from '@tributary/kit/runtime';
import { loadConfig, publicBaseUrl, secretBoxFor, secretsEnv, secretsFields, serviceEnv } from '@tributary/kit';
import { assertMediaBinaries, photoMediaActivities, type PhotoMediaActivityDeps } from './media/index.js';
import { z } from 'zod';
import { mediaFields } from './config.js';
import { MediaUrlSigner, PhotoRenditionRecords } from './modules/photos/index.js';
import { ReportRenderRecords, ReportUrlSigner, photosReportActivities, type ReportActivityDeps, type ReportUrls } from './modules/reports/index.js';
import { createTeamWebhookEmitter } from './modules/webhooks/index.js';
import { mediaSigningSecret } from './media-config.js';
import { WebhookEndpoint, webhookSecretSeal } from './modules/webhook-endpoints/index.js';
import { createMediaStorage } from './storage/index.js';
import { SERVICE_NAME } from './service-name.js';

export type { RunningWorker } from '@tributary/kit/runtime';

/** What the media activities need besides the worker's logger: the configured storage and the photo record. */
export type MediaActivityWiring = Pick<PhotoMediaActivityDeps, 'storage' | 'renditions'>;

/** What the report activities need besides the worker's logger: the configured storage and the report record. */
export type ReportActivityWiring = Pick<ReportActivityDeps, 'storage' | 'records'>;

export function startWorker(options: StartServiceWorkerOptions): Promise<RunningWorker> {
  // Fail at startup (naming SECRETS_ENCRYPTION_KEY) rather than at the first delivery.
  loadConfig(secretsEnv, options.env ?? process.env);
  return startServiceWorker({ name: SERVICE_NAME, worker: photosWorker }, options);
}

/**
 * The photos part of a worker definition, with the media activities' dependencies given by `media`. ffmpeg and ffprobe
 * are checked when the worker starts (`npm start`'s worker and the `worker` command), so a binary without run bits
 * stops it with the fix named instead of failing every video later.
 */
export function photosWorkerDefinition(
  media: (context: ServiceWorkerContext) => MediaActivityWiring,
  reports?: (context: ServiceWorkerContext) => ReportActivityWiring,
): ServiceWorkerDefinition {
  return {
    resolveSigningSecret,
    activities: (context) => {
      assertMediaBinaries();
      const mediaActivities = photoMediaActivities({ ...media(context), logger: context.logger });
      return reports ? { ...mediaActivities, ...photosReportActivities({ ...reports(context), logger: context.logger }) } : mediaActivities;
    },
  };
}

/** The media activities' storage (the service's: local disk or S3, from the same env) and the photo record. */
export function mediaActivityWiring(context: ServiceWorkerContext): MediaActivityWiring {
  return {
    storage: createMediaStorage(loadConfig(z.object(mediaFields), context.env)),
    renditions: new PhotoRenditionRecords(context.orm.em),
  };
}

/**
 * The report activities' storage and the report record, which announces report.ready / report.failed through the
 * team's webhooks with the REST resource's URLs: signed with the service's secret for its public base URL
 * (PUBLIC_BASE_URL, else HOST and PORT, as `serve`), read when the first report finishes.
 */
export function reportActivityWiring(context: ServiceWorkerContext): ReportActivityWiring {
  const urls = (): ReportUrls => {
    const config = loadConfig(z.object({ ...secretsFields, PUBLIC_BASE_URL: serviceEnv.shape.PUBLIC_BASE_URL, HOST: serviceEnv.shape.HOST, PORT: serviceEnv.shape.PORT.optional() }), context.env);
    const { PORT: port } = config;
    if (!config.PUBLIC_BASE_URL && port === undefined) throw new Error('The photos worker needs PUBLIC_BASE_URL (or PORT) to sign the URLs in report webhooks.');
    const baseUrl = config.PUBLIC_BASE_URL ?? publicBaseUrl({ ...config, PORT: port! });
    const secret = mediaSigningSecret(config);
    return { media: new MediaUrlSigner(secret, baseUrl), reports: new ReportUrlSigner(secret, baseUrl) };
  };
  return {
    storage: createMediaStorage(loadConfig(z.object(mediaFields), context.env)),
    records: new ReportRenderRecords(context.orm.em, { sink: createTeamWebhookEmitter({ outbox: context.outbox }), urls }),
  };
}

/** The photos part of the worker definition (photosService.worker). */
export const photosWorker: ServiceWorkerDefinition = photosWorkerDefinition(mediaActivityWiring, reportActivityWiring);

/**
 * Resolves a delivery's `signingSecretRef` (`webhook_endpoint:<id>`) to the endpoint's secret, decrypted at send time.
 * Null (the endpoint was deleted) records the attempt as failed rather than sending it unsigned; a wrong
 * SECRETS_ENCRYPTION_KEY throws (infrastructure trouble: the attempt is retried, not recorded).
 */
export async function resolveSigningSecret(ref: string, context: SigningSecretContext): Promise<string | null> {
  const seal = webhookSecretSeal(secretBoxFor(loadConfig(secretsEnv, context.env)));
  return seal.resolve(ref, (endpointId) => context.em.getRepository(WebhookEndpoint).sealedSecretOf(endpointId));
}
