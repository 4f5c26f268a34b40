import { useEffect, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';
import { useIndices } from './data.jsx';

const EXAMPLE = JSON.stringify({ name: 'promote a document', enabled: true, trigger: { type: 'query', operator: 'is', value: 'sale' }, actions: { promote: [{ doc: { _id: '1' }, position: 1 }] } }, null, 2);

/**
 * Query rules: the rules (`GET /_rules`, in evaluation order, with their usage), one edited as
 * JSON, previewed on a search before it is stored (a declarative search with
 * `settings.queryRule`), saved (`PUT /_rule/{id}`), moved up or down the order
 * (`PUT /_rules/_order`) or deleted.
 */
export function RulesPage() {
  const indices = useIndices();
  const [rules, setRules] = useState(undefined);
  const [id, setId] = useState('');
  const [definition, setDefinition] = useState(EXAMPLE);
  const [index, setIndex] = useState('');
  const [field, setField] = useState('name');
  const [text, setText] = useState('sale');
  const [preview, setPreview] = useState(undefined);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const load = async () => {
    const r = await call('/_rules');
    if (r.status !== 200) return setError(reasonOf(r));
    setRules(r.json.rules);
  };
  useEffect(() => {
    load();
  }, []);
  useEffect(() => {
    if (indices.length) setIndex((current) => current || indices[0]);
  }, [indices]);
  const rule = () => {
    try {
      return JSON.parse(definition);
    } catch (err) {
      setError(`The rule is not JSON: ${err.message}`);
      return undefined;
    }
  };
  const search = async (queryRule) => {
    const body = { query: [{ id: 'preview', dataField: [field], value: text, size: 10 }] };
    if (queryRule) body.settings = { queryRule };
    const r = await call(`/${encodeURIComponent(index)}/_declarative`, { method: 'POST', body });
    if (r.status !== 200) throw new Error(reasonOf(r));
    const answer = r.json.preview;
    return { ids: (answer.hits?.hits ?? []).map((h) => h._id), promoted: (answer.promoted ?? []).map((p) => p.doc?._id), hidden: answer.hits?.hidden ?? 0 };
  };
  const runPreview = async () => {
    const queryRule = rule();
    if (!queryRule) return;
    try {
      const [without, withRule] = await Promise.all([search(undefined), search(queryRule)]);
      setError('');
      setPreview({ without, withRule });
    } catch (err) {
      setError(err.message);
    }
  };
  const save = async () => {
    const body = rule();
    if (!body) return;
    const r = id.trim()
      ? await call(`/_rule/${encodeURIComponent(id.trim())}`, { method: 'PUT', body })
      : await call('/_rule', { method: 'POST', body });
    if (r.status >= 300) return setError(reasonOf(r));
    setError('');
    setMessage(`Rule ${r.json._id} ${r.json.result}.`);
    await load();
  };
  const remove = async (ruleId) => {
    const r = await call(`/_rule/${encodeURIComponent(ruleId)}`, { method: 'DELETE' });
    if (r.status !== 200) return setError(reasonOf(r));
    setMessage(`Rule ${ruleId} deleted.`);
    await load();
  };
  const move = async (at, by) => {
    const ids = rules.map((r) => r.id);
    [ids[at], ids[at + by]] = [ids[at + by], ids[at]];
    const r = await call('/_rules/_order', { method: 'PUT', body: { ids } });
    if (r.status !== 200) return setError(reasonOf(r));
    setError('');
    setMessage(`Rule ${ids[at + by]} moved ${by < 0 ? 'up' : 'down'}.`);
    await load();
  };
  const edit = (r) => {
    const { id: ruleId, owner: _owner, usage: _usage, ...body } = r;
    setId(ruleId);
    setDefinition(JSON.stringify(body, null, 2));
  };
  return (
    <section aria-labelledby="rules-title">
      <h2 id="rules-title">Query rules</h2>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status" data-testid="rule-message">{message}</p>}
      {rules && (
        <table>
          <caption>Rules, in the order they are evaluated</caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Name</th>
              <th scope="col">Trigger</th>
              <th scope="col">Fired</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {rules.map((r, at) => (
              <tr key={r.id} data-testid="rule-row">
                <th scope="row">{r.id}</th>
                <td>{r.name ?? ''}</td>
                <td>{JSON.stringify(r.trigger)}</td>
                <td>{r.usage ?? 0}</td>
                <td>
                  <button type="button" onClick={() => move(at, -1)} disabled={at === 0} aria-label={`Move ${r.id} up`}>↑</button>{' '}
                  <button type="button" onClick={() => move(at, 1)} disabled={at === rules.length - 1} aria-label={`Move ${r.id} down`}>↓</button>{' '}
                  <button type="button" onClick={() => edit(r)} aria-label={`Edit ${r.id}`}>Edit</button>{' '}
                  <button type="button" class="danger" onClick={() => remove(r.id)} aria-label={`Delete ${r.id}`}>Delete</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="editor">
        <label>
          Id (empty: generated)
          <input name="rule-id" value={id} onInput={(e) => setId(e.currentTarget.value)} />
        </label>
        <label>
          Rule (JSON)
          <textarea name="rule-definition" rows={10} value={definition} onInput={(e) => setDefinition(e.currentTarget.value)} />
        </label>
        <fieldset>
          <legend>Preview on a search</legend>
          <label>
            Index
            <select name="rule-index" value={index} onChange={(e) => setIndex(e.currentTarget.value)}>
              {indices.map((i) => (
                <option key={i} value={i}>{i}</option>
              ))}
            </select>
          </label>
          <label>
            Field
            <input name="rule-field" value={field} onInput={(e) => setField(e.currentTarget.value)} />
          </label>
          <label>
            Search text
            <input name="rule-text" value={text} onInput={(e) => setText(e.currentTarget.value)} />
          </label>
        </fieldset>
        <div class="pager">
          <button type="button" onClick={runPreview}>Preview</button>
          <button type="button" onClick={save}>Save rule</button>
        </div>
      </div>
      {preview && (
        <div class="preview">
          <div>
            <h3>Without the rule</h3>
            <ol data-testid="preview-without">
              {preview.without.ids.map((d) => <li key={d}>{d}</li>)}
            </ol>
          </div>
          <div>
            <h3>With the rule</h3>
            <ol data-testid="preview-with">
              {preview.withRule.ids.map((d) => <li key={d}>{d}{preview.withRule.promoted.includes(d) ? ' (promoted)' : ''}</li>)}
            </ol>
            {preview.withRule.hidden > 0 && <p>{preview.withRule.hidden} hidden</p>}
          </div>
        </div>
      )}
    </section>
  );
}
