/** The request path's state (lib/auth/gateway-state.ts), under the name the server's modules use. */
export type { GatewayState } from '../auth/index.js';
