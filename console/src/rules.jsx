import { useEffect, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';
import { useIndices } from './data.jsx';

const EXAMPLE = { name: 'promote a document', enabled: true, trigger: { type: 'query', operator: 'is', value: 'sale' }, actions: { promote: [{ doc: { _id: '1' }, position: 1 }] } };
const OPERATORS = [['is', 'is'], ['contains', 'contains'], ['starts_with', 'starts with'], ['ends_with', 'ends with'], ['matches', 'matches (regular expression)']];
const list = (text) => text.split(',').map((t) => t.trim()).filter(Boolean);

/** A rule as the form shows it (what the form has no field for stays in the rule as it is). */
function formOf(rule) {
  const trigger = rule.trigger ?? {};
  const listed = Array.isArray(rule.actions) ? rule.actions : undefined;
  // the API answers a rule's actions as a list (`[{type, value}]`): each type once is the object form
  const byType = listed && new Set(listed.map((a) => a.type)).size === listed.length ? Object.fromEntries(listed.map((a) => [a.type, a.value])) : undefined;
  const actions = listed ? byType ?? {} : rule.actions ?? {};
  const [filterField = '', filterValue = ''] = Object.entries(actions.add_filter ?? {})[0] ?? [];
  return {
    name: rule.name ?? '',
    enabled: rule.enabled !== false,
    type: trigger.type ?? 'query',
    operator: trigger.operator ?? 'is',
    value: trigger.value ?? '',
    triggerField: trigger.filter?.field ?? '',
    triggerValue: trigger.filter?.value ?? '',
    indices: (trigger.indices ?? []).join(', '),
    promote: [...(actions.promote ?? [])].sort((a, b) => a.position - b.position).map((p) => p.doc?._id).join(', '),
    hide: (actions.hide ?? []).map((h) => (typeof h === 'string' ? h : h._id)).join(', '),
    filterField,
    filterValue: Array.isArray(filterValue) ? filterValue.join(', ') : String(filterValue),
    replaceTerm: actions.replace_search_term ?? '',
    customData: actions.custom_data === undefined ? '' : JSON.stringify(actions.custom_data),
    // a list the form cannot show as one (a type twice: applied in order) is edited as JSON
    listedActions: Boolean(listed) && !byType,
  };
}

/** The rule a form says, over the rule it was filled from; throws when custom data is not JSON. */
function ruleOf(form, base) {
  const trigger = { ...(base.trigger ?? {}), type: form.type };
  for (const k of ['operator', 'value', 'filter', 'indices']) delete trigger[k];
  if (form.type === 'query') Object.assign(trigger, { operator: form.operator, value: form.value });
  if (form.type === 'filter') trigger.filter = { field: form.triggerField, value: form.triggerValue };
  if (list(form.indices).length) trigger.indices = list(form.indices);
  const actions = form.listedActions ? base.actions : Array.isArray(base.actions) ? Object.fromEntries(base.actions.map((a) => [a.type, a.value])) : { ...(base.actions ?? {}) };
  if (!form.listedActions) {
    for (const k of ['promote', 'hide', 'add_filter', 'replace_search_term', 'custom_data']) delete actions[k];
    const promoted = list(form.promote);
    if (promoted.length) actions.promote = promoted.map((_id, i) => ({ doc: { _id }, position: i + 1 }));
    if (list(form.hide).length) actions.hide = list(form.hide);
    if (form.filterField.trim()) {
      const values = list(form.filterValue);
      actions.add_filter = { [form.filterField.trim()]: values.length === 1 ? values[0] : values };
    }
    if (form.replaceTerm.trim()) actions.replace_search_term = form.replaceTerm.trim();
    if (form.customData.trim()) {
      try {
        actions.custom_data = JSON.parse(form.customData);
      } catch (err) {
        throw new Error(`The custom data is not JSON: ${err.message}`);
      }
    }
  }
  const rule = { ...base, name: form.name, enabled: form.enabled, trigger, actions };
  if (!form.name) delete rule.name;
  return rule;
}

/**
 * Query rules: the rules (`GET /_rules`, in evaluation order, with their usage), one edited in a
 * form (trigger, promoted and hidden documents, a filter, the search text replaced, custom data)
 * or as JSON, previewed on a search before it is stored (a declarative search with
 * `settings.queryRule`), saved (`PUT /_rule/{id}`), moved up or down the order
 * (`PUT /_rules/_order`) or deleted.
 */
export function RulesPage() {
  const indices = useIndices();
  const [rules, setRules] = useState(undefined);
  const [id, setId] = useState('');
  // the rule edited: in the form (the default) or as JSON
  const [base, setBase] = useState(EXAMPLE);
  const [form, setForm] = useState(() => formOf(EXAMPLE));
  const [asJson, setAsJson] = useState(false);
  const [definition, setDefinition] = useState(JSON.stringify(EXAMPLE, null, 2));
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
      if (!asJson) return ruleOf(form, base);
      return JSON.parse(definition);
    } catch (err) {
      setError(asJson ? `The rule is not JSON: ${err.message}` : err.message);
      return undefined;
    }
  };
  /** Shows the rule in the form, or as JSON: the one the other showed. */
  const switchTo = (json) => {
    const current = rule();
    if (!current) return;
    setError('');
    if (json) setDefinition(JSON.stringify(current, null, 2));
    else {
      setBase(current);
      setForm(formOf(current));
    }
    setAsJson(json);
  };
  const bound = (name) => ({
    name: `rule-${name}`,
    value: form[name],
    onInput: (e) => {
      const value = e.currentTarget.value;
      setForm((f) => ({ ...f, [name]: value }));
    },
  });
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
    setBase(body);
    setForm(formOf(body));
    setDefinition(JSON.stringify(body, null, 2));
  };
  return (
    <section aria-labelledby="rules-title">
      <h2 id="rules-title">Query rules</h2>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status" data-testid="rule-message">{message}</p>}
      {rules && (
        <div class="scroll" role="region" aria-label="Rules table" tabindex={0}>
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
                <td class="source">{JSON.stringify(r.trigger)}</td>
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
        </div>
      )}
      <div class="editor">
        <label>
          Id (empty: generated)
          <input name="rule-id" value={id} onInput={(e) => setId(e.currentTarget.value)} />
        </label>
        <label class="inline">
          <input type="checkbox" name="rule-as-json" checked={asJson} onChange={(e) => switchTo(e.currentTarget.checked)} />
          Edit as JSON
        </label>
        {asJson ? (
          <label>
            Rule (JSON)
            <textarea name="rule-definition" rows={10} value={definition} onInput={(e) => setDefinition(e.currentTarget.value)} />
          </label>
        ) : (
          <>
            <div class="form-grid">
              <label>
                Name
                <input {...bound('name')} />
              </label>
              <label class="inline">
                <input type="checkbox" name="rule-enabled" checked={form.enabled} onChange={(e) => { const v = e.currentTarget.checked; setForm((f) => ({ ...f, enabled: v })); }} />
                Enabled
              </label>
            </div>
            <fieldset>
              <legend>When</legend>
              <label>
                Trigger
                <select {...bound('type')} onChange={(e) => { const v = e.currentTarget.value; setForm((f) => ({ ...f, type: v })); }}>
                  <option value="query">the search text</option>
                  <option value="filter">a facet value is selected</option>
                  <option value="always">always</option>
                </select>
              </label>
              {form.type === 'query' && (
                <>
                  <label>
                    Operator
                    <select {...bound('operator')} onChange={(e) => { const v = e.currentTarget.value; setForm((f) => ({ ...f, operator: v })); }}>
                      {OPERATORS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
                    </select>
                  </label>
                  <label>
                    Text
                    <input {...bound('value')} />
                  </label>
                </>
              )}
              {form.type === 'filter' && (
                <>
                  <label>
                    Facet field
                    <input {...bound('triggerField')} />
                  </label>
                  <label>
                    Facet value
                    <input {...bound('triggerValue')} />
                  </label>
                </>
              )}
              <label>
                On indices (patterns, comma-separated; empty: all yours)
                <input {...bound('indices')} />
              </label>
            </fieldset>
            {form.listedActions ? <p>This rule's actions are a list applied in order: edit them as JSON.</p> : (
              <fieldset>
                <legend>Then</legend>
                <label>
                  Promote (document ids, in order)
                  <input {...bound('promote')} />
                </label>
                <label>
                  Hide (document ids)
                  <input {...bound('hide')} />
                </label>
                <label>
                  Filter on field
                  <input {...bound('filterField')} />
                </label>
                <label>
                  Filter values (comma-separated)
                  <input {...bound('filterValue')} />
                </label>
                <label>
                  Replace the search text with
                  <input {...bound('replaceTerm')} />
                </label>
                <label>
                  Custom data (JSON)
                  <input {...bound('customData')} />
                </label>
              </fieldset>
            )}
          </>
        )}
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
