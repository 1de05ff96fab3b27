// The heartbeat body (POST /api/v1/devices/heartbeat) as a zod schema: the route documents it and the service parses
// with it.
import { wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { DEVICE_PLATFORM_MAX_LENGTH, DEVICE_VERSION_MAX_LENGTH } from './device.entity.js';

/** Largest queue depth accepted (the column is a 32-bit integer). */
export const QUEUE_DEPTH_MAX = 2 ** 31 - 1;

const text = (max: number) => wellFormedText(z.string().trim().min(1).max(max));

export const heartbeatInput = z.object({
  queue_depth: z.number().int().min(0).max(QUEUE_DEPTH_MAX).meta({ description: 'Captures waiting on the device to be uploaded.', example: 3 }),
  app_version: text(DEVICE_VERSION_MAX_LENGTH).meta({ example: '1.4.2' }),
  platform: text(DEVICE_PLATFORM_MAX_LENGTH).optional().meta({ description: 'Replaces the platform given at login when sent.', example: 'ios' }),
  os_version: text(DEVICE_VERSION_MAX_LENGTH).optional().meta({ example: '18.2' }),
});
export type HeartbeatInput = z.infer<typeof heartbeatInput>;
