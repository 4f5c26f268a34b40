/**
 * Interceptors of the user-facing Backend (see lib/engine/interceptor.ts for the contract). The
 * system-index guard is access control's (lib/auth); the ones here follow what reaches the engine.
 */
export { changePublishing } from './change-publishing.js';
export { requestValue, wireRequest } from './request-value.js';
