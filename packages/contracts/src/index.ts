export * from './common.js';
export * from './auth.js';
export * from './health.js';
export * from './tokens.js';
export * from './oem-config.js';
