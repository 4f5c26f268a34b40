import { expect } from 'chai';
import { lookup, splitPath, Stash, StashMissError } from '../../conformance/index.js';

describe('conformance: stash and paths', () => {
  it('splits dotted paths, keeping escaped dots inside keys', () => {
    expect(splitPath('hits.hits.0._id')).to.deep.equal(['hits', 'hits', '0', '_id']);
    expect(splitPath('test.settings.index\\.number_of_shards')).to.deep.equal(['test', 'settings', 'index.number_of_shards']);
    expect(splitPath('')).to.deep.equal([]);
  });

  it('drops every backslash before an escaped dot, as Elasticsearch\'s ObjectPath does', () => {
    // search.highlight/20_fvh writes `highlight.nested\\.title.0` in a plain YAML scalar: two backslashes reach the runner.
    expect(splitPath('highlight.nested\\\\.title.0')).to.deep.equal(['highlight', 'nested.title', '0']);
  });

  it('looks up nested objects and array elements, undefined when a level is missing', () => {
    const body = { hits: { hits: [{ _id: 'a' }, { _id: 'b' }] }, 'a.b': 1 };
    expect(lookup(body, ['hits', 'hits', '1', '_id'])).to.equal('b');
    expect(lookup(body, ['a.b'])).to.equal(1);
    expect(lookup(body, ['hits', 'missing', 'deeper'])).to.equal(undefined);
    expect(lookup(body, ['hits', 'hits', 'x'])).to.equal(undefined);
    expect(lookup(body, [])).to.equal(body);
  });

  it('replaces $name with the stashed value, keeping its type', () => {
    const stash = new Stash();
    stash.set('id', '42');
    stash.set('count', 3);
    stash.set('body', { _shards: { total: 2 } });
    expect(stash.resolveString('$id')).to.equal('42');
    expect(stash.resolveString('$count')).to.equal(3);
    expect(stash.resolveString('$body._shards.total')).to.equal(2);
    expect(stash.resolveString('plain')).to.equal('plain');
  });

  it('replaces ${name} embedded in text, in nested values and in keys', () => {
    const stash = new Stash();
    stash.set('user', 'kim');
    stash.set('node', 'n1');
    expect(stash.resolveString('Basic ${user}:x')).to.equal('Basic kim:x');
    expect(stash.resolve({ nodes: { $node: { name: '$user' } }, list: ['$user', 1] })).to.deep.equal({
      nodes: { n1: { name: 'kim' } },
      list: ['kim', 1],
    });
  });

  it('resolves stashed segments of a response path', () => {
    const stash = new Stash();
    stash.set('master', 'node-a');
    stash.set('placeholder', 'le');
    expect(stash.resolvePath('nodes.$master.http')).to.deep.equal(['nodes', 'node-a', 'http']);
    expect(stash.resolvePath('field1.e${placeholder}ments')).to.deep.equal(['field1', 'elements']);
  });

  it('fails on a reference to a value never stashed', () => {
    expect(() => new Stash().resolveString('$nope')).to.throw(StashMissError);
  });
});
