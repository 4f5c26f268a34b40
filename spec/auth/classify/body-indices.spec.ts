import { classificationOf } from '../../support/classification.js';
import { expect } from 'chai';

import { EsError } from '../../../lib/errors/index.js';

const nd = (...lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
const post = (path: string, body: Buffer | string, method = 'POST') => classificationOf({ method, path, querystring: '', body });
/** The engine's own 400 for a body it would refuse: the classifier refuses it the same way. */
const refused = (path: string, body: Buffer | string): EsError => {
  try {
    post(path, body);
  } catch (err) {
    expect(err).to.be.instanceOf(EsError);
    expect((err as EsError).status).to.equal(400);
    return err as EsError;
  }
  throw new Error(`${path} with ${JSON.stringify(String(body)).slice(0, 80)} was classified instead of refused`);
};

describe('classifyRequest: indices named in bodies', () => {
  describe('_bulk', () => {
    it('reads every action line, skips source lines unread, and gives the operation per index', () => {
      const c = post('/_bulk', nd(
        { index: { _index: 'shop', _id: '1' } }, { title: 'a', nested: { index: { _index: 'not-an-action' } } },
        { create: { _index: 'logs-1' } }, { msg: 'x' },
        { update: { _index: 'shop', _id: '1' } }, { doc: { title: 'b' } },
        { delete: { _index: 'old', _id: '9' } },
        { index: { _index: 'shop' } }, { index: { _index: 'looks-like-an-action-but-is-a-source' } },
      ));
      expect(c.indices).to.deep.equal(['shop', 'logs-1', 'old']);
      expect(c.sources.every((s) => s.from === 'body')).to.equal(true);
      expect(c.perIndex).to.deep.equal([
        { expression: 'shop', operation: 'write' },
        { expression: 'logs-1', operation: 'write' },
        { expression: 'old', operation: 'delete' },
      ]);
      expect(c).to.include({ category: 'docs', operation: 'write', allIndices: false, action: 'indices:data/write/bulk' });
    });

    it('a line without _index uses the path index; with no path index it addresses every index', () => {
      const withPath = post('/shop/_bulk', nd({ index: {} }, { a: 1 }, { delete: { _id: '2' } }, { index: { _index: 'logs' } }, { a: 1 }));
      expect(withPath.indices).to.deep.equal(['shop', 'logs']);
      expect(withPath.allIndices).to.equal(false);
      expect(withPath.perIndex).to.deep.equal([
        { expression: 'shop', operation: 'write' },
        { expression: 'shop', operation: 'delete' },
        { expression: 'logs', operation: 'write' },
      ]);
      const bare = post('/_bulk', nd({ index: { _id: '1' } }, { a: 1 }));
      expect(bare.allIndices).to.equal(true);
      expect(bare.indices).to.deep.equal([]);
    });

    it('only deletes → operation delete', () => {
      expect(post('/_bulk', nd({ delete: { _index: 'a', _id: '1' } }, { delete: { _index: 'b', _id: '2' } })).operation).to.equal('delete');
    });

    it('an _index is read as Elasticsearch reads it: a number as its text, an empty name as `*`, an object or list refused', () => {
      expect(post('/_bulk', nd({ index: { _index: 123 } }, { a: 1 })).indices).to.deep.equal(['123']);
      expect(post('/_bulk', nd({ index: { _index: '' } }, { a: 1 })).indices).to.deep.equal(['*']);
      expect(post('/_bulk', nd({ index: { _index: null } }, { a: 1 })).allIndices, 'null is no index: every index').to.equal(true);
      for (const bad of [{ x: 1 }, ['a']]) expect(refused('/_bulk', nd({ index: { _index: bad } }, { a: 1 })).reason).to.match(/expected a simple value for field \[_index\]/);
    });

    it('refuses a body with a line the engine would refuse, instead of skipping it', () => {
      for (const bad of ['not json at all', '\u0000\u0001\u0002', '[1,2]', '{"unknown":{"_index":"c"}}', '{"index":{"_index":"b"}}\u00a0', '\ufeff{"index":{}}']) {
        expect(refused('/_bulk', `{"index":{"_index":"a"}}\n{"x":1}\n${bad}\n{"index":{"_index":"d"}}\n{}\n`).reason).to.match(/Malformed action\/metadata line \[3\]/);
      }
    });

    it('handles CRLF and blank lines; a missing final newline is refused, as by Elasticsearch', () => {
      const c = post('/_bulk', '\r\n{"index":{"_index":"a"}}\r\n{"x":1}\r\n\r\n{"delete":{"_index":"b"}}\n');
      expect(c.indices).to.deep.equal(['a', 'b']);
      expect(c.forward, 'what goes on is what was read').to.equal('{"index":{"_index":"a"}}\n{"x":1}\r\n{"delete":{"_index":"b"}}\n');
      expect(refused('/_bulk', '{"delete":{"_index":"b"}}').reason).to.match(/terminated by a newline/);
    });

    it('forwards a body that is already what was read as it is', () => {
      const body = nd({ index: { _index: 'a' } }, { x: 1 }, { delete: { _index: 'b', _id: '1' } });
      expect(post('/_bulk', body).forward).to.equal(body);
    });

    it('classifies a 10 MB _bulk quickly (timing printed, not asserted)', () => {
      const lines: string[] = [];
      let size = 0;
      for (let i = 0; size < 10 * 1024 * 1024; i++) {
        const action = JSON.stringify({ index: { _index: `shop-${i % 7}`, _id: String(i) } });
        const source = JSON.stringify({ title: `Document number ${i}`, body: 'lorem ipsum dolor sit amet '.repeat(6), n: i });
        lines.push(action, source);
        size += action.length + source.length + 2;
      }
      const body = Buffer.from(lines.join('\n') + '\n');
      classificationOf({ method: 'POST', path: '/_bulk', querystring: '', body }); // warm up
      const t0 = process.hrtime.bigint();
      const c = classificationOf({ method: 'POST', path: '/_bulk', querystring: '', body });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      console.log(`      10 MB _bulk (${lines.length / 2} items, ${(body.length / 1048576).toFixed(1)} MB): classified in ${ms.toFixed(1)} ms`);
      expect(c.indices).to.have.length(7);
    });
  });

  describe('_msearch', () => {
    it('reads header lines only: index as a name, comma list or list; a header without one uses the path', () => {
      const c = post('/shop/_msearch', nd({ index: 'logs-*,-logs-old' }, { query: { match_all: {} } }, {}, { query: { term: { index: 'not-a-header' } } }, { indices: ['a', 'b'] }, {}));
      expect(c.indices).to.deep.equal(['shop', 'logs-*', '-logs-old', 'a', 'b']);
      expect(c.allIndices).to.equal(false);
    });

    it('a header without index and no path index addresses every index; an empty header line too', () => {
      expect(post('/_msearch', nd({}, {})).allIndices).to.equal(true);
      expect(post('/_msearch', '\n{}\n').allIndices, 'leading newline tolerated, then no header').to.equal(false);
      expect(post('/_msearch', '{"index":"a"}\n{}\n\n{}\n').allIndices, 'an empty header is the default header').to.equal(true);
    });

    it('an unreadable index is `*`; an unparseable header or body is refused, not skipped', () => {
      expect(post('/_msearch', nd({ index: 42 }, {})).indices).to.deep.equal(['*']);
      expect(post('/_msearch', nd({ index: [1] }, {})).indices).to.deep.equal(['*']);
      refused('/_msearch', 'garbage\n{"index":"hidden-in-body"}\n{"index":"a"}\n{}\n');
      refused('/_msearch', '{"index":"a"}\u00a0\n{}\n');
      refused('/_msearch', '{"index":"a"}\n{}\u2028\n');
    });

    it('the search bodies count: a terms lookup or a pinned document in another index is a target', () => {
      const c = post('/shop/_msearch', nd({}, { query: { terms: { f: { index: 'other', id: '1', path: 'f' } } } }, {}, { query: { pinned: { docs: [{ _index: 'third', _id: '1' }], organic: { match_all: {} } } } }));
      expect(c.indices).to.deep.equal(['shop', 'other', 'third']);
    });

    it('_msearch/template reads the same headers; a template that may name an index reaches every index', () => {
      const c = post('/_msearch/template', nd({ index: 'shop' }, { source: { query: { match: { title: '{{q}}' } } }, params: { q: 'x' } }));
      expect(c).to.include({ action: 'indices:data/read/msearch/template' });
      expect(c.indices).to.deep.equal(['shop']);
      expect(post('/_msearch/template', nd({ index: 'shop' }, { id: 't1' })).indices, 'a stored template').to.deep.equal(['shop', '*']);
      const lookup = { source: '{"query":{"terms":{"f":{"index":"{{i}}","id":"1","path":"f"}}}}', params: { i: 'other' } };
      expect(post('/_msearch/template', nd({ index: 'shop' }, lookup)).indices, 'a lookup rendered from parameters').to.deep.equal(['shop', '*']);
    });
  });

  describe('parameters naming indices', () => {
    it('index= and indices=, encoded or not, are targets that cannot be narrowed', () => {
      for (const qs of ['index=other', 'indices=other', '%69ndex=other', 'ind%65x=other', 'a=1&index=x,other']) {
        const c = classificationOf({ method: 'GET', path: '/mine/_field_caps', querystring: qs });
        expect(c.indices, qs).to.include('other');
        expect(c.sources, qs).to.deep.include({ expression: 'other', from: 'query' });
      }
    });
  });

  describe('_mget and _mtermvectors', () => {
    it('docs[]._index, falling back to the path index', () => {
      const c = post('/shop/_mget', JSON.stringify({ docs: [{ _index: 'logs', _id: '1' }, { _id: '2' }, { _index: 'other', _id: '3' }] }));
      expect(c.indices).to.deep.equal(['shop', 'logs', 'other']);
      expect(c.allIndices).to.equal(false);
    });
    it('no path index and a doc without _index → every index', () => {
      expect(post('/_mget', JSON.stringify({ docs: [{ _id: '2' }] })).allIndices).to.equal(true);
      expect(post('/_mget', JSON.stringify({ ids: ['1'] })).allIndices).to.equal(true);
      expect(post('/shop/_mget', JSON.stringify({ ids: ['1'] })).indices).to.deep.equal(['shop']);
    });
    it('unreadable _index or a body that is not JSON → `*`', () => {
      expect(post('/_mget', JSON.stringify({ docs: [{ _index: 5, _id: '1' }] })).indices).to.deep.equal(['*']);
      expect(post('/_mget', JSON.stringify({ docs: 'x' })).indices).to.deep.equal(['*']);
      refused('/shop/_mget', Buffer.from([0xd9, 0xd9, 0xf7, 0xa1]));
      expect(post('/shop/_mget', '   ').indices).to.deep.equal(['shop']);
    });
    it('_mtermvectors docs', () => {
      expect(post('/_mtermvectors', JSON.stringify({ docs: [{ _index: 'a', _id: '1' }] })).indices).to.deep.equal(['a']);
    });
    it('_mtermvectors parameters._index (the template of ids and of docs without _index) and a _termvectors body\'s _index', () => {
      expect(post('/shop/_mtermvectors', JSON.stringify({ ids: ['1'], parameters: { _index: 'a' } })).indices).to.deep.equal(['shop', 'a']);
      expect(post('/_mtermvectors', JSON.stringify({ parameters: { fields: ['f'] }, docs: [{ _index: 'a', _id: '1' }] })).indices).to.deep.equal(['a']);
      expect(post('/shop/_termvectors/1', JSON.stringify({ _index: 'a' })).indices).to.deep.equal(['shop', 'a']);
      expect(post('/shop/_termvectors/1', JSON.stringify({ fields: ['f'] })).indices).to.deep.equal(['shop']);
      expect(post('/shop/_termvectors', JSON.stringify({ _index: 5, doc: {} })).indices).to.deep.equal(['shop', '*']);
    });
  });

  describe('_reindex', () => {
    it('reads source.index (name, comma list or list) and writes dest.index', () => {
      const c = post('/_reindex', JSON.stringify({ source: { index: ['a', 'b*'], query: { match_all: {} } }, dest: { index: 'c' } }));
      expect(c.indices).to.deep.equal(['a', 'b*', 'c']);
      expect(c.perIndex).to.deep.equal([
        { expression: 'a', operation: 'read' },
        { expression: 'b*', operation: 'read' },
        { expression: 'c', operation: 'write' },
      ]);
      expect(c).to.include({ category: 'docs', operation: 'write', action: 'indices:data/write/reindex', allIndices: false });
      expect(post('/_reindex', JSON.stringify({ source: { index: 'x,y' }, dest: { index: 'z' } })).indices).to.deep.equal(['x', 'y', 'z']);
    });
    it('unreadable parts are `*` with their operation', () => {
      expect(post('/_reindex', JSON.stringify({ source: { index: 1 }, dest: { index: ['z'] } })).perIndex).to.deep.equal([
        { expression: '*', operation: 'read' },
        { expression: '*', operation: 'write' },
      ]);
      refused('/_reindex', '{oops');
      expect(post('/_reindex', JSON.stringify({ source: { index: 'a' }, dest: { index: 'b' }, script: { source: "ctx._index = 'c'" } })).perIndex, 'a script may send documents anywhere')
        .to.deep.include({ expression: '*', operation: 'write' });
    });
  });

  describe('declarative', () => {
    it('query[].index, falling back to the path index or every index', () => {
      const body = JSON.stringify({ query: [{ id: 'q1', index: 'shop' }, { id: 'q2', index: ['logs-*', 'other'] }, { id: 'q3' }] });
      const bare = post('/_declarative', body);
      expect(bare.indices).to.deep.equal(['shop', 'logs-*', 'other']);
      expect(bare.allIndices).to.equal(true);
      const scoped = post('/shop/_declarative/validate', body);
      expect(scoped.indices).to.deep.equal(['shop', 'logs-*', 'other']);
      expect(scoped.allIndices).to.equal(false);
      expect(post('/_declarative', JSON.stringify({ query: [{ id: 'x', index: { a: 1 } }] })).indices).to.deep.equal(['*']);
    });
  });

  describe('_aliases and credentials', () => {
    it('POST /_aliases: indices written (or deleted) and alias names written or deleted', () => {
      const c = post('/_aliases', JSON.stringify({ actions: [
        { add: { index: 'shop', alias: 'shop-read' } },
        { remove: { indices: ['a', 'b'], aliases: ['old'] } },
        { remove_index: { index: 'gone' } },
      ] }));
      expect(c.indices).to.deep.equal(['shop', 'shop-read', 'a', 'b', 'old', 'gone']);
      expect(c.perIndex).to.deep.include({ expression: 'old', operation: 'delete' });
      expect(c.perIndex).to.deep.include({ expression: 'gone', operation: 'delete' });
      expect(c.perIndex).to.deep.include({ expression: 'shop-read', operation: 'write' });
    });
    it('a credential body reports the indices it would grant', () => {
      expect(post('/_credentials', JSON.stringify({ indices: ['shop', 'logs-*'], ops: ['read'] })).indices).to.deep.equal(['shop', 'logs-*']);
      expect(post('/_credentials/bob', JSON.stringify({ description: 'x' }), 'PATCH').indices).to.deep.equal([]);
    });
  });

  describe('garbage bodies: classified, or refused with the engine\'s 400', () => {
    const garbage: Array<Buffer | string> = [
      '', '\n\n\n', 'null', '[]', '"x"', '{', '}\n{', Buffer.from([0, 1, 2, 255, 10, 254]), '{"index":', '\u2028\u2029',
      Buffer.alloc(1 << 16, 0x7b), '{"docs":[null,1,"x",{"_index":{}}]}', '{"source":null,"dest":7}', '{"query":{"index":"a"}}',
    ];
    for (const path of ['/_bulk', '/shop/_bulk', '/_msearch', '/_mget', '/_mtermvectors', '/_reindex', '/_declarative', '/_aliases', '/_credentials', '/_search']) {
      it(`POST ${path}`, () => {
        for (const body of garbage) {
          let c;
          try {
            c = post(path, body);
          } catch (err) {
            expect(err, JSON.stringify(String(body)).slice(0, 60)).to.be.instanceOf(EsError);
            expect((err as EsError).status).to.equal(400);
            continue;
          }
          expect(c.category).to.be.a('string');
          for (const e of c.indices) expect(e).to.be.a('string').and.not.equal('');
        }
      });
    }
  });
});
