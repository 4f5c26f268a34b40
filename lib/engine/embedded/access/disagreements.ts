import { Counter } from 'prom-client';

/**
 * Requests the embedded engine refused (or narrowed) although they carried the caller's rights:
 * the gateway let through what the engine, checking where it acts, did not. Always 0 when both
 * agree. Process-wide (every embedded engine of the process counts here); each gateway's
 * registry shows it (lib/metrics registers it).
 */
export const authorizationDisagreements = new Counter({
  name: 'gateway_authorization_disagreements_total',
  help: 'Requests the embedded engine refused although the gateway had authorized them (the two checks disagree)',
  registers: [],
});

/**
 * The engine refused (or narrowed) what a request carrying rights asked for: the gateway's check
 * and the engine's disagree (gateway_authorization_disagreements_total).
 */
export function countDisagreement(): void {
  authorizationDisagreements.inc();
}

/** The count so far (for specs, and for anyone without a registry at hand). */
export async function authorizationDisagreementCount(): Promise<number> {
  const { values } = await authorizationDisagreements.get();
  return values[0]?.value ?? 0;
}
