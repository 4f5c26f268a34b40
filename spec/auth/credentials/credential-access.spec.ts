import { expect } from 'chai';
import { MemoryChangeBus } from '../../../lib/changes/index.js';
import { CREDENTIALS_INDEX, CredentialAccess, CredentialCache, cidrOf, followCredentialChanges } from '../../../lib/auth/index.js';

describe('credential access checks (sources, referers, index patterns)', () => {
  const access = (members: Partial<{ sources: string[]; referers: string[]; indices: string[] }>) =>
    new CredentialAccess({ sources: [], referers: [], indices: [], ...members });

  it('sources: IPv4 and IPv6 CIDR ranges and bare addresses; IPv4-mapped IPv6 client addresses count as IPv4', () => {
    const a = access({ sources: ['10.0.0.0/8', '192.168.1.7', '2001:db8::/32'] });
    expect(a.allowsSource('10.20.30.40')).to.equal(true);
    expect(a.allowsSource('::ffff:10.20.30.40')).to.equal(true);
    expect(a.allowsSource('192.168.1.7')).to.equal(true);
    expect(a.allowsSource('192.168.1.8')).to.equal(false);
    expect(a.allowsSource('2001:db8:1::5')).to.equal(true);
    expect(a.allowsSource('2001:db9::1')).to.equal(false);
    expect(a.allowsSource('11.0.0.1')).to.equal(false);
    expect(a.allowsSource(undefined)).to.equal(false);
    expect(a.allowsSource('not-an-ip')).to.equal(false);
    expect(access({}).allowsSource('8.8.8.8')).to.equal(true);
  });

  it('cidrOf refuses malformed ranges', () => {
    for (const bad of ['10.0.0.0/33', '10.0.0/8', '::1/129', 'host/8', '10.0.0.0/', '10.0.0.0/8/8', '10.0.0.0/-1']) {
      expect(cidrOf(bad), bad).to.equal(undefined);
    }
    expect(cidrOf('::1')).to.deep.equal({ address: '::1', prefix: 128, family: 'ipv6' });
  });

  it('referers: `*` patterns, anchored, case-insensitive; with patterns set, a missing Referer is refused', () => {
    const a = access({ referers: ['https://*.example.com/*', 'http://localhost:3000/*'] });
    expect(a.allowsReferer('https://shop.example.com/cart')).to.equal(true);
    expect(a.allowsReferer('HTTPS://Shop.Example.com/')).to.equal(true);
    expect(a.allowsReferer('https://example.com.evil.io/x')).to.equal(false);
    expect(a.allowsReferer('http://localhost:3000/a?b=c')).to.equal(true);
    expect(a.allowsReferer(undefined)).to.equal(false);
    expect(access({}).allowsReferer(undefined)).to.equal(true);
  });

  it('indices: names and patterns cover concrete indices; regex characters are literal', () => {
    const a = access({ indices: ['books', 'logs-*', 'a.b'] });
    expect(a.coversIndex('books')).to.equal(true);
    expect(a.coversIndex('books2')).to.equal(false);
    expect(a.coversIndex('logs-2024')).to.equal(true);
    expect(a.coversIndex('logs')).to.equal(false);
    expect(a.coversIndex('a.b')).to.equal(true);
    expect(a.coversIndex('axb')).to.equal(false);
  });
});

describe('credential cache', () => {
  const principal = (username: string) => ({ username });

  it('keys are HMACs of the header, never the header; dropUser removes every entry of that user only', () => {
    const cache = new CredentialCache<{ username: string }>();
    const header = 'Basic ' + Buffer.from('u1:secret-password').toString('base64');
    expect(cache.keyOf(header)).not.to.contain('secret');
    expect(cache.keyOf(header)).not.to.equal(header);
    cache.set(header, principal('u1'), cache.ticket());
    cache.set('Basic other', principal('u1'), cache.ticket());
    cache.set('Basic third', principal('u2'), cache.ticket());
    expect(cache.size('u1')).to.equal(2);
    cache.dropUser('u1');
    expect(cache.get(header)).to.equal(undefined);
    expect(cache.size('u1')).to.equal(0);
    expect(cache.get('Basic third')).to.deep.equal(principal('u2'));
  });

  it('a lookup that started before an invalidation does not cache what it read', () => {
    const cache = new CredentialCache<{ username: string }>();
    const ticket = cache.ticket();
    cache.dropUser('u1'); // arrives while the lookup reads the store
    expect(cache.set('Basic x', principal('u1'), ticket)).to.equal(false);
    expect(cache.get('Basic x')).to.equal(undefined);
    expect(cache.set('Basic x', principal('u1'), cache.ticket())).to.equal(true);
  });

  it('the change feed drops a user on a document change, everything on an index change, and switches caching off when the bus ends', async () => {
    const bus = new MemoryChangeBus();
    const cache = new CredentialCache<{ username: string }>();
    const feed = followCredentialChanges(bus, cache);
    await feed.live;
    cache.set('Basic a', principal('a'), cache.ticket());
    cache.set('Basic b', principal('b'), cache.ticket());
    await bus.publish({ kind: 'document', index: CREDENTIALS_INDEX, type: '_doc', id: 'a', op: 'delete', version: 2, seqNo: 1, primaryTerm: 1 });
    expect(cache.size('a')).to.equal(0);
    expect(cache.size('b')).to.equal(1);
    await bus.publish({ kind: 'index', index: CREDENTIALS_INDEX, op: 'delete' });
    expect(cache.size()).to.equal(0);
    cache.set('Basic b', principal('b'), cache.ticket());
    await bus.close();
    expect(cache.size()).to.equal(0);
    expect(cache.set('Basic b', principal('b'), cache.ticket())).to.equal(false);
    feed.stop();
  });
});
