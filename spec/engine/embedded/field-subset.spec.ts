import { expect } from 'chai';
import { FieldSubset } from '../../../lib/engine/embedded/access/index.js';
import { HIDDEN_MEMBERS } from '../../../lib/engine/embedded/access/field-subset.js';
import { resolveFieldMapping, type Mappings } from '../../../lib/engine/embedded/mapping/index.js';

/** The field rules as the engine reads an index with them: which fields exist for the request. */
describe('field subset (what a request with field rules finds of an index)', () => {
  const excluding = FieldSubset.of({ exclude: ['secret', 'user.ssn', 'vault*'] })!;
  const including = FieldSubset.of({ include: ['title', 'user.name', 'tags*'] })!;

  it('no rules: no subset; the same rules value: the same subset', () => {
    expect(FieldSubset.of(undefined)).to.equal(undefined);
    expect(FieldSubset.of({ include: [], exclude: [] })).to.equal(undefined);
    const rules = { exclude: ['a'] };
    expect(FieldSubset.of(rules)).to.equal(FieldSubset.of(rules));
  });

  it('a rule reaches what it matches and everything under it; metadata fields are always there', () => {
    for (const [field, shown] of [['secret', false], ['secret.raw', false], ['secretive', true], ['user.ssn', false], ['user.name', true], ['vault.code', false], ['vaults', false], ['_id', true]] as const) {
      expect(excluding.shows(field), field).to.equal(shown);
    }
    for (const [field, shown] of [['title', true], ['title.raw', true], ['user.name', true], ['user.ssn', false], ['tags.x', true], ['secret', false], ['_index', true], ['_routing', true]] as const) {
      expect(including.shows(field), field).to.equal(shown);
    }
    // objects: reached when something under them is shown
    expect(including.reaches('user')).to.equal(true);
    expect(including.reaches('vault')).to.equal(false);
    expect(excluding.reaches('user')).to.equal(true);
    expect(excluding.reaches('vault')).to.equal(false);
  });

  it('a _source loses the hidden members (in objects and arrays of objects), and says so; one with nothing hidden is the same object', () => {
    const source = { title: 't', secret: 's', user: { name: 'n', ssn: 'x' }, list: [{ secret: 1 }], people: [{ name: 'a' }], vault: { code: 1 } };
    const seen = excluding.source(source);
    expect(seen).to.deep.equal({ title: 't', user: { name: 'n' }, list: [{ secret: 1 }], people: [{ name: 'a' }] });
    expect(HIDDEN_MEMBERS in seen).to.equal(true);
    expect(JSON.stringify(seen)).not.to.contain('ssn');
    const clean = { title: 't', user: { name: 'n' } };
    expect(excluding.source(clean)).to.equal(clean);
    expect(including.source({ title: 't', user: { name: 'n', ssn: 'x' }, tags: ['a'], other: { title: 'x' } })).to.deep.equal({ title: 't', user: { name: 'n' }, tags: ['a'] });
  });

  it('mappings lose hidden leaves, multi-fields, objects, runtime fields and aliases to a hidden field, and are left as they were', () => {
    const mappings: Mappings = {
      dynamic: 'strict',
      properties: {
        title: { type: 'text', fields: { raw: { type: 'keyword' } } },
        secret: { type: 'keyword' },
        also: { type: 'alias', path: 'secret' },
        user: { properties: { name: { type: 'keyword' }, ssn: { type: 'keyword' } } },
        vault: { type: 'nested', properties: { code: { type: 'keyword' } } },
      },
      runtime: { 'user.ssn': { type: 'keyword' }, title_len: { type: 'long' } },
    };
    const seen = excluding.mappings(mappings);
    expect(seen).to.deep.equal({
      dynamic: 'strict',
      properties: { title: { type: 'text', fields: { raw: { type: 'keyword' } } }, user: { properties: { name: { type: 'keyword' } } } },
      runtime: { title_len: { type: 'long' } },
    });
    // the mappings the index keeps are untouched
    expect(mappings.properties!.secret).to.deep.equal({ type: 'keyword' });
    expect(resolveFieldMapping(seen, 'title.raw')).to.deep.equal({ type: 'keyword' });
    expect(resolveFieldMapping(seen, 'user.ssn')).to.equal(undefined);
  });

  it('a partial document writing a hidden field is told apart (its `noop` would tell the value)', () => {
    expect(excluding.hiddenIn({ title: 't', user: { name: 'n' } })).to.equal(undefined);
    expect(excluding.hiddenIn({ user: { ssn: null } })).to.equal('user.ssn');
    expect(excluding.hiddenIn({ 'user.ssn': 'x' })).to.equal('user.ssn');
    expect(excluding.hiddenIn({ people: [{ name: 'a' }, { secret: [] }] })).to.equal(undefined);
    expect(excluding.hiddenIn({ secret: [] })).to.equal('secret');
    expect(including.hiddenIn({ title: 't', other: 1 })).to.equal('other');
  });
});
