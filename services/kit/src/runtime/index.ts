// `@tributary/kit/runtime`: what turns a service definition into its commands (migrate | seed | serve | worker).
// A separate entry point because the worker side loads the Temporal worker (native code) that HTTP-only users do not need.
export * from './definition.js';
export * from './compose-app.js';
export * from './service.js';
export * from './worker.js';
export * from './worker-listener.js';
export * from './cli.js';
export * from './temporal-runtime.js';
export * from './retry-until-done.js';
