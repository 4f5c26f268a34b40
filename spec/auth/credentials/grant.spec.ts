import { expect } from 'chai';
import { excessOf, inheritRestrictions, isWithin, type Rights } from '../../../lib/auth/credentials/grant.js';

/** A caller with every restriction set, and a request that restates each of them. */
const caller: Rights = {
  indices: ['shop', 'logs-*'],
  categories: ['docs', 'search', 'credentials'],
  ops: ['read', 'write'],
  sources: ['10.0.0.0/8', '2001:db8::/32'],
  referers: ['https://shop.example.com/*'],
  expires_at: '2030-01-01T00:00:00.000Z',
  rate_limit: { per_second: 10, per_ip_per_hour: 1000 },
  include_fields: ['title', 'user'],
  exclude_fields: ['secret'],
  max_size: 50,
  allow_raw_dsl: false,
  role: 'user',
  cluster_privileges: ['manage_pipeline'],
};
const same: Rights = { ...caller };
const asked = (changes: Partial<Rights>): Rights => ({ ...same, ...changes });
const widerIn = (granted: Rights, grantor = caller) => excessOf(grantor, granted).map((line) => /^\[([^\]]+)\]/.exec(line)![1]);

describe('grant: rights only narrow (credential B within credential A)', () => {
  it('a credential is within itself, and an unrestricted admin-issued one within nothing scoped', () => {
    expect(excessOf(caller, same)).to.deep.equal([]);
    expect(isWithin(same, caller)).to.equal(true);
  });

  it('indices: every pattern of B must be covered by A\'s patterns', () => {
    expect(widerIn(asked({ indices: ['shop', 'logs-app', 'logs-app-*'] }))).to.deep.equal([]);
    expect(widerIn(asked({ indices: [] }))).to.deep.equal([]);
    expect(widerIn(asked({ indices: ['shop*'] }))).to.deep.equal(['indices']);
    expect(widerIn(asked({ indices: ['logs*'] }))).to.deep.equal(['indices']);
    expect(widerIn(asked({ indices: ['*'] }))).to.deep.equal(['indices']);
    expect(widerIn(asked({ indices: ['.gateway-credentials'] }), { ...caller, indices: ['*'] })).to.deep.equal(['indices']);
  });

  it('app: the tag names an index within A', () => {
    expect(widerIn(asked({ app: 'logs-x' }))).to.deep.equal([]);
    expect(widerIn(asked({ app: 'other' }))).to.deep.equal(['app']);
  });

  it('categories, ops, allow_raw_dsl and cluster_privileges: only what A holds (`manage` holds them all)', () => {
    expect(widerIn(asked({ categories: ['docs'], ops: ['read'] }))).to.deep.equal([]);
    expect(widerIn(asked({ categories: ['docs', 'indices'] }))).to.deep.equal(['categories']);
    expect(widerIn(asked({ ops: ['read', 'delete'] }))).to.deep.equal(['ops']);
    expect(widerIn(asked({ allow_raw_dsl: true }))).to.deep.equal(['allow_raw_dsl']);
    expect(widerIn(asked({ allow_raw_dsl: true }), { ...caller, allow_raw_dsl: true })).to.deep.equal([]);
    expect(widerIn(asked({ cluster_privileges: [] }))).to.deep.equal([]);
    expect(widerIn(asked({ cluster_privileges: undefined }))).to.deep.equal([]);
    expect(widerIn(asked({ cluster_privileges: ['manage_scripts'] }))).to.deep.equal(['cluster_privileges']);
    expect(widerIn(asked({ cluster_privileges: ['manage'] }))).to.deep.equal(['cluster_privileges']);
    expect(widerIn(asked({ cluster_privileges: ['manage_scripts', 'manage_pipeline'] }), { ...caller, cluster_privileges: ['manage'] })).to.deep.equal([]);
  });

  it('role: never admin', () => {
    expect(widerIn(asked({ role: 'admin' }))).to.deep.equal(['role']);
    expect(widerIn(asked({ role: 'admin' }), { ...caller, role: 'admin' })).to.deep.equal(['role']);
  });

  it('include_fields: B must be at least as narrow (a field under an included object is narrower)', () => {
    expect(widerIn(asked({ include_fields: ['title', 'user.name'] }))).to.deep.equal([]);
    expect(widerIn(asked({ include_fields: ['price'] }))).to.deep.equal(['include_fields']);
    expect(widerIn(asked({ include_fields: ['t*'] }))).to.deep.equal(['include_fields']);
    expect(widerIn(asked({ include_fields: undefined }))).to.deep.equal(['include_fields']);
    expect(widerIn(asked({ include_fields: [] }))).to.deep.equal(['include_fields']);
    expect(widerIn(asked({ include_fields: ['title'] }), { ...caller, include_fields: ['t*'] })).to.deep.equal([]);
    expect(widerIn(asked({ include_fields: ['anything'] }), { ...caller, include_fields: undefined })).to.deep.equal([]);
  });

  it('exclude_fields: B must exclude at least what A excludes', () => {
    expect(widerIn(asked({ exclude_fields: ['secret', 'price'] }))).to.deep.equal([]);
    expect(widerIn(asked({ exclude_fields: ['sec*'] }))).to.deep.equal([]);
    expect(widerIn(asked({ exclude_fields: ['secret.inner'] }))).to.deep.equal(['exclude_fields']);
    expect(widerIn(asked({ exclude_fields: [] }))).to.deep.equal(['exclude_fields']);
    expect(widerIn(asked({ exclude_fields: undefined }))).to.deep.equal(['exclude_fields']);
  });

  it('max_size, expires_at and each rate limit: B at most A\'s, and present when A has one', () => {
    expect(widerIn(asked({ max_size: 0, expires_at: '2029-01-01T00:00:00.000Z', rate_limit: { per_second: 1, per_ip_per_hour: 1000 } }))).to.deep.equal([]);
    expect(widerIn(asked({ max_size: 51 }))).to.deep.equal(['max_size']);
    expect(widerIn(asked({ max_size: undefined }))).to.deep.equal(['max_size']);
    expect(widerIn(asked({ expires_at: '2030-01-01T00:00:00.001Z' }))).to.deep.equal(['expires_at']);
    expect(widerIn(asked({ expires_at: undefined }))).to.deep.equal(['expires_at']);
    expect(widerIn(asked({ rate_limit: { per_second: 11, per_ip_per_hour: 1000 } }))).to.deep.equal(['rate_limit.per_second']);
    expect(widerIn(asked({ rate_limit: { per_second: 10 } }))).to.deep.equal(['rate_limit.per_ip_per_hour']);
    expect(widerIn(asked({ rate_limit: undefined }))).to.deep.equal(['rate_limit.per_second', 'rate_limit.per_ip_per_hour']);
    expect(widerIn(asked({ max_size: 1000, expires_at: undefined, rate_limit: undefined }), { ...caller, max_size: undefined, expires_at: undefined, rate_limit: undefined })).to.deep.equal([]);
  });

  it('sources: each of B\'s ranges inside one of A\'s; none (anywhere) is wider', () => {
    expect(widerIn(asked({ sources: ['10.1.0.0/16', '10.2.3.4', '2001:db8:1::/48'] }))).to.deep.equal([]);
    expect(widerIn(asked({ sources: ['10.1.2.3/8'] }))).to.deep.equal([]);
    expect(widerIn(asked({ sources: ['0.0.0.0/0'] }))).to.deep.equal(['sources']);
    expect(widerIn(asked({ sources: ['11.0.0.1'] }))).to.deep.equal(['sources']);
    expect(widerIn(asked({ sources: ['2001:db8::/31'] }))).to.deep.equal(['sources']);
    expect(widerIn(asked({ sources: ['::ffff:10.0.0.1'] }))).to.deep.equal(['sources']); // other family: not proven inside
    expect(widerIn(asked({ sources: [] }))).to.deep.equal(['sources']);
    expect(widerIn(asked({ sources: [] }), { ...caller, sources: [] })).to.deep.equal([]);
  });

  it('referers: each of B\'s patterns matched by one of A\'s (a `*` of B only under a `*` of A); none is wider', () => {
    expect(widerIn(asked({ referers: ['https://shop.example.com/cart/*', 'HTTPS://SHOP.example.com/x'] }))).to.deep.equal([]);
    expect(widerIn(asked({ referers: ['https://*.example.com/*'] }))).to.deep.equal(['referers']);
    expect(widerIn(asked({ referers: ['*'] }))).to.deep.equal(['referers']);
    expect(widerIn(asked({ referers: [] }))).to.deep.equal(['referers']);
  });

  it('inheritRestrictions: a create that leaves a restriction out gets the caller\'s; given members stay as given', () => {
    const spec = inheritRestrictions(caller, { indices: ['shop'], categories: ['docs'], ops: ['read'], max_size: 5, rate_limit: { per_second: 2 } });
    expect(spec).to.deep.equal({
      indices: ['shop'], categories: ['docs'], ops: ['read'], max_size: 5,
      rate_limit: { per_second: 2, per_ip_per_hour: 1000 },
      sources: caller.sources, referers: caller.referers, expires_at: caller.expires_at,
      include_fields: caller.include_fields, exclude_fields: caller.exclude_fields,
    });
    expect(isWithin({ ...spec, allow_raw_dsl: false, role: 'user' } as Rights, caller)).to.equal(true);
    // nothing to inherit from an unrestricted caller; members with a narrowest default are never inherited
    const open: Rights = { indices: ['*'], categories: ['docs'], ops: ['read'], sources: [], referers: [], allow_raw_dsl: true, role: 'user', cluster_privileges: ['manage'] };
    expect(inheritRestrictions(open, { indices: ['a'] })).to.deep.equal({ indices: ['a'] });
  });
});
