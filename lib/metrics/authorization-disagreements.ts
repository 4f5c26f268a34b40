/** Counted by the embedded engine where it acts (lib/engine); registered with each gateway's metrics. */
export { authorizationDisagreements, authorizationDisagreementCount } from '../engine/index.js';
