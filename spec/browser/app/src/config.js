/**
 * Where the gateway is and who the page is, read at run time from the page's query string so one
 * build serves any gateway: `?url=http://host:port&app=books&credentials=user:password`.
 */
export function readConfig(search) {
  const params = new URLSearchParams(search);
  const url = params.get('url');
  const app = params.get('app');
  const credentials = params.get('credentials');
  if (!url || !app || !credentials) return { error: 'missing ?url=, ?app= or ?credentials= in the page address' };
  return { url, app, credentials };
}
