export interface BasicCredentials {
  username: string;
  password: string;
}

/** Parses `Authorization: Basic …`; undefined when absent or not Basic. */
export function parseBasic(header: string | undefined): BasicCredentials | undefined {
  if (!header) return undefined;
  const m = /^\s*Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
