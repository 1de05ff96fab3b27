// 405 for a path the app serves with other methods, built from the app's own routes (the router stack), so it can never
// disagree with what is mounted. OPTIONS on such a path gets Express's automatic answer (200, Allow, the methods as
// text), which a catch-all 404 would otherwise pre-empt for routes registered on the app itself.
import type { Express, RequestHandler } from 'express';
import { MethodNotAllowedError } from '../errors/index.js';
import { methodsServedAt } from '../openapi/route-inventory.js';

/** Mounted after every route and right before the 404: a served path with an unserved method answers 405 + Allow. */
export function refuseUnservedMethods(app: Express): RequestHandler {
  return (req, res, next) => {
    const served = methodsServedAt(app, req.path);
    if (served.size === 0 || served.has('*') || served.has(req.method)) return next();
    const allowed = [...served].sort();
    if (req.method === 'OPTIONS') {
      const allow = allowed.join(', ');
      res.set('Allow', allow).type('text/plain').send(allow);
      return;
    }
    next(new MethodNotAllowedError(req.method, req.path, allowed));
  };
}
