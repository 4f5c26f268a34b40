import { within } from '../../support/within.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Backend } from '../../../lib/engine/index.js';
import type { ChangeBus } from '../../../lib/changes/index.js';
import type { GatewayRequest } from '../../../lib/request/index.js';
import { Authenticator, CredentialStore, accountApi, credentialRoutes, hashSecret, type Principal, type StoredCredential } from '../../../lib/auth/index.js';
import { esResponse } from '../../../lib/server/es-response.js';
import { authenticate } from '../../../lib/server/authenticate.js';
import { canonicalRequest } from '../../../lib/server/request-target.js';
import { classify } from '../../../lib/server/classify.js';
import { call, type CallOptions, type Reply } from '../../support/http.js';
import { ADMIN } from '../../support/servers.js';

let adminRecord: Promise<StoredCredential> | undefined;
/** The test admin, hashed once per run (scrypt is slow on purpose). */
export function testAdmin(): Promise<StoredCredential> {
  return (adminRecord ??= hashSecret(ADMIN.password).then((hash) => ({
    username: ADMIN.user, role: 'admin' as const, hash, created_at: new Date().toISOString(),
  })));
}

export interface TestNode {
  url: string;
  store: CredentialStore;
  authenticator: Authenticator;
  /** Everything the node logged. */
  logs: string[];
  /** Every reply this node sent through `request`, for the secrets scan. */
  replies: Reply[];
  request<T = any>(method: string, path: string, options?: CallOptions): Promise<Reply<T>>;
  close(): Promise<void>;
}

/**
 * One gateway node as the lead will assemble it, minus authorization: ES-shaped errors,
 * authentication, the credential routes, and `GET /_whoami` (the authenticated principal) as a
 * stand-in for every other route.
 */
export async function startNode(backend: Backend, bus?: ChangeBus): Promise<TestNode> {
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const admin = await testAdmin();
  const store = new CredentialStore(backend, { bus, reservedUsernames: [admin.username], log });
  const authenticator = new Authenticator(admin, 'search-gateway', { store, bus, log });
  await authenticator.ready();
  const app = new Koa();
  app.silent = true;
  app.use(esResponse(log));
  app.use(canonicalRequest());
  app.use(authenticate(authenticator));
  // the request value, which the credential routes are dispatched on
  app.use(classify(1024 * 1024));
  app.use(credentialRoutes(store));
  // the Security plugin's change of one's own password, which writes through the same store
  const account = accountApi({ store, maxContentLength: 1024 * 1024, passwordMatches: (username, password, ip) => authenticator.passwordMatches(username, password, ip) });
  app.use((ctx, next) => ((ctx.state.gatewayRequest as GatewayRequest | undefined)?.route === 'security.account' ? account(ctx, next) : next()));
  // `GET /_whoami`, read from the request value as every route is
  app.use(async (ctx, next) => {
    const req = ctx.state.gatewayRequest as GatewayRequest | undefined;
    if (req?.method !== 'GET' || req.segments.length !== 1 || req.segments[0] !== '_whoami') return next();
    ctx.body = ctx.state.principal as Principal;
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const replies: Reply[] = [];
  return {
    url,
    store,
    authenticator,
    logs,
    replies,
    async request(method, path, options) {
      const reply = await call(url, method, path, options);
      replies.push(reply);
      return reply;
    },
    async close() {
      authenticator.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const eventually = (check: () => Promise<boolean> | boolean, timeoutMs = 3_000): Promise<number> => within(timeoutMs, check);
