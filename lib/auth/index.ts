export { Authenticator, type Principal } from './authenticator.js';
export { ensureAdminCredential, CREDENTIALS_INDEX, type StoredCredential } from './admin-credential.js';
export { hashSecret, verifySecret, generatePassword } from './secret-hash.js';
export { parseBasic } from './basic-header.js';
