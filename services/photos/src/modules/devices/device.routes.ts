import { mountApiRoute, serviceRouter } from '@tributary/kit';
import type { Router } from 'express';
import { principalOf, requireDeviceToken, requireToken, type AuthService } from '../auth/index.js';
import { deviceApi } from './device.openapi.js';
import { presentDevice } from './device.presenter.js';
import type { DeviceService } from './device.service.js';

/** /api/v1/devices/* (device tokens); paths come from device.openapi.ts. */
export function deviceRoutes(auth: AuthService, devices: DeviceService): Router {
  const router = serviceRouter();
  mountApiRoute(router, deviceApi.heartbeat, requireToken(auth), requireDeviceToken(), async (req, res) => {
    res.json({ data: presentDevice(await devices.heartbeat(principalOf(res), req.body)) });
  });
  return router;
}
