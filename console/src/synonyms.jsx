import { useEffect, useState } from 'preact/hooks';
import { call, reasonOf } from './api.js';

/** The most sets, and rules of a set, listed (the API's bound on from + size is 10,000). */
const LIST_SIZE = 1000;
const enc = encodeURIComponent;

/**
 * Synonym sets (Elasticsearch's synonyms API): the sets (`GET /_synonyms`), a set's rules, a rule
 * added or replaced (`PUT /_synonyms/{set}/{rule}`) or deleted, a new set (`PUT /_synonyms/{set}`)
 * and a set deleted. A change applies to the next search of the indices whose search analyzers use
 * the set.
 */
export function SynonymsPage() {
  const [sets, setSets] = useState(undefined);
  const [set, setSet] = useState('');
  const [rules, setRules] = useState(undefined);
  const [ruleId, setRuleId] = useState('');
  const [synonyms, setSynonyms] = useState('');
  const [newSet, setNewSet] = useState('');
  const [newRules, setNewRules] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const loadSets = async () => {
    const r = await call(`/_synonyms?size=${LIST_SIZE}`);
    if (r.status !== 200) return setError(reasonOf(r));
    setSets(r.json.results);
  };
  const loadRules = async (name = set) => {
    if (!name) return setRules(undefined);
    const r = await call(`/_synonyms/${enc(name)}?size=${LIST_SIZE}`);
    if (r.status !== 200) return setError(reasonOf(r));
    setRules(r.json.synonyms_set);
  };
  useEffect(() => {
    loadSets();
  }, []);
  useEffect(() => {
    loadRules(set);
  }, [set]);
  /** After a change: its outcome, the sets' counts read again (and the set's rules, when it changed them). */
  const done = async (r, what, rulesChanged) => {
    if (r.status >= 300) return setError(reasonOf(r));
    setError('');
    setMessage(what);
    await Promise.all([loadSets(), rulesChanged && loadRules()]);
  };

  const saveRule = async (event) => {
    event.preventDefault();
    const id = ruleId.trim();
    const r = await call(`/_synonyms/${enc(set)}/${enc(id)}`, { method: 'PUT', body: { synonyms: synonyms.trim() } });
    await done(r, `Rule ${id} ${r.json?.result ?? 'saved'} in ${set}.`, true);
    if (r.status < 300) {
      setRuleId('');
      setSynonyms('');
    }
  };
  const removeRule = async (id) => done(await call(`/_synonyms/${enc(set)}/${enc(id)}`, { method: 'DELETE' }), `Rule ${id} deleted from ${set}.`, true);
  const createSet = async (event) => {
    event.preventDefault();
    const name = newSet.trim();
    // PUT replaces a set: never by accident from here
    if (sets?.some((s) => s.synonyms_set === name)) return setError(`A set named ${name} exists already.`);
    const synonymsSet = newRules.split('\n').map((line) => line.trim()).filter(Boolean).map((line) => ({ synonyms: line }));
    const r = await call(`/_synonyms/${enc(name)}`, { method: 'PUT', body: { synonyms_set: synonymsSet } });
    await done(r, `Set ${name} created.`);
    if (r.status >= 300) return;
    setNewSet('');
    setNewRules('');
    setSet(name);
  };
  const removeSet = async (name) => {
    const r = await call(`/_synonyms/${enc(name)}`, { method: 'DELETE' });
    if (r.status < 300 && name === set) setSet('');
    await done(r, `Set ${name} deleted.`);
  };

  return (
    <section aria-labelledby="synonyms-title">
      <h2 id="synonyms-title">Synonym sets</h2>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status" data-testid="synonyms-message">{message}</p>}
      {sets && (
        <table>
          <caption>Synonym sets</caption>
          <thead>
            <tr>
              <th scope="col">Set</th>
              <th scope="col">Rules</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {sets.map((s) => (
              <tr key={s.synonyms_set} data-testid="synonym-set-row">
                <th scope="row">{s.synonyms_set}</th>
                <td>{s.count}</td>
                <td>
                  <button type="button" onClick={() => setSet(s.synonyms_set)} aria-label={`Show the rules of ${s.synonyms_set}`}>Rules</button>{' '}
                  <button type="button" class="danger" onClick={() => removeSet(s.synonyms_set)} aria-label={`Delete set ${s.synonyms_set}`}>Delete</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {set && rules && (
        <>
          <table>
            <caption>Rules of {set}</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Synonyms</th>
                <th scope="col"><span class="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {rules.map((r) => (
                <tr key={r.id} data-testid="synonym-rule-row">
                  <th scope="row">{r.id}</th>
                  <td>{r.synonyms}</td>
                  <td>
                    <button
                      type="button"
                      onClick={() => {
                        setRuleId(r.id);
                        setSynonyms(r.synonyms);
                      }}
                      aria-label={`Edit rule ${r.id}`}
                    >
                      Edit
                    </button>{' '}
                    <button type="button" class="danger" onClick={() => removeRule(r.id)} aria-label={`Delete rule ${r.id}`}>Delete</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <form onSubmit={saveRule} class="create" aria-labelledby="synonym-rule-title">
            <h3 id="synonym-rule-title">A rule of {set} (added, or replaced when the id exists)</h3>
            <label>
              Rule id
              <input name="synonym-rule-id" required value={ruleId} onInput={(e) => setRuleId(e.currentTarget.value)} />
            </label>
            <label>
              Synonyms (Solr format: equivalent words, or explicit mapping)
              <input name="synonym-rule" required placeholder="laptop, notebook  or  mobile => phone" value={synonyms} onInput={(e) => setSynonyms(e.currentTarget.value)} />
            </label>
            <button type="submit">Save rule</button>
          </form>
        </>
      )}
      <form onSubmit={createSet} class="create" aria-labelledby="synonym-set-title">
        <h3 id="synonym-set-title">New set</h3>
        <label>
          Name
          <input name="synonym-set" required value={newSet} onInput={(e) => setNewSet(e.currentTarget.value)} />
        </label>
        <label>
          Rules (one a line, optional)
          <textarea name="synonym-set-rules" rows={4} value={newRules} onInput={(e) => setNewRules(e.currentTarget.value)} />
        </label>
        <button type="submit">Create set</button>
      </form>
    </section>
  );
}
