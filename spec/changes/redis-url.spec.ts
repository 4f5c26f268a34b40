import { expect } from 'chai';
import { parseRedisUrl } from '../../lib/changes/index.js';

describe('REDIS_URL: one server, Sentinel or Cluster', () => {
  it('passes a redis:// or rediss:// URL to ioredis as it is', () => {
    expect(parseRedisUrl('redis://:pw@10.0.0.1:6380/2')).to.deep.equal({ kind: 'server', url: 'redis://:pw@10.0.0.1:6380/2' });
    expect(parseRedisUrl('rediss://r.example:6380')).to.deep.equal({ kind: 'server', url: 'rediss://r.example:6380' });
  });

  it('reads the Sentinels, the master name, the database and the credentials of redis+sentinel://', () => {
    expect(parseRedisUrl('redis+sentinel://gw:p%40ss@s1:26379,s2,[::1]:26380/mymaster/3')).to.deep.equal({
      kind: 'sentinel',
      sentinels: [{ host: 's1', port: 26379 }, { host: 's2', port: 26379 }, { host: '::1', port: 26380 }],
      name: 'mymaster',
      db: 3,
      username: 'gw',
      password: 'p@ss',
      tls: false,
    });
    expect(() => parseRedisUrl('redis+sentinel://s1:26379')).to.throw(/names the master/);
  });

  it('reads the seed nodes of redis+cluster://, TLS with rediss+cluster://', () => {
    expect(parseRedisUrl('rediss+cluster://:secret@c1:7000,c2:7001')).to.deep.equal({
      kind: 'cluster',
      nodes: [{ host: 'c1', port: 7000 }, { host: 'c2', port: 7001 }],
      username: undefined,
      password: 'secret',
      tls: true,
    });
  });

  it('refuses what it cannot read, saying why', () => {
    expect(() => parseRedisUrl('http://x')).to.throw(/must start with redis:\/\//);
    expect(() => parseRedisUrl('redis+cluster://c1:notaport')).to.throw(/invalid host/);
    expect(() => parseRedisUrl('redis+cluster://')).to.throw(/names no host/);
  });
});
