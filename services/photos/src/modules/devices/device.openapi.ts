// The device routes as OpenAPI operations; device.routes.ts mounts its handlers on these definitions.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { heartbeatInput } from './device.validation.js';

export const deviceResource = z
  .object({
    id: z.number().int(),
    device_id: z.string(),
    name: z.string().nullable(),
    platform: z.string().nullable(),
    os_version: z.string().nullable(),
    app_version: z.string().nullable(),
    queue_depth: z.number().int().nullable(),
    last_seen_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'PhotosDevice' });

export const deviceResponse = z.object({ data: deviceResource });

export const deviceApi = {
  heartbeat: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/devices/heartbeat`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'deviceHeartbeat',
      summary: "Report the device's upload queue depth and app version",
      description: 'Needs a device token (login with a device_id; 403 otherwise). Stores the values with last_seen_at on the device, which the office reads in GraphQL (PhotosTeam.devices).',
      tags: ['Devices'],
      security: ACCESS_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: heartbeatInput } } },
      responses: { '200': { description: 'The device as stored.', content: { 'application/json': { schema: deviceResponse } } } },
    },
  }),
};
