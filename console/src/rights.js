// What the signed-in credential may do, as GET /_security/_authenticate says it (metadata.gateway).
// The console shows a page only when the credential may use it; the gateway decides all the same.

const gateway = (me) => me.metadata?.gateway ?? {};

export const isAdmin = (me) => me.roles.includes('admin');

/** Whether the credential may use a category's APIs (with `op`, that operation too): the admin all of them. */
export const may = (me, category, op) =>
  isAdmin(me) || ((gateway(me).categories ?? []).includes(category) && (op === undefined || (gateway(me).ops ?? []).includes(op)));

/** Lists its indices, reads their mappings and counts: `search` (a reader of them) or `indices` (their administrator). */
export const readsIndices = (me) => may(me, 'search') || may(me, 'indices');

/**
 * The origins a browser page may call from with a credential whose `referers` are these: the part
 * of each pattern up to its path (`https://shop.example/*` → `https://shop.example`), as the
 * gateway allows them (lib/server/credential-origins.ts). Empty: only the origins of CORS_ORIGINS.
 */
export function originsOf(referers = []) {
  return referers.map((pattern) => {
    const authority = pattern.indexOf('://');
    if (authority < 0) return pattern;
    const path = pattern.indexOf('/', authority + 3);
    return path < 0 ? pattern : pattern.slice(0, path);
  });
}

/** The origins the signed-in credential may be used from by a browser page. */
export const allowedOrigins = (me) => originsOf(gateway(me).referers);
