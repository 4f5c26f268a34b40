export { guardConnections, holdBodyBack, listenWithin, serverOptions, type ConnectionGuard, type ConnectionGuardOptions, type ConnectionLimits } from './connection-guard.js';
export { letGo } from './let-go.js';
