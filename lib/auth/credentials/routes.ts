import type { Context, Middleware } from 'koa';
import { EsError, errors } from '../../errors/index.js';
import { jsonBody } from '../../engine/index.js';
import { byRoute, readJsonBody, type Classification } from '../../request/index.js';
import { AppCredentials } from './app-credentials.js';
import type { CredentialStore, WriteOptions } from './credential-store.js';
import { validateCreate, validatePatch, type Credential, type Role } from './credential.js';
import { admitWithin, inheritRestrictions, isWithin, type Grantor } from './grant.js';

export interface CredentialRoutesOptions {
  /** Body size limit for these routes (bytes); credential bodies are small. */
  maxContentLength?: number;
}

/**
 * The credentials API. The authorization middleware in front of these routes lets only the admin
 * and credentials with the `credentials` category through, and only to credentials within their
 * indices. What these routes decide, on the parsed values where the credential is written: rights
 * only narrow. A scoped caller's new credential inherits the caller's restrictions it leaves out
 * and must lie within the caller's rights; a PATCH's result (the stored record with the patch)
 * must lie within them as it stands; an app pair must too (grant.ts). Otherwise 403.
 *
 *   POST   /_credentials                → 201 {credential, password}   (password shown once)
 *   GET    /_credentials                → 200 {credentials: [...]}
 *   GET    /_credentials/{username}     → 200 {credential}
 *   PATCH  /_credentials/{username}     → 200 {credential}
 *   DELETE /_credentials/{username}     → 200 {acknowledged: true, username}
 *   GET    /{index}/_credentials        → 200 {index, credentials: [...]}
 *   POST   /{index}/_credentials        → 201 {credential, password}   ({"read_only": true} for browsers)
 */
export function credentialRoutes(store: CredentialStore, options: CredentialRoutesOptions = {}): Middleware {
  const limit = options.maxContentLength ?? 1024 * 1024;
  const apps = new AppCredentials(store);
  const body = (ctx: Context) => readJsonBody(ctx, limit);

  return byRoute({
    'credentials.create': async (ctx) => {
      const spec = await validateCreate(await body(ctx));
      const grantor = grantorOf(ctx);
      const issued = grantor
        ? await store.create(inheritRestrictions(grantor.credential, spec), { admit: admitWithin(grantor) })
        : await store.create(spec);
      ctx.status = 201;
      answer(ctx, { credential: issued.credential, password: issued.password });
    },
    'credentials.list': async (ctx) => {
      answer(ctx, { credentials: await store.list() });
    },
    'credentials.get': async (ctx, { username }) => {
      answer(ctx, { credential: await store.get(username) });
    },
    'credentials.update': async (ctx, { username }) => {
      const patch = await validatePatch(await body(ctx), username);
      const grantor = grantorOf(ctx);
      const options: WriteOptions = grantor ? { admit: admitWithin(grantor) } : {};
      answer(ctx, { credential: await store.update(username, patch, options) });
    },
    'credentials.delete': async (ctx, { username }) => {
      const grantor = grantorOf(ctx);
      await store.delete(username, grantor ? { admit: admitWithin(grantor) } : {});
      ctx.body = { acknowledged: true, username };
    },
    'index_credentials.list': async (ctx, params) => {
      const index = indexParam(params.index);
      // a scoped caller sees the credentials it could have granted itself, never wider ones
      // (the admin's own pairs for the index): rights only narrow, in what is shown too
      const grantor = grantorOf(ctx);
      const credentials = await store.listForIndex(index);
      ctx.body = { index, credentials: grantor ? credentials.filter((c) => isWithin(c, grantor.credential)) : credentials };
    },
    'index_credentials.create': async (ctx, params) => {
      const index = indexParam(params.index);
      const { readOnly, description } = appPairRequest(await body(ctx));
      const extra = description === undefined ? {} : { description };
      const grantor = grantorOf(ctx);
      const issued = readOnly ? await apps.createReadOnly(index, extra, grantor) : await apps.createAppPair(index, extra, grantor);
      ctx.status = 201;
      ctx.body = { credential: issued.credential, password: issued.password };
    },
  });
}

/**
 * A credential answer: one naming 100,000 index patterns (megabytes of JSON) is serialized as it is
 * sent, in pieces that give other requests their turns, as the engine's large answers are.
 */
function answer(ctx: Context, value: unknown): void {
  ctx.type = 'application/json';
  ctx.body = jsonBody(value, false);
}

/**
 * The caller a write is made for, unless it is the admin (who is not restricted). Fails closed:
 * without an authenticated principal nothing is written.
 */
function grantorOf(ctx: Context): Grantor | undefined {
  // the authenticated principal (lib/auth/authenticator.ts) and the classification, as lib/server/state.ts types them
  const state = ctx.state as { principal?: { role: Role; credential: Credential }; request?: Classification };
  const principal = state.principal;
  if (!principal) throw new EsError(403, 'security_exception', 'the credentials API needs an authenticated caller');
  if (principal.role === 'admin') return undefined;
  return { credential: principal.credential, action: state.request?.action ?? 'cluster:admin/gateway/credentials/put' };
}

/** A concrete index name (the route table gives no API word, `_all`, for `{index}`). */
function indexParam(name: string): string {
  if (/[,*]/.test(name)) throw errors.illegalArgument(`[${name}]: credentials are listed and issued for one concrete index, not a list or pattern`);
  return name;
}

function appPairRequest(body: unknown): { readOnly: boolean; description?: string } {
  if (body === undefined) return { readOnly: false };
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.parse('request body must be a JSON object');
  const obj = body as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (key !== 'read_only' && key !== 'description') {
      throw errors.illegalArgument(`invalid credential request: [${key}] is not a member; known members: read_only, description`);
    }
  }
  if (obj.read_only !== undefined && typeof obj.read_only !== 'boolean') {
    throw errors.illegalArgument('invalid credential request: [read_only] must be true or false');
  }
  if (obj.description !== undefined && (typeof obj.description !== 'string' || obj.description.length > 1024)) {
    throw errors.illegalArgument('invalid credential request: [description] must be a string of at most 1024 characters');
  }
  return { readOnly: obj.read_only === true, description: obj.description as string | undefined };
}
