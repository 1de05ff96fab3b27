// The origin of the links this service hands out (a session's checkout_url): PUBLIC_BASE_URL when configured (always
// in a deployment, and under `npm start`), else the origin the request itself reached (a service run by hand, tests).
import type { Request } from 'express';

export function publicBaseUrl(configured: string | undefined, req: Request): string {
  return configured ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}
