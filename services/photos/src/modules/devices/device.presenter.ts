import type { z } from 'zod';
import type { Device } from './device.entity.js';
import type { deviceResource } from './device.openapi.js';

export function presentDevice(device: Device): z.input<typeof deviceResource> {
  return {
    id: device.id,
    device_id: device.deviceId,
    name: device.name ?? null,
    platform: device.platform ?? null,
    os_version: device.osVersion ?? null,
    app_version: device.appVersion ?? null,
    queue_depth: device.queueDepth ?? null,
    last_seen_at: device.lastSeenAt?.toISOString() ?? null,
    created_at: device.createdAt.toISOString(),
  };
}
