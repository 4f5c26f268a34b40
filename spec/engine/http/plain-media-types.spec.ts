import { expect } from 'chai';
import { isPlainJson, plainMediaType } from '../../../lib/engine/http/plain-media-types.js';

describe('plain media types towards the engine', () => {
  it("makes Elasticsearch's versioned types naming version 8 plain, each in an Accept list", () => {
    expect(plainMediaType('application/vnd.elasticsearch+json; compatible-with=8')).to.equal('application/json');
    expect(plainMediaType('application/vnd.elasticsearch+json;compatible-with=8')).to.equal('application/json');
    expect(plainMediaType('application/vnd.elasticsearch+x-ndjson; compatible-with=8')).to.equal('application/x-ndjson');
    expect(plainMediaType('application/vnd.elasticsearch+json; compatible-with=8,text/plain')).to.equal('application/json,text/plain');
  });

  it('leaves compatibility mode (7), other versions, plain types and absent headers alone', () => {
    expect(plainMediaType('application/vnd.elasticsearch+json; compatible-with=7')).to.equal(undefined);
    expect(plainMediaType('application/vnd.elasticsearch+json; compatible-with=9')).to.equal(undefined);
    expect(plainMediaType('application/json')).to.equal(undefined);
    expect(plainMediaType(undefined)).to.equal(undefined);
    expect(plainMediaType(['application/vnd.elasticsearch+json; compatible-with=8'])).to.equal(undefined);
  });

  it('recognizes a plain JSON answer, with or without a charset', () => {
    expect(isPlainJson('application/json; charset=UTF-8')).to.equal(true);
    expect(isPlainJson('application/json')).to.equal(true);
    expect(isPlainJson('text/plain; charset=UTF-8')).to.equal(false);
    expect(isPlainJson('application/vnd.elasticsearch+json;compatible-with=8')).to.equal(false);
  });
});
