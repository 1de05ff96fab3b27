// Bootstrap: everything the capture app needs on first run in one response (GET /api/v1/bootstrap), and the TagSource
// port through which the module that stores tags supplies them.
export { BootstrapService, type Bootstrap, type BootstrapServiceOptions } from './bootstrap.service.js';
export { type TagSource } from './tag-source.js';
export { type ChecklistSource } from './checklist-source.js';
export { bootstrapRoutes } from './bootstrap.routes.js';
export { bootstrapApi } from './bootstrap.openapi.js';
