import { expect } from 'chai';
import { parseTestFile, parseVersion, requiresReason, skipReason, versionInRanges } from '../../conformance/index.js';

const V8 = parseVersion('8.11.0');
const context = { version: V8, features: new Set(['headers', 'warnings']) };

describe('conformance: skip sections and loading', () => {
  it('parses versions, ignoring qualifiers', () => {
    expect(parseVersion('7.9.99')).to.deep.equal([7, 9, 99]);
    expect(parseVersion('1.0.0.Beta1')).to.deep.equal([1, 0, 0]);
    expect(parseVersion('8.0')).to.deep.equal([8, 0, 0]);
  });

  it('treats open-ended and closed ranges inclusively', () => {
    expect(versionInRanges(' - 7.9.99', V8)).to.equal(false);
    expect(versionInRanges(' - 8.11.0', V8)).to.equal(true);
    expect(versionInRanges('7.2.0 - ', V8)).to.equal(true);
    expect(versionInRanges('8.12.0 - ', V8)).to.equal(false);
    expect(versionInRanges('8.0.0 - 8.10.99', V8)).to.equal(false);
    expect(versionInRanges('8.0.0 - 8.11.99', V8)).to.equal(true);
    expect(versionInRanges(' - 7.0.0, 8.10.0 - 8.12.0', V8)).to.equal(true);
    expect(versionInRanges('all', V8)).to.equal(true);
  });

  it('skips by version or by unsupported features, with the reason', () => {
    expect(skipReason({ version: ' - 6.99.99', reason: 'types' }, context)).to.equal(undefined);
    expect(skipReason({ version: 'all', reason: 'broken' }, context)).to.match(/broken/);
    expect(skipReason({ features: 'headers' }, context)).to.equal(undefined);
    expect(skipReason({ features: ['warnings', 'yaml'] }, context)).to.equal('feature not supported: yaml');
  });

  it('honours the client tests’ file-level requires', () => {
    expect(requiresReason({ serverless: true, stack: true }, context)).to.equal(undefined);
    expect(requiresReason({ serverless: true, stack: false }, context)).to.match(/serverless/);
  });

  it('loads setup, teardown, tests and a file-level requires from a multi-document file', () => {
    const file = parseTestFile(
      [
        '---',
        'requires:',
        '  stack: true',
        '---',
        'setup:',
        '  - do: { indices.create: { index: test } }',
        '---',
        'teardown:',
        '  - do: { indices.delete: { index: test } }',
        '---',
        '"First":',
        '  - skip: { version: " - 6.99.99", reason: old }',
        '  - match: { a.b: 1 }',
        '---',
        'Second:',
        '  - is_true: ok',
      ].join('\n'),
      'suite/tests/x.yml',
    );
    expect(file.requires).to.deep.equal({ stack: true });
    expect(file.setup).to.deep.equal([{ op: 'do', arg: { 'indices.create': { index: 'test' } } }]);
    expect(file.teardown).to.have.length(1);
    expect(file.tests.map((t) => t.name)).to.deep.equal(['First', 'Second']);
    expect(file.tests[0].steps[1]).to.deep.equal({ op: 'match', arg: { 'a.b': 1 } });
  });

  it('keeps a mapping key as written, as the Jackson YAML parser of Elasticsearch\'s runner does', () => {
    // search.aggregation/180_percentiles_tdigest_metric matches `values:` with keys written `1.0:`, the response's keys are "1.0"
    const file = parseTestFile(['"t":', '  - match:', '      aggregations.p.values:', '        1.0: 2.5', '        99.0: 149.5', '        true: 1'].join('\n'), 'x.yml');
    expect(file.tests[0].steps[0].arg).to.deep.equal({ 'aggregations.p.values': { '1.0': 2.5, '99.0': 149.5, true: 1 } });
  });

  it('accepts flow collections continued at the indentation of their key, as SnakeYAML does', () => {
    const file = parseTestFile(
      ['"t":', '  - do:', '      search:', '        body:', '          collapse: { field: f, inner_hits: {', '            name: h', '          } }', '  - match: { hits.total: 6 }'].join('\n'),
      'x.yml',
    );
    expect(file.broken).to.deep.equal([]);
    expect(file.tests[0].steps[0].arg).to.deep.equal({ search: { body: { collapse: { field: 'f', inner_hits: { name: 'h' } } } } });
  });
});
