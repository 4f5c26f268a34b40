import { classificationOf } from '../../support/classification.js';
import { expect } from 'chai';
import fc from 'fast-check';

import { settingsSpelling, setsPipeline } from './settings-spellings.js';

const nd = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const classify = (method: string, path: string, body?: unknown, querystring = '') =>
  classificationOf({ method, path, querystring, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
const needsPipelineRight = (method: string, path: string, body?: unknown, querystring = '') =>
  (classify(method, path, body, querystring).clusterPrivileges ?? []).includes('manage_pipeline');

describe('classifyRequest: cluster-level rights', () => {
  describe('pipelines, decided on parsed values', () => {
    it('a write naming a pipeline in its parameter, however the name is encoded', () => {
      for (const qs of ['pipeline=p', '%70ipeline=p', 'pipelin%65=p', 'refresh=true&pipeline=p', 'pipeline=_none&pipeline=p']) {
        expect(needsPipelineRight('PUT', '/mine/_doc/1', { a: 1 }, qs), qs).to.equal(true);
      }
      expect(needsPipelineRight('PUT', '/mine/_doc/1', { a: 1 }, 'pipeline=_none')).to.equal(false);
      expect(needsPipelineRight('PUT', '/mine/_doc/1', { a: 1 }, 'pipelines=p')).to.equal(false);
    });

    it('a _bulk item\'s pipeline and _reindex\'s dest.pipeline', () => {
      expect(needsPipelineRight('POST', '/_bulk', nd({ index: { _index: 'mine', pipeline: 'p' } }, { a: 1 }))).to.equal(true);
      expect(needsPipelineRight('POST', '/_bulk', '{"index":{"_index":"mine","\\u0070ipeline":"p"}}\n{"a":1}\n')).to.equal(true);
      expect(needsPipelineRight('POST', '/_bulk', nd({ index: { _index: 'mine', pipeline: '_none' } }, { a: 1 }))).to.equal(false);
      expect(needsPipelineRight('POST', '/_reindex', { source: { index: 'mine' }, dest: { index: 'mine2', pipeline: 'p' } })).to.equal(true);
      expect(needsPipelineRight('POST', '/_reindex', { source: { index: 'mine' }, dest: { index: 'mine2' } })).to.equal(false);
    });

    it('default and final pipelines in settings, creation bodies and templates, in every spelling', () => {
      const settings = [
        { index: { default_pipeline: 'p' } }, { 'index.default_pipeline': 'p' }, { default_pipeline: 'p' }, { settings: { index: { final_pipeline: 'p' } } },
        '{"index":{"default\\u005fpipeline":"p"}}', '{"index.final_pipelin\\u0065":"p"}',
      ];
      for (const body of settings) expect(needsPipelineRight('PUT', '/mine/_settings', body), JSON.stringify(body)).to.equal(true);
      expect(needsPipelineRight('PUT', '/mine', { settings: { 'index.default_pipeline': 'p' } })).to.equal(true);
      expect(needsPipelineRight('PUT', '/mine', { settings: { index: { number_of_replicas: 0 } }, mappings: { properties: { default_pipeline: { type: 'keyword' } } } })).to.equal(false);
      expect(needsPipelineRight('PUT', '/mine/_settings', { index: { default_pipeline: null, final_pipeline: '_none' } })).to.equal(false);
      expect(needsPipelineRight('PUT', '/_index_template/t', { index_patterns: ['mine-*'], template: { settings: { index: { default_pipeline: 'p' } } } })).to.equal(true);
      expect(needsPipelineRight('PUT', '/_component_template/c', { template: { settings: { 'index.final_pipeline': 'p' } } })).to.equal(true);
      expect(needsPipelineRight('PUT', '/_template/t', { index_patterns: ['mine-*'], settings: { default_pipeline: 'p' } })).to.equal(true);
      expect(needsPipelineRight('POST', '/mine/_clone/mine-2', { settings: { 'index.default_pipeline': 'p' } })).to.equal(true);
      expect(needsPipelineRight('POST', '/mine-alias/_rollover/mine-3', { settings: { 'index.default_pipeline': 'p' } })).to.equal(true);
    });

    it('property: whatever the JSON spelling (escapes, flat or nested, wrapped, duplicate keys), a body that sets a pipeline needs manage_pipeline', () => {
      fc.assert(
        fc.property(settingsSpelling, fc.constantFrom('settings', 'create'), (spelling, kind) => {
          const needs = needsPipelineRight('PUT', kind === 'settings' ? '/mine/_settings' : '/mine', spelling.text);
          if (setsPipeline(spelling)) expect(needs, spelling.text).to.equal(true);
        }),
        { seed: 32, numRuns: 500 },
      );
    });
  });

  describe('aliases are written; their filters\' lookups read', () => {
    it('in an index creation body', () => {
      const c = classify('PUT', '/mine', { aliases: { other: {}, 'mine-f': { filter: { terms: { f: { index: 'secret', id: '1', path: 'f' } } } } } });
      expect(c.indices).to.deep.equal(['mine', 'other', 'mine-f', 'secret']);
      expect(c.operation).to.equal('write');
    });

    it('in index templates, legacy and composable, with their index patterns', () => {
      expect(classify('PUT', '/_index_template/t', { index_patterns: ['mine-*'], template: { aliases: { other: {} } } }).indices).to.deep.equal(['mine-*', 'other']);
      expect(classify('PUT', '/_template/t', { index_patterns: 'mine-*', aliases: { other: { filter: { terms: { f: { index: 'secret', id: '1', path: 'f' } } } } } }).indices)
        .to.deep.equal(['mine-*', 'other', 'secret']);
    });

    it('in _aliases actions: an added alias\'s filter lookups, and an action naming no index', () => {
      const c = classify('POST', '/_aliases', { actions: [{ add: { index: 'mine', alias: 'mine-f', filter: { more_like_this: { like: [{ _index: 'secret', _id: '1' }] } } } }] });
      expect(c.indices).to.deep.equal(['mine', 'mine-f', 'secret']);
      expect(c.perIndex).to.deep.include({ expression: 'secret', operation: 'read' });
      expect(classify('POST', '/_aliases', { actions: [{ add: { alias: 'x' } }] }).indices).to.include('*');
    });
  });

  it('a painless script run in the context of an index reads that index', () => {
    const c = classify('POST', '/_scripts/painless/_execute', { script: { source: 'doc.size()' }, context: 'score', context_setup: { index: 'secret', document: { index: 'not-an-index' } } });
    expect(c.indices).to.deep.equal(['secret']);
    expect(c.operation).to.equal('read');
  });

  describe('managing cluster-level resources needs a named privilege', () => {
    const rows: Array<[string, string, string]> = [
      ['PUT', '/_ingest/pipeline/p', 'manage_pipeline'],
      ['DELETE', '/_ingest/pipeline/p', 'manage_pipeline'],
      ['PUT', '/_scripts/s', 'manage_scripts'],
      ['PUT', '/_synonyms/s', 'manage_search_synonyms'],
      ['PUT', '/_query_rules/r', 'manage_search_query_rules'],
      ['PUT', '/_index_template/t', 'manage_index_templates'],
      ['PUT', '/_component_template/c', 'manage_index_templates'],
      ['PUT', '/_template/t', 'manage_index_templates'],
      ['GET', '/_cat/templates', 'manage_index_templates'],
      ['PUT', '/_cluster/settings', 'manage'],
      ['POST', '/_cluster/reroute', 'manage'],
      ['PUT', '/_snapshot/repo', 'manage'],
    ];
    for (const [method, path, privilege] of rows) {
      it(`${method} ${path} → ${privilege}`, () => {
        expect(classify(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}).clusterPrivileges).to.deep.equal([privilege]);
      });
    }
  });
});
