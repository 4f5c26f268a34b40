import { useEffect, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';
import { useIndices } from './data.jsx';

const COMPONENT_TYPES = ['search', 'suggestion', 'term', 'range', 'geo'];
const WHOLE = 'all';

/** A component type's settings as the form shows them (the props it has no field for are kept as they are). */
function formOf(props = {}) {
  const fields = Array.isArray(props.dataField) ? props.dataField : props.dataField === undefined ? [] : [props.dataField];
  return {
    rows: [...fields.map((f) => (typeof f === 'string' ? { field: f, weight: '' } : { field: f.field ?? '', weight: f.weight === undefined ? '' : String(f.weight) })), { field: '', weight: '' }],
    fuzziness: props.fuzziness === undefined ? '' : String(props.fuzziness),
    queryFormat: props.queryFormat ?? '',
    size: props.size === undefined ? '' : String(props.size),
    highlight: props.highlight === undefined ? '' : String(props.highlight),
  };
}

/** The settings a form says, over those it was filled from (an emptied field drops its prop). */
function propsOf(form, base = {}) {
  const props = { ...base };
  const fields = form.rows.filter((r) => r.field.trim()).map((r) => (r.weight.trim() ? { field: r.field.trim(), weight: Number(r.weight) } : r.field.trim()));
  const set = (name, value) => {
    if (value === undefined) delete props[name];
    else props[name] = value;
  };
  set('dataField', fields.length ? fields : undefined);
  set('fuzziness', form.fuzziness === '' ? undefined : form.fuzziness === 'AUTO' ? 'AUTO' : Number(form.fuzziness));
  set('queryFormat', form.queryFormat || undefined);
  set('size', form.size.trim() === '' ? undefined : Number(form.size));
  set('highlight', form.highlight === '' ? undefined : form.highlight === 'true');
  return props;
}

/**
 * Search relevancy: an index's default props for declarative components
 * (`GET /_searchrelevancy/{index}`; 404: none yet), edited in a form for one component type
 * (fields and weights, fuzziness, and/or, size, highlight) or as JSON, or as JSON for the whole document, saved (`PUT`, checked by the API's schema) or deleted. The admin also edits
 * `_default`, which applies to every index without a setting of its own.
 */
export function RelevancePage({ admin }) {
  const indices = useIndices();
  const choices = admin ? ['_default', ...indices] : indices;
  const [index, setIndex] = useState('');
  const [settings, setSettings] = useState(undefined);
  const [part, setPart] = useState('search');
  const [asJson, setAsJson] = useState(false);
  // the index whose settings are shown: until another one's arrive, the editor waits for them
  const [loadedFor, setLoadedFor] = useState('');
  const [form, setForm] = useState(formOf());
  const [text, setText] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const at = () => `/_searchrelevancy/${encodeURIComponent(index)}`;
  useEffect(() => {
    if (choices.length) setIndex((current) => current || choices[0]);
  }, [choices.length]);
  // the text is set where what it shows changes (not in an effect, which would run after the
  // user may have typed): when the settings arrive and when another part is chosen
  const textOf = (stored, which) => JSON.stringify(which === WHOLE ? stored : stored[which] ?? {}, null, 2);
  useEffect(() => {
    if (!index) return undefined;
    let current = true;
    setSettings(undefined);
    setMessage('');
    call(at()).then((r) => {
      if (!current) return; // another index was chosen meanwhile
      if (r.status === 200 || r.status === 404) {
        const stored = r.status === 200 ? r.json.settings : {};
        setError('');
        setSettings(stored);
        setLoadedFor(index);
        setText(textOf(stored, part));
        if (part !== WHOLE) setForm(formOf(stored[part]));
      } else setError(reasonOf(r));
    });
    return () => {
      current = false;
    };
  }, [index]);
  const choose = (which) => {
    setPart(which);
    if (settings) setText(textOf(settings, which));
    if (settings && which !== WHOLE) setForm(formOf(settings[which]));
  };

  const save = async () => {
    let edited;
    if (json) {
      try {
        edited = JSON.parse(text);
      } catch (err) {
        return setError(`The settings are not JSON: ${err.message}`);
      }
    } else edited = propsOf(form, settings[part]);
    const body = part === WHOLE ? edited : { ...settings, [part]: edited };
    if (part !== WHOLE && Object.keys(edited ?? {}).length === 0) delete body[part];
    const r = await call(at(), { method: 'PUT', body });
    if (r.status >= 300) return setError(reasonOf(r));
    setError('');
    setMessage(`Settings for ${index} saved.`);
    setSettings(r.json.settings);
    setText(textOf(r.json.settings, part));
    if (part !== WHOLE) setForm(formOf(r.json.settings[part]));
  };
  const remove = async () => {
    const r = await call(at(), { method: 'DELETE' });
    if (r.status !== 200) return setError(reasonOf(r));
    setError('');
    setMessage(`Settings for ${index} deleted.`);
    setSettings({});
    setText(textOf({}, part));
    setForm(formOf());
  };
  const stored = settings ? Object.keys(settings) : [];
  // every component type at once is JSON only
  const json = asJson || part === WHOLE;
  const row = (at, name) => ({
    name: `relevance-${name}-${at}`,
    value: form.rows[at][name],
    onInput: (e) => {
      const value = e.currentTarget.value;
      setForm((f) => {
        const rows = f.rows.map((r, i) => (i === at ? { ...r, [name]: value } : r));
        // there is always an empty row to add a field in
        return { ...f, rows: rows[rows.length - 1].field.trim() ? [...rows, { field: '', weight: '' }] : rows };
      });
    },
  });
  const chosen = (name) => ({
    name: `relevance-${name}`,
    value: form[name],
    onChange: (e) => {
      const value = e.currentTarget.value;
      setForm((f) => ({ ...f, [name]: value }));
    },
  });
  const switchTo = (toJson) => {
    if (part !== WHOLE && settings) {
      if (toJson) setText(JSON.stringify(propsOf(form, settings[part]), null, 2));
      else {
        try {
          setForm(formOf(JSON.parse(text)));
        } catch (err) {
          return setError(`The settings are not JSON: ${err.message}`);
        }
      }
    }
    setError('');
    setAsJson(toJson);
  };
  return (
    <section aria-labelledby="relevance-title">
      <h2 id="relevance-title">Search relevancy</h2>
      <p>Default props of declarative components, per index; a request's own values come first.</p>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status" data-testid="relevance-message">{message}</p>}
      <div class="pager">
        <label>
          Index
          <select name="relevance-index" value={index} onChange={(e) => setIndex(e.currentTarget.value)}>
            {choices.map((i) => (
              <option key={i} value={i}>{i === '_default' ? '_default (every index)' : i}</option>
            ))}
          </select>
        </label>
        <label>
          Settings of
          <select name="relevance-part" value={part} onChange={(e) => choose(e.currentTarget.value)}>
            <option value={WHOLE}>every component type</option>
            {COMPONENT_TYPES.map((t) => (
              <option key={t} value={t}>{t} components</option>
            ))}
          </select>
        </label>
      </div>
      {settings && loadedFor === index && (
        <div class="editor">
          <p data-testid="relevance-stored">{stored.length ? `Stored for: ${stored.join(', ')}` : `No settings for ${index} yet.`}</p>
          {part !== WHOLE && (
            <label class="inline">
              <input type="checkbox" name="relevance-as-json" checked={asJson} onChange={(e) => switchTo(e.currentTarget.checked)} />
              Edit as JSON
            </label>
          )}
          {json ? (
            <label>
              Settings (JSON)
              <textarea name="relevance-settings" rows={10} value={text} onInput={(e) => setText(e.currentTarget.value)} />
            </label>
          ) : (
            <>
              <fieldset class="list-editor">
                <legend>Fields searched, with their weights</legend>
                {form.rows.map((_, at) => (
                  <div class="row" key={at}>
                    <label>
                      Field {at + 1}
                      <input {...row(at, 'field')} />
                    </label>
                    <label>
                      Weight of field {at + 1}
                      <input type="number" min="0" step="any" {...row(at, 'weight')} />
                    </label>
                  </div>
                ))}
              </fieldset>
              <div class="form-grid">
                <label>
                  Typo tolerance (fuzziness)
                  <select {...chosen('fuzziness')}>
                    <option value="">not set</option>
                    {['0', '1', '2', 'AUTO'].map((v) => <option key={v} value={v}>{v}</option>)}
                  </select>
                </label>
                <label>
                  Words combined with
                  <select {...chosen('queryFormat')}>
                    <option value="">not set</option>
                    <option value="or">or</option>
                    <option value="and">and</option>
                  </select>
                </label>
                <label>
                  Results (size)
                  <input type="number" min="0" name="relevance-size" value={form.size} onInput={(e) => { const size = e.currentTarget.value; setForm((f) => ({ ...f, size })); }} />
                </label>
                <label>
                  Highlight
                  <select {...chosen('highlight')}>
                    <option value="">not set</option>
                    <option value="true">yes</option>
                    <option value="false">no</option>
                  </select>
                </label>
              </div>
            </>
          )}
          <div class="pager">
            <button type="button" onClick={save}>Save settings</button>
            {stored.length > 0 && <button type="button" class="danger" onClick={remove}>Delete settings</button>}
          </div>
        </div>
      )}
    </section>
  );
}
