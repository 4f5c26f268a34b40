import { useEffect, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';

const EXAMPLE = JSON.stringify(
  {
    id: 'friendly-search',
    enabled: true,
    description: 'a helpful answer when the body has no query',
    routes: [{ path: '/_declarative', method: 'POST', classify: { category: 'declarative' } }],
    stages: [
      { id: 'prepare-response', script: 'function handleRequest() { return { response: { code: 422, body: JSON.stringify({ message: "send a query" }) } } }' },
      { id: 'search', use: 'declarativeQuery' },
    ],
  },
  null,
  2,
);
const SAMPLE = JSON.stringify({ method: 'POST', path: '/_declarative', body: {} }, null, 2);

/**
 * Pipelines: the registered ones (`GET /_pipelines`), a definition — JSON with scripts inline, or
 * uploaded files (a YAML/JSON definition and script files) — dry-run (`POST /_pipeline/validate`),
 * saved (`POST /_pipeline`), enabled or disabled, or deleted.
 */
export function PipelinesPage() {
  const [pipelines, setPipelines] = useState(undefined);
  const [definition, setDefinition] = useState(EXAMPLE);
  const [sample, setSample] = useState(SAMPLE);
  const [files, setFiles] = useState({ definition: undefined, scripts: [] });
  const [run, setRun] = useState(undefined);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const load = async () => {
    const r = await call('/_pipelines');
    if (r.status !== 200) return setError(reasonOf(r));
    setPipelines(r.json.pipelines);
  };
  useEffect(() => {
    load();
  }, []);
  const parsed = (text, what) => {
    try {
      return JSON.parse(text);
    } catch (err) {
      setError(`The ${what} is not JSON: ${err.message}`);
      return undefined;
    }
  };
  /**
   * Uploaded files, sent as curl's `-F` would: the definition file (YAML or JSON) as `pipeline`
   * (else the text above), each script file under its own name, which `scriptRef` names.
   */
  const uploaded = (extra = {}) => {
    const form = new FormData();
    form.append('pipeline', files.definition ?? definition);
    for (const script of files.scripts) form.append(script.name, script);
    for (const [name, value] of Object.entries(extra)) form.append(name, value);
    return form;
  };
  const uploading = files.definition || files.scripts.length > 0;
  const dryRun = async () => {
    let body;
    if (uploading) {
      if (!parsed(sample, 'sample request')) return;
      body = uploaded({ request: sample });
    } else {
      const pipeline = parsed(definition, 'definition');
      const request = pipeline && parsed(sample, 'sample request');
      if (!request) return;
      body = { pipeline, request };
    }
    const r = await call('/_pipeline/validate', { method: 'POST', body });
    setMessage('');
    if (r.status !== 200) {
      setRun(undefined);
      return setError(reasonOf(r));
    }
    setError('');
    setRun(r.json);
  };
  const save = async () => {
    const pipeline = uploading ? uploaded() : parsed(definition, 'definition');
    if (!pipeline) return;
    const r = await call('/_pipeline', { method: 'POST', body: pipeline });
    if (r.status !== 201) return setError(reasonOf(r));
    setError('');
    setMessage(`Pipeline ${r.json._id} saved.`);
    await load();
  };
  /** The stored definition again with `enabled` flipped, its script files beside it (`PUT /_pipeline/{id}`, multipart). */
  const toggle = async (p) => {
    const { scripts, owner: _owner, ...definition } = p;
    const form = new FormData();
    form.append('pipeline', JSON.stringify({ ...definition, enabled: !p.enabled }));
    for (const [name, source] of Object.entries(scripts ?? {})) form.append(name, source);
    const r = await call(`/_pipeline/${encodeURIComponent(p.id)}`, { method: 'PUT', body: form });
    if (r.status >= 300) return setError(reasonOf(r));
    setError('');
    setMessage(`Pipeline ${p.id} ${p.enabled ? 'disabled' : 'enabled'}.`);
    await load();
  };
  const remove = async (id) => {
    const r = await call(`/_pipeline/${encodeURIComponent(id)}`, { method: 'DELETE' });
    if (r.status !== 200) return setError(reasonOf(r));
    setMessage(`Pipeline ${id} deleted.`);
    await load();
  };
  return (
    <section aria-labelledby="pipelines-title">
      <h2 id="pipelines-title">Pipelines</h2>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status" data-testid="pipeline-message">{message}</p>}
      {pipelines && (
        <table>
          <caption>Registered pipelines</caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Enabled</th>
              <th scope="col">Routes</th>
              <th scope="col">Stages</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {pipelines.map((p) => (
              <tr key={p.id} data-testid="pipeline-row">
                <th scope="row">{p.id}</th>
                <td>{p.enabled ? 'yes' : 'no'}</td>
                <td>{(p.routes ?? []).map((r) => `${r.method ?? '*'} ${r.path}`).join(', ')}</td>
                <td>{(p.stages ?? []).map((s) => s.id).join(' → ')}</td>
                <td>
                  <button type="button" aria-label={`${p.enabled ? 'Disable' : 'Enable'} ${p.id}`} onClick={() => toggle(p)}>{p.enabled ? 'Disable' : 'Enable'}</button>{' '}
                  <button type="button" class="danger" aria-label={`Delete ${p.id}`} onClick={() => remove(p.id)}>Delete</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="editor">
        <label>
          Definition (JSON, scripts inline)
          <textarea name="pipeline-definition" rows={14} value={definition} onInput={(e) => setDefinition(e.currentTarget.value)} />
        </label>
        <fieldset>
          <legend>Or upload files (as <code>curl -F</code> sends them)</legend>
          <label>
            Definition file (YAML or JSON; replaces the text above)
            <input type="file" name="pipeline-file" accept=".yaml,.yml,.json" onChange={(e) => setFiles({ ...files, definition: e.currentTarget.files[0] })} />
          </label>
          <label>
            Script files (named by the stages' <code>scriptRef</code>)
            <input type="file" name="pipeline-scripts" accept=".js" multiple onChange={(e) => setFiles({ ...files, scripts: Array.from(e.currentTarget.files) })} />
          </label>
        </fieldset>
        <label>
          Sample request for the dry run
          <textarea name="pipeline-sample" rows={4} value={sample} onInput={(e) => setSample(e.currentTarget.value)} />
        </label>
        <div class="pager">
          <button type="button" onClick={dryRun}>Dry run</button>
          <button type="button" onClick={save}>Save pipeline</button>
        </div>
      </div>
      {run && (
        <div data-testid="dry-run">
          <h3>Dry run</h3>
          <ol>
            {run.stages.map((s) => (
              <li key={s.stage} data-testid="stage-outcome">
                {s.stage}: {s.outcome}
                {s.message ? ` (${s.message})` : ''}
              </li>
            ))}
          </ol>
          <p>
            Response <strong data-testid="dry-run-code">{run.response.code}</strong>
          </p>
          <pre>{typeof run.response.body === 'string' ? run.response.body : JSON.stringify(run.response.body, null, 2)}</pre>
        </div>
      )}
    </section>
  );
}
