import type { Backend } from '../engine/index.js';
import { callJson } from '../engine/index.js';
import { generatePassword, hashSecret } from './secret-hash.js';

export const CREDENTIALS_INDEX = '.gateway-credentials';

export interface StoredCredential {
  username: string;
  role: 'admin';
  hash: string;
  created_at: string;
}

export interface AdminSource {
  adminUser?: string;
  adminPassword?: string;
}

/**
 * The admin credential: from configuration when given (hashed in memory only), otherwise the one
 * stored in the credentials system index, otherwise a generated one — stored hashed and returned
 * with its plaintext exactly once so the caller can print it.
 */
export async function ensureAdminCredential(
  backend: Backend,
  source: AdminSource,
): Promise<{ credential: StoredCredential; generatedPassword?: string }> {
  if (source.adminUser && source.adminPassword) {
    return {
      credential: {
        username: source.adminUser,
        role: 'admin',
        hash: await hashSecret(source.adminPassword),
        created_at: new Date().toISOString(),
      },
    };
  }
  await ensureCredentialsIndex(backend);
  const existing = await callJson<{ found?: boolean; _source?: StoredCredential }>(
    backend, 'GET', `/${CREDENTIALS_INDEX}/_doc/admin`,
  );
  if (existing.status === 200 && existing.body.found && existing.body._source?.role === 'admin') {
    return { credential: existing.body._source };
  }
  if (existing.status !== 404) {
    throw new Error(`reading the admin credential failed with status ${existing.status}`);
  }
  const password = generatePassword();
  const credential: StoredCredential = {
    username: 'admin',
    role: 'admin',
    hash: await hashSecret(password),
    created_at: new Date().toISOString(),
  };
  // op_type=create: when two nodes start together, only one generated credential wins.
  const put = await callJson(backend, 'PUT', `/${CREDENTIALS_INDEX}/_create/admin`, credential, 'refresh=true');
  if (put.status === 409) return ensureAdminCredential(backend, source);
  if (put.status >= 300) throw new Error(`storing the admin credential failed with status ${put.status}`);
  return { credential, generatedPassword: password };
}

/**
 * The credentials system index: hidden, so wildcard expressions do not reach it, and mapped so
 * that hashes are stored, never indexed. Credentials are read by id or all at once (match_all),
 * never searched by a member: nothing but `username`, `role` and `app` is indexed (`dynamic:
 * false`), so a credential naming 100,000 index patterns is a small write, not 100,000 terms.
 */
export async function ensureCredentialsIndex(backend: Backend): Promise<void> {
  const res = await callJson<{ error?: { type?: string } }>(backend, 'PUT', `/${CREDENTIALS_INDEX}`, {
    settings: { 'index.hidden': true, number_of_shards: 1, number_of_replicas: 0 },
    mappings: { dynamic: false, properties: { username: { type: 'keyword' }, app: { type: 'keyword' }, role: { type: 'keyword' } } },
  });
  if (res.status >= 300 && res.body?.error?.type !== 'resource_already_exists_exception') {
    throw new Error(`creating ${CREDENTIALS_INDEX} failed with status ${res.status}`);
  }
}
