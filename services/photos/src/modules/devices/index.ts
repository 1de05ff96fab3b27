// Capture devices (spec "Bootstrap and heartbeat"): one row per (team, user, device_id), registered by a device login,
// kept current by POST /api/v1/devices/heartbeat, listed for the office in GraphQL (PhotosTeam.devices).
import { DeviceSchema } from './device.entity.js';

export {
  DEVICE_ID_MAX_LENGTH, DEVICE_NAME_MAX_LENGTH, DEVICE_PLATFORM_MAX_LENGTH, DEVICE_VERSION_MAX_LENGTH, Device, DeviceSchema,
} from './device.entity.js';
export { type DeviceRegistration } from './device.repository.js';
export { DeviceService } from './device.service.js';
export { deviceRoutes } from './device.routes.js';
export { deviceResolvers } from './device.resolvers.js';
export { deviceApi } from './device.openapi.js';

export const deviceEntities = [DeviceSchema];
