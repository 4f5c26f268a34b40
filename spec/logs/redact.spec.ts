import { expect } from 'chai';
import { redactJsonText, redactQuerystring } from '../../lib/logs/redact.js';

describe('request log redaction', () => {
  it('replaces the value of every secret member, at any depth, whatever its type', () => {
    const body = {
      username: 'u',
      password: 'p1',
      nested: [{ deep: { api_key: 'k1', apiKey: 'k2', 'x-api-key': 'k3' } }],
      client_secret: { any: ['thing', { password: 'p2' }] },
      access_token: 12345,
      token: null,
      kept: 'password',
    };
    expect(JSON.parse(redactJsonText(JSON.stringify(body, null, 2)))).to.deep.equal({
      username: 'u',
      password: '[redacted]',
      nested: [{ deep: { api_key: '[redacted]', apiKey: '[redacted]', 'x-api-key': '[redacted]' } }],
      client_secret: '[redacted]',
      access_token: '[redacted]',
      token: '[redacted]',
      kept: 'password',
    });
  });

  it("redacts access, secret and private keys; a connector's credential map where connectors are carried (the Flow Framework's templates)", () => {
    const body = { credential: { key: 'k' }, 'create_connector.credential.key': 'k2', parameters: { access_key: 'a', secret_key: 's', private_key: 'p', region: 'r' }, keyword: 'kept' };
    const keys = { access_key: '[redacted]', secret_key: '[redacted]', private_key: '[redacted]', region: 'r' };
    expect(JSON.parse(redactJsonText(JSON.stringify(body), true))).to.deep.equal({
      credential: '[redacted]', 'create_connector.credential.key': '[redacted]', parameters: keys, keyword: 'kept',
    });
    // elsewhere a credential is no secret: the gateway's /_credentials answers describe one
    expect(JSON.parse(redactJsonText(JSON.stringify(body)))).to.deep.equal({ ...body, parameters: keys });
  });

  it('leaves names that only contain a secret word alone', () => {
    const text = JSON.stringify({ tokenizer: 'standard', passwords_changed: 2, secretary: 'x', tokens: [{ text: 'a' }] });
    expect(redactJsonText(text)).to.equal(text);
  });

  it('reads keys with escapes, strings with quotes and braces, NDJSON, and text cut anywhere', () => {
    expect(redactJsonText('{"pass\\u0077ord":"a\\"b}c","x":1}')).to.equal('{"pass\\u0077ord":"[redacted]","x":1}');
    expect(redactJsonText('{"note":"\\"password\\": no","secret":"s"}')).to.equal('{"note":"\\"password\\": no","secret":"[redacted]"}');
    expect(redactJsonText('{"index":{}}\n{"password":"a"}\n{"index":{}}\n{"password":"b"}\n')).to.equal('{"index":{}}\n{"password":"[redacted]"}\n{"index":{}}\n{"password":"[redacted]"}\n');
    const full = JSON.stringify({ a: 1, password: 'the-whole-secret-value', b: { secret: { c: [1, 2, 3] } } });
    for (let cut = 0; cut <= full.length; cut++) {
      const redacted = redactJsonText(full.slice(0, cut));
      for (let len = 4; len <= 'the-whole-secret-value'.length; len++) expect(redacted).not.to.include('the-whole-secret-value'.slice(0, len));
      expect(redacted).not.to.match(/\[1,/);
    }
  });

  it('redacts secret query parameters and bodies sent as `source`', () => {
    expect(redactQuerystring('q=a&token=t1&api_key=k&size=3')).to.equal('q=a&token=[redacted]&api_key=[redacted]&size=3');
    const source = encodeURIComponent(JSON.stringify({ query: { match_all: {} }, password: 'p' }));
    expect(decodeURIComponent(redactQuerystring(`source=${source}&source_content_type=application/json`).split('&')[0].slice(7)))
      .to.equal('{"query":{"match_all":{}},"password":"[redacted]"}');
    expect(redactQuerystring('q=plain&size=1')).to.equal('q=plain&size=1');
    expect(redactQuerystring('pass%77ord=p&x=%E2%82%AC')).to.equal('pass%77ord=[redacted]&x=%E2%82%AC');
  });
});
