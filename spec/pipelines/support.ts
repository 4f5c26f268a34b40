import { adminAuth } from '../support/http.js';

export interface Registered {
  status: number;
  json: any;
}

/** `POST /_pipeline` (or PUT /_pipeline/{id}) as multipart/form-data: the definition file and one key per script file. */
export async function registerPipeline(
  base: string,
  definition: string,
  scripts: Record<string, string> = {},
  options: { auth?: string; method?: 'POST' | 'PUT'; path?: string; extra?: Record<string, string> } = {},
): Promise<Registered> {
  const form = new FormData();
  form.append('pipeline', new Blob([definition], { type: 'application/yaml' }), 'pipeline.yaml');
  for (const [name, source] of Object.entries(scripts)) form.append(name, new Blob([source], { type: 'application/javascript' }), name);
  for (const [name, value] of Object.entries(options.extra ?? {})) form.append(name, value);
  const res = await fetch(base + (options.path ?? '/_pipeline'), { method: options.method ?? 'POST', headers: { authorization: options.auth ?? adminAuth() }, body: form });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}
