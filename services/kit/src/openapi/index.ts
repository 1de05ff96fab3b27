export * from './api-route.js';
export * from './document.js';
export * from './error-bodies.js';
export * from './route-inventory.js';
