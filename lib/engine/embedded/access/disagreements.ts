import { authorizationDisagreements } from '../../../metrics/authorization-disagreements.js';

/**
 * The engine refused (or narrowed) what a request carrying rights asked for: the gateway's check
 * and the engine's disagree (gateway_authorization_disagreements_total).
 */
export function countDisagreement(): void {
  authorizationDisagreements.inc();
}
