import { expect } from 'chai';
import { compileExtendedRegex, slashedPattern } from '../../../../conformance/extended-regex.js';
import { startEngine, type TestEngine } from '../support.js';

/**
 * The `_cat` APIs as Elasticsearch 8.15's REST tests read them: the text tables are matched with
 * the regexes of ES's `rest-api-spec/test/cat.*` suites (Java COMMENTS mode, as the suites'
 * runner compiles them), the JSON forms and `help` by value.
 */
function expectMatch(body: string, yamlRegex: string): void {
  const re = compileExtendedRegex(slashedPattern(yamlRegex)!);
  expect(re.test(body), `${re}\n---\n${body}`).to.equal(true);
}

describe('embedded engine REST: the _cat family', () => {
  let es: TestEngine;
  const text = async (p: string) => {
    const r = await es.call('GET', p);
    expect(r.status, `${p}: ${r.text}`).to.equal(200);
    expect(r.headers['content-type']).to.match(/^text\/plain/);
    return r.text;
  };
  const json = async (p: string) => {
    const r = await es.call('GET', p);
    expect(r.status, `${p}: ${r.text}`).to.equal(200);
    return r.json;
  };

  beforeEach(async () => {
    es = await startEngine();
  });
  afterEach(() => es.close());

  it('GET /_cat lists the cat endpoints as Elasticsearch prints them', async () => {
    const body = await text('/_cat');
    const lines = body.split('\n');
    expect(lines[0]).to.equal('=^.^=');
    expect(lines).to.include.members(['/_cat/allocation', '/_cat/shards/{index}', '/_cat/nodes', '/_cat/health', '/_cat/thread_pool/{thread_pools}', '/_cat/templates']);
    // ES writes no line break after the component templates line
    expect(lines).to.include('/_cat/component_templates/_cat/ml/anomaly_detectors');
    expect(body.endsWith('/_cat/transforms/{transform_id}\n')).to.equal(true);
  });

  it('_cat/health: help, the empty cluster, ts=false, and the counts cluster health reports', async () => {
    expectMatch(await text('/_cat/health?help'), `/^  epoch         .+ \\n
                   timestamp     .+ \\n
                   cluster       .+ \\n
                   status        .+ \\n
                   node.total    .+ \\n
                   node.data     .+ \\n
                   shards        .+ \\n
                   pri           .+ \\n
                   relo          .+ \\n
                   init          .+ \\n
                   unassign      .+ \\n
                   pending_tasks .+ \\n
                   max_task_wait_time .+ \\n
                   active_shards_percent .+ \\n
               $/`);
    const row = `\\S+ \\s+ \\w+ \\s+ \\d+ \\s+ \\d+ \\s+ \\d+ \\s+ \\d+ \\s+ \\d+ \\s+ \\d+ \\s+ \\d+ \\s+ \\d+ \\s+ (-|\\d+(?:[.]\\d+)?m?s) \\s+ \\d+\\.\\d+% \\n`;
    expectMatch(await text('/_cat/health'), `/^( \\d+ \\s+ \\d\\d:\\d\\d:\\d\\d \\s+ ${row} )+ $/`);
    expectMatch(await text('/_cat/health?ts=false'), `/^( ${row} )+ $/`);
    expect(await text('/_cat/health?h=status,unassign,active_shards_percent&ts=false')).to.equal('green 0 100.0%\n');

    await es.call('PUT', '/two', { settings: { number_of_shards: 2, number_of_replicas: 1 } });
    await es.call('PUT', '/one', { settings: { number_of_replicas: 0 } });
    const health = (await es.call('GET', '/_cluster/health')).json;
    const [cat] = await json('/_cat/health?format=json');
    expect(cat).to.include({ cluster: health.cluster_name, status: 'yellow', 'node.total': '1', 'node.data': '1', shards: '3', pri: '3', relo: '0', init: '0', unassign: '2', pending_tasks: '0', max_task_wait_time: '-', active_shards_percent: '60.0%' });
    expect(Number(cat.unassign)).to.equal(health.unassigned_shards);
    expect(cat.epoch).to.match(/^\d+$/);
    // aliases as display names, wildcards over names and aliases
    expect(await json('/_cat/health?format=json&h=st,shards.*&ts=false')).to.deep.equal([{ st: 'yellow', shards: '3', pri: '3', relo: '0', init: '0', unassign: '2' }]);
  });

  it('_cat/nodes: the default columns, heap.* with v, disk, full_id, http, node.role and master', async () => {
    expectMatch(await text('/_cat/nodes'), `/  #ip                          heap.percent        ram.percent     cpu         load_1m                load_5m                load_15m               node.role                   master          name
               ^  ((\\d{1,3}\\.){3}\\d{1,3}  \\s+  \\d+            \\s+  \\d*         \\s+ (-)?\\d* \\s+ ((-)?\\d*(\\.\\d+)?)? \\s+ ((-)?\\d*(\\.\\d+)?)?\\s+  ((-)?\\d*(\\.\\d+)?)? \\s+ (-|[cdfhilmrstvwIS]{1,11}) \\s+ [-*x]     \\s+   .*     \\n)+  $/`);
    expectMatch(await text('/_cat/nodes?v'), `/^  ip                     \\s+  heap\\.percent   \\s+  ram\\.percent \\s+ cpu      \\s+ load_1m            \\s+ load_5m            \\s+ load_15m           \\s+ node\\.role              \\s+  master   \\s+   name  \\n
                  ((\\d{1,3}\\.){3}\\d{1,3}  \\s+  \\d+             \\s+  \\d*          \\s+ (-)?\\d* \\s+  ((-)?\\d*(\\.\\d+)?)? \\s+ ((-)?\\d*(\\.\\d+)?)? \\s+ ((-)?\\d*(\\.\\d+)?)? \\s+ (-|[cdfhilmrstvwIS]{1,11}) \\s+  [-*x]    \\s+   .*    \\n)+  $/`);
    const heap = `/^      heap\\.current          \\s+  heap\\.percent  \\s+  heap\\.max              \\n
                  (\\s+ \\d+(\\.\\d+)?[ptgmk]?b   \\s+  \\d+            \\s+  \\d+(\\.\\d+)?[ptgmk]?b   \\n)+  $/`;
    expectMatch(await text('/_cat/nodes?h=heap.current,heap.percent,heap.max&v'), heap);
    expectMatch(await text('/_cat/nodes?h=heap.*&v'), heap);
    expectMatch(await text('/_cat/nodes?h=file_desc.current,file_desc.percent,file_desc.max&v'), `/^      file_desc\\.current  \\s+  file_desc\\.percent  \\s+  file_desc\\.max   \\n
                  (\\s+ (-1|\\d+)            \\s+  \\d+                 \\s+  (-1|\\d+)         \\n)+  $/`);
    expectMatch(await text('/_cat/nodes?h=http&v'), `/^      http \\n ((\\d{1,3}\\.){3}\\d{1,3}:\\d{1,5}\\n)+  $/`);
    expectMatch(await text('/_cat/nodes?h=disk,dt,du,dup&v'), `/^  \\s* disk                 \\s+ dt                   \\s+ du                  \\s+ dup                        \\n
                  (\\s* \\d+(\\.\\d+)?[ptgmk]?b \\s+ \\d+(\\.\\d+)?[ptgmk]?b \\s+ \\d+(\\.\\d+)?[ptgmk]?b\\s+ (100\\.00 | \\d{1,2}\\.\\d{2}) \\n)+  $/`);
    expectMatch(await text('/_cat/nodes?h=id'), '/^(\\S{4}\\n)+$/');
    expectMatch(await text('/_cat/nodes?h=id&full_id=true'), '/^(\\S{5,}\\n)+$/');
    const [node] = await json('/_cat/nodes?format=json&h=ip,node.role,master,name,version');
    expect(node).to.deep.equal({ ip: '127.0.0.1', 'node.role': 'cdfhilmrstw', master: '*', name: node.name, version: '8.15.0' });
    // bytes=b renders sizes as whole bytes
    const [b] = await json('/_cat/nodes?format=json&h=heap.max,ram.max&bytes=b');
    expect(b['heap.max']).to.match(/^\d+$/);
    expect(Number(b['ram.max'])).to.be.greaterThan(0);
  });

  it('_cat/master and _cat/nodeattrs name the node', async () => {
    const [master] = await json('/_cat/master?format=json');
    const [node] = await json('/_cat/nodes?format=json&h=id,name&full_id');
    expect(master).to.deep.equal({ id: node.id, host: '127.0.0.1', ip: '127.0.0.1', node: node.name });
    expectMatch(await text('/_cat/master?v'), '/^id \\s+ host \\s+ ip \\s+ node \\n \\S+ \\s+ \\S+ \\s+ (\\d{1,3}\\.){3}\\d{1,3} \\s+ \\S+ \\n$/');
    expectMatch(await text('/_cat/nodeattrs?help'), `/^  node   .+ \\n id     .+ \\n pid    .+ \\n host   .+ \\n ip     .+ \\n port   .+ \\n attr   .+ \\n value  .+ \\n $/`);
    expectMatch(await text('/_cat/nodeattrs?v'), `/^   node\\s+        host\\s+ ip\\s+                   attr\\s+     value\\s* \\n
                    (((\\S+\\s?){1,10})\\s+(\\S+)\\s+[0-9a-f:.%]+\\s+(\\S+)\\s+    (\\S+)\\s* \\n)+
               $/`);
    expect(await json('/_cat/nodeattrs?format=json&h=attr,value&s=attr')).to.deep.include({ attr: 'xpack.installed', value: 'true' });
  });

  it('_cat/shards: a started primary per shard, unassigned replicas, docs by routing, sort and wildcards', async () => {
    expect(await text('/_cat/shards/i*')).to.equal('');
    await es.call('PUT', '/index1', { settings: { number_of_shards: 5, number_of_replicas: 1 } });
    const oneIndex = `(index1 \\s+ \\d \\s+ (p|r) \\s+ ((STARTED|INITIALIZING|RELOCATING) \\s+ (\\d \\s+ (\\d+|\\d+[.]\\d+)(kb|b) \\s+ (\\d+|\\d+[.]\\d+)(kb|b) \\s+)? \\d{1,3}.\\d{1,3}.\\d{1,3}.\\d{1,3} \\s+ .+|UNASSIGNED \\s+)  \\n?)`;
    expectMatch(await text('/_cat/shards/i*'), `/^${oneIndex}{10}$/`);
    await es.call('PUT', '/index2', { settings: { number_of_shards: 5, number_of_replicas: 0 } });
    expectMatch(await text('/_cat/shards/i*'), `/^(index(1|2) \\s+ \\d \\s+ (p|r) \\s+ ((STARTED|INITIALIZING|RELOCATING) \\s+ (\\d \\s+ (\\d+|\\d+[.]\\d+)(kb|b) \\s+ (\\d+|\\d+[.]\\d+)(kb|b) \\s+)? \\d{1,3}.\\d{1,3}.\\d{1,3}.\\d{1,3} \\s+ .+|UNASSIGNED \\s+) \\n?){15}$/`);
    const states = (await json('/_cat/shards/index1?format=json&h=prirep,state')) as Array<Record<string, string>>;
    expect(states.filter((s) => s.prirep === 'p').every((s) => s.state === 'STARTED')).to.equal(true);
    expect(states.filter((s) => s.prirep === 'r').every((s) => s.state === 'UNASSIGNED')).to.equal(true);

    // documents land on the shard their id routes to: the primaries' docs add up to the index's
    for (let i = 0; i < 20; i++) await es.call('PUT', `/index2/_doc/d${i}`, { n: i });
    const docs = ((await json('/_cat/shards/index2?format=json&h=docs')) as Array<{ docs: string }>).map((d) => Number(d.docs));
    expect(docs.reduce((a, b) => a + b, 0)).to.equal(20);
    expect(docs.filter((d) => d > 0).length).to.be.greaterThan(1);

    await es.call('PUT', '/foo', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await es.call('PUT', '/bar', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await es.call('PUT', '/baz', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await es.call('PUT', '/bar/_doc/1?refresh=true', { test: 'bar' });
    expectMatch(await text('/_cat/shards/f*?h=i'), '/^(foo \\n?)$/');
    expectMatch(await text('/_cat/shards/ba*?h=i'), '/^(ba(r|z) \\n?){2}$/');
    expectMatch(await text('/_cat/shards/foo,bar?h=index,docs&s=docs'), '/^ foo \\s+ 0\\n bar \\s+ 1\\n $/');
    expectMatch(await text('/_cat/shards/foo,bar?h=index,dataset&s=docs'), '/^ foo \\s+ (\\d+|\\d+[.]\\d+)(kb|b)\\n bar \\s+ (\\d+|\\d+[.]\\d+)(kb|b)\\n $/');
    expect(await text('/_cat/shards/foo,bar?h=index,docs&s=docs:desc')).to.equal('bar 1\nfoo 0\n');
    // an unknown sort key is refused as ES refuses it
    const bad = await es.call('GET', '/_cat/shards?s=nope');
    expect(bad.status).to.equal(500);
    expect(bad.json.error.reason).to.equal('Unable to sort by unknown sort key `nope`');

    // hidden indices are listed
    await es.call('PUT', '/hid', { settings: { number_of_shards: 1, number_of_replicas: 0, hidden: true } });
    await es.call('PUT', '/hid/_doc/1?refresh=true', { test: 'hid' });
    expectMatch(await text('/_cat/shards?h=index,docs'), '/hid \\s+ 1\\n/');

    const help = await text('/_cat/shards?help');
    expect(help.split('\n')[0]).to.match(/^index +\| i,idx +\| index name +$/);
    expect(help.split('\n').map((l) => l.split(' ')[0]).filter(Boolean)).to.include.members(['unassigned.reason', 'bulk.avg_size_in_bytes', 'sparse_vector.value_count']);
    const [unassigned] = await json('/_cat/shards/index1?format=json&h=ur,rs&s=prirep:desc');
    expect(unassigned).to.deep.equal({ ur: 'INDEX_CREATED', rs: 'peer' });
  });

  it('_cat/indices: a wildcard reaches a hidden alias only with expand_wildcards=hidden (or a dot pattern for a dot alias)', async () => {
    const hiddenIndex = { number_of_shards: 1, number_of_replicas: 0, index: { hidden: true } };
    await es.call('PUT', '/index1', { settings: hiddenIndex, aliases: { alias1: { is_hidden: true } } });
    await es.call('PUT', '/index2', { settings: hiddenIndex, aliases: { '.alias2': { is_hidden: true } } });
    await es.call('PUT', '/index3', { settings: hiddenIndex, aliases: { alias3: {} } });
    // the visible alias of a hidden index is reached by a wildcard, the hidden ones are not
    expect(await text('/_cat/indices?h=i&s=i')).to.equal('index3\n');
    expect(await text('/_cat/indices/a*?h=i&s=i')).to.equal('index3\n');
    expect(await text('/_cat/indices?h=i&s=i&expand_wildcards=all')).to.equal('index1\nindex2\nindex3\n');
    expect(await text('/_cat/indices/.a*?h=i')).to.equal('index2\n');
    // named, a hidden alias is reached
    expect(await text('/_cat/indices/alias1?h=i')).to.equal('index1\n');
  });

  it('_cat/aliases: the aliases of the indices expand_wildcards reaches, hidden and closed ones by default', async () => {
    const hiddenIndex = { number_of_shards: 1, number_of_replicas: 0, index: { hidden: true } };
    await es.call('PUT', '/hid', { settings: hiddenIndex, aliases: { a_hid: { is_hidden: true } } });
    await es.call('PUT', '/vis', { settings: { number_of_shards: 1, number_of_replicas: 0 }, aliases: { a_vis: { is_hidden: true } } });
    await es.call('PUT', '/shut', { aliases: { a_shut: {} } });
    await es.call('POST', '/shut/_close');
    expect(await text('/_cat/aliases?h=alias,index')).to.equal('a_hid  hid\na_shut shut\na_vis  vis\n');
    expect(await text('/_cat/aliases/a_hid?h=alias,index')).to.equal('a_hid hid\n');
    expect(await text('/_cat/aliases?h=alias&expand_wildcards=open,closed')).to.equal('a_shut\na_vis\n');
    expect(await text('/_cat/aliases?h=alias&expand_wildcards=open')).to.equal('a_vis\n');
    const bad = await es.call('GET', '/_cat/aliases?expand_wildcards=nope');
    expect(bad.status).to.equal(400);
    expect(bad.json.error.type).to.equal('illegal_argument_exception');
  });

  it('_cat/segments: one segment per shard holding documents; a closed index named is refused', async () => {
    expectMatch(await text('/_cat/segments?help'), `/^   index        .+   \\n shard .+ \\n prirep .+ \\n ip .+ \\n id .+ \\n segment .+ \\n generation .+ \\n
                    docs.count   .+   \\n docs.deleted .+   \\n size .+ \\n size.memory  .+   \\n committed .+ \\n searchable .+ \\n version .+ \\n compound .+ \\n $/`);
    expect(await text('/_cat/segments')).to.equal('');
    await es.call('PUT', '/index1', { settings: { number_of_shards: 3, number_of_replicas: 0 } });
    await es.call('POST', '/index1/_doc?refresh=true', { foo: 'bar' });
    expectMatch(await text('/_cat/segments'), `/^(index1 \\s+ \\d \\s+ (p|r) \\s+ \\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3} \\s+ _\\d (\\s\\d){3} \\s+
                 (\\d+|\\d+[.]\\d+)(kb|b) \\s+ \\d+ (\\s+ (false|true)){2} \\s+  \\d+\\.\\d+(\\.\\d+)? \\s+ (false|true) \\s? \\n?)$/`);
    await es.call('PUT', '/index2', { settings: { number_of_shards: 3, number_of_replicas: 0 } });
    await es.call('POST', '/index2/_doc?refresh=true', { foo: 'bar' });
    expectMatch(await text('/_cat/segments'), '/^(index(1|2) .+ \\n?){2}$/');
    expectMatch(await text('/_cat/segments/index2'), '/^(index2 .+ \\n?)$/');
    await es.call('POST', '/index1/_close');
    expect((await es.call('GET', '/_cat/segments/index1')).status).to.equal(400);
  });

  it('_cat/recovery: a done recovery per started primary', async () => {
    expect(await text('/_cat/recovery')).to.equal('');
    await es.call('PUT', '/index1/_doc/1?refresh=true', { foo: 'bar' });
    expectMatch(await text('/_cat/recovery?h=i,s,t,ty,st,shost,thost,rep,snap,f,fr,fp,tf,b,br,bp,tb,to,tor,top'), `/^
              (
                index1      \\s+
                \\d          \\s+                                 # shard
                (?:\\d+ms|\\d+(?:\\.\\d+)?s)    \\s+                 # time in ms or seconds
                (empty_store|existing_store|peer|snapshot|local_shards) \\s+ # source type
                (init|index|verify_index|translog|finalize|done) \\s+ # stage
                [-\\w./]+    \\s+                                 # source_host
                [-\\w./]+    \\s+                                 # target_host
                [-\\w./]+    \\s+                                 # repository
                [-\\w./]+    \\s+                                 # snapshot
                \\d+         \\s+                                 # files
                \\d+         \\s+                                 # files_recovered
                \\d+\\.\\d+%   \\s+                                 # files_percent
                \\d+         \\s+                                 # files_total
                \\d+(b|kb|mb|gb|tb|pb) \\s+                       # bytes
                \\d+(b|kb|mb|gb|tb|pb) \\s+                       # bytes_recovered
                \\d+\\.\\d+%   \\s+                                 # bytes_percent
                \\d+(b|kb|mb|gb|tb|pb) \\s+                       # bytes_total
                -?\\d+       \\s+                                 # translog_ops
                \\d+         \\s+                                 # translog_ops_recovered
                -?\\d+\\.\\d+%                                     # translog_ops_percent
                \\n
              )+
              $/`);
    expectMatch(await text('/_cat/recovery?h=shard,target_node,bytes'), '/^( \\d \\s+ ((\\S+\\s?){1,10})\\s+ \\d+(b|kb|mb|gb|tb|pb) \\n )+ $/');
    expect(await json('/_cat/recovery?format=json&h=index,type,stage')).to.deep.equal([{ index: 'index1', type: 'empty_store', stage: 'done' }]);
    expect(await text('/_cat/recovery?active_only=true')).to.equal('');
  });

  it('_cat/recovery: a closed index\'s shards, recovered from their existing store, as _recovery lists them', async () => {
    await es.call('PUT', '/index2', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
    await es.call('POST', '/index2/_close');
    expect(await json('/_cat/recovery/index2?format=json&h=index,shard,type,stage,translog_ops_percent')).to.deep.equal([
      { index: 'index2', shard: '0', type: 'existing_store', stage: 'done', translog_ops_percent: '100.0%' },
      { index: 'index2', shard: '1', type: 'existing_store', stage: 'done', translog_ops_percent: '100.0%' },
    ]);
    const recovery = (await es.call('GET', '/index2/_recovery')).json;
    expect(recovery.index2.shards.map((s: { type: string }) => s.type)).to.deep.equal(['EXISTING_STORE', 'EXISTING_STORE']);
    // listed with the open indices when no index is named
    expect(await text('/_cat/recovery?h=i&s=i')).to.match(/(^|\n)index2\n/);
  });

  it('_cat/allocation: shards and the data directory\'s disk, unassigned replicas last; bytes and node filters', async () => {
    expectMatch(await text('/_cat/allocation?help'), `/^  shards .+ \\n disk.indices .+ \\n disk.used .+ \\n disk.avail .+ \\n disk.total .+ \\n disk.percent .+ \\n host .+ \\n ip .+ \\n node .+ \\n node.role .+ \\n $/`);
    const nodeRow = `\\s* \\d+ \\s+ \\d+(\\.\\d+)?[kmgt]?b \\s+ \\d+(\\.\\d+)?[kmgt]?b \\s+ (\\d+(\\.\\d+)?[kmgt]b \\s+) (\\d+(\\.\\d+)?[kmgt]b \\s+) (\\d+ \\s+) [-\\w.]+ \\s+ \\d+(\\.\\d+){3} \\s+ [-\\w.]+ \\n`;
    expectMatch(await text('/_cat/allocation?v'), `/^ shards \\s+ disk.indices \\s+ disk.used \\s+ disk.avail \\s+ disk.total \\s+ disk.percent \\s+ host \\s+ ip \\s+ node \\n ( ${nodeRow} )+ $/`);
    await es.call('PUT', '/test');
    expectMatch(await text('/_cat/allocation'), `/^ ( ${nodeRow} )+ ( \\s* \\d+ \\s+ UNASSIGNED \\n )? $/`);
    expect(await json('/_cat/allocation?format=json&h=shards,node&s=node')).to.deep.equal([
      { shards: '1', node: (await json('/_cat/nodes?format=json&h=name'))[0].name },
      { shards: '1', node: 'UNASSIGNED' },
    ].sort((a, b) => (a.node < b.node ? -1 : 1)));
    expectMatch(await text('/_cat/allocation/_master?bytes=gb'), '/^ \\d+ \\s+ 0 \\s+ \\d+ \\s+ \\d+ \\s+ \\d+ \\s+ \\d+ \\s+ [-\\w.]+ \\s+ \\d+(\\.\\d+){3} \\s+ [-\\w.]+ \\n/');
    expect(await text('/_cat/allocation/non_existent?h=node')).to.equal('UNASSIGNED\n');
    expectMatch(await text('/_cat/allocation?h=disk.percent,node&v'), '/^ disk.percent \\s+ node \\n ( \\s*\\d* \\s+ [-\\w.]+ \\n )+ $/');
  });

  it('_cat/thread_pool: the standard pools by name, idle; patterns and columns', async () => {
    const lines = (await text('/_cat/thread_pool?v')).trimEnd().split('\n');
    expect(lines[0].split(/\s+/)).to.deep.equal(['node_name', 'name', 'active', 'queue', 'rejected']);
    const names = lines.slice(1).map((l) => l.split(/\s+/)[1]);
    expect(names).to.deep.equal([...names].sort());
    expect(names).to.include.members(['search', 'write', 'get', 'generic', 'management', 'flush', 'force_merge', 'refresh', 'snapshot', 'warmer']);
    expectMatch(await text('/_cat/thread_pool?h=pid,id,h,i,po'), '/(\\d+ \\s+ \\S+ \\s+ \\S+ \\s+ (\\d{1,3}\\.){3}\\d{1,3} \\s+ (\\d+|-) \\n)+ $/');
    expectMatch(await text('/_cat/thread_pool/write,management,flush,generic,force_merge?h=id,name,active&v'), `/^  id \\s+ name        \\s+ active \\n
                  (\\S+\\s+ flush       \\s+ \\d+    \\n
                   \\S+\\s+ force_merge \\s+ \\d+    \\n
                   \\S+\\s+ generic     \\s+ \\d+    \\n
                   \\S+\\s+ management  \\s+ \\d+    \\n
                   \\S+\\s+ write       \\s+ \\d+    \\n)+  $/`);
    expectMatch(await text('/_cat/thread_pool/write?h=id,name,type,active,size,queue,queue_size,rejected,largest,completed,min,max,keep_alive&v'), `/^  id  \\s+ name  \\s+ type  \\s+ active \\s+ size \\s+ queue \\s+ queue_size \\s+ rejected \\s+ largest \\s+ completed \\s+ max \\s+ keep_alive \\n
                  (\\S+ \\s+ write \\s+ fixed \\s+ \\d+    \\s+ \\d+  \\s+ \\d+   \\s+ (-1|\\d+)   \\s+ \\d+      \\s+ \\d+     \\s+ \\d+       \\s+ \\d* \\s+ \\S*        \\n)+  $/`);
    expectMatch(await text('/_cat/thread_pool/fetch*?h=id,name,type,active,pool_size,queue,queue_size,rejected,largest,completed,core,max,size,keep_alive&v'), `/^  id  \\s+ name                \\s+ type    \\s+ active \\s+ pool_size \\s+ queue \\s+ queue_size \\s+ rejected \\s+ largest \\s+ completed \\s+ core \\s+ max \\s+ size \\s+ keep_alive \\n
                  (\\S+ \\s+ fetch_shard_started \\s+ scaling \\s+ \\d+    \\s+ \\d+       \\s+ \\d+   \\s+ (-1|\\d+)   \\s+ \\d+      \\s+ \\d+     \\s+ \\d+       \\s+ \\d*  \\s+ \\d* \\s+ \\d*  \\s+ \\S*        \\n
                   \\S+ \\s+ fetch_shard_store   \\s+ scaling \\s+ \\d+    \\s+ \\d+       \\s+ \\d+   \\s+ (-1|\\d+)   \\s+ \\d+      \\s+ \\d+     \\s+ \\d+       \\s+ \\d*  \\s+ \\d* \\s+ \\d*  \\s+ \\S*        \\n)+  $/`);
    expectMatch(await text('/_cat/thread_pool/write,search'), '/^ (\\S+ \\s+ search \\s+ \\d+ \\s+ \\d+ \\s+ \\d+ \\n \\S+ \\s+ write \\s+ \\d+ \\s+ \\d+ \\s+ \\d+ \\n)+ $/');
  });

  it('_cat/templates: legacy and composable templates, filtered, sorted, with help', async () => {
    expectMatch(await text('/_cat/templates?help'), '/^  name .+ \\n index_patterns .+ \\n order .+ \\n version .+ \\n composed_of .+ \\n $/');
    expect(await text('/_cat/templates')).to.equal('');
    await es.call('PUT', '/_template/test', { order: 0, version: 1, index_patterns: 'test-*', settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await es.call('PUT', '/_template/test_2', { order: 1, version: 2, index_patterns: 'test-2*', settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await es.call('PUT', '/_template/nomatch', { order: 2, index_patterns: 'nomatch*' });
    await es.call('PUT', '/_component_template/foo', { template: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
    await es.call('PUT', '/_index_template/testv2', { index_patterns: ['v2-test'], priority: 4, version: 3, composed_of: ['foo'] });
    const all = await text('/_cat/templates');
    expectMatch(all, '/ (^|\\n)test \\s+ \\[test-\\*\\] \\s+ 0 \\s+ 1 \\s+ (\\n|$) /');
    expectMatch(all, '/ (^|\\n)test_2 \\s+ \\[test-2\\*\\] \\s+ 1 \\s+ 2 \\s+ (\\n|$) /');
    expectMatch(all, '/ (^|\\n)testv2 \\s+ \\[v2-test\\] \\s+ 4 \\s+ 3 \\s+ \\[foo\\] /');
    expectMatch(await text('/_cat/templates/test*?h=name,index_patterns&v'), '/^ name \\s+ index_patterns \\n test \\s+ \\[test-\\*\\] \\n test_2 \\s+ \\[test-2\\*\\] \\n testv2 \\s+ \\[v2-test\\] \\n $/');
    expectMatch(await text('/_cat/templates/test?v'), '/^ name \\s+ index_patterns \\s+ order \\s+ version \\s+ composed_of \\n test \\s+ \\[test-\\*\\] \\s+ 0 \\s+ 1 \\s* \\n $/');
    expect(await json('/_cat/templates?format=json&h=n,v&s=v:desc')).to.deep.equal([
      { n: 'testv2', v: '3' }, { n: 'test_2', v: '2' }, { n: 'test', v: '1' }, { n: 'nomatch', v: null },
    ]);
  });

  it('_cat/fielddata, pending_tasks, plugins, repositories and tasks', async () => {
    expectMatch(await text('/_cat/fielddata?help'), '/^ id .+ \\n host .+ \\n ip .+ \\n node .+ \\n field .+ \\n size .+ \\n $/');
    await es.call('PUT', '/index', { settings: { number_of_shards: 1 }, mappings: { properties: { foo: { type: 'text', fielddata: true }, bar: { type: 'text' } } } });
    await es.call('POST', '/index/_doc?refresh=true', { foo: 'bar' });
    // no row until a sort (or an aggregation) loads the field's field data
    expect(await text('/_cat/fielddata?h=field,size&v')).to.equal('field size\n');
    await es.call('POST', '/index/_search', { query: { match_all: {} }, sort: 'foo' });
    expectMatch(await text('/_cat/fielddata?h=field,size&v'), '/^ field \\s+ size \\n foo \\s+ (\\d+(\\.\\d+)?[gmk]?b \\n)+ $/');
    expect(await text('/_cat/fielddata?h=field,size')).to.not.match(/^foo\s+0b/);
    expectMatch(await text('/_cat/fielddata?h=field,size&fields=notfoo,foo&v'), '/^ field \\s+ size \\n foo \\s+ (\\d+(\\.\\d+)?[gmk]?b \\n)+ $/');
    expectMatch(await text('/_cat/fielddata/notfoo?h=field,size&v'), '/^ field \\s+ size \\n $/');

    expect(await text('/_cat/pending_tasks?v')).to.equal('insertOrder timeInQueue priority source\n');
    expect(await json('/_cat/pending_tasks?format=json')).to.deep.equal([]);
    expect(await text('/_cat/plugins?v')).to.equal('name component version\n');
    expect(await text('/_cat/repositories?v')).to.equal('id type\n');
    expectMatch(await text('/_cat/plugins?help'), '/^ id .+ \\n name .+ \\n component .+ \\n version .+ \\n description .+ \\n $/');

    // the listing is the only task running while it answers, with its per-node child
    const tasks = await json('/_cat/tasks?format=json&detailed');
    expect(tasks.map((t: Record<string, string>) => t.action)).to.deep.equal(['cluster:monitor/tasks/lists', 'cluster:monitor/tasks/lists[n]']);
    expect(tasks[1].parent_task_id).to.equal(tasks[0].task_id);
    expect(tasks[0].task_id).to.match(/^\S+:\d+$/);
    expectMatch(await text('/_cat/tasks'), '/^(\\S+ \\s+ \\S+:\\d+ \\s+ (-|\\S+:\\d+) \\s+ transport \\s+ \\d+ \\s+ \\d\\d:\\d\\d:\\d\\d \\s+ \\d+(\\.\\d+)?\\w+ \\s+ \\S+ \\s+ \\S+ \\n)+$/');
    expect(await json('/_cat/tasks?format=json&actions=indices:*')).to.deep.equal([]);
  });

  it('the shared table: help padding, h that names no column, bytes units, yaml, and the existing _cat/indices', async () => {
    const help = (await text('/_cat/master?help')).split('\n');
    // name | aliases | description, each padded to the widest (ES pads the description too)
    expect(help[0]).to.equal('id   |   | node id    ');
    expect(help[2]).to.equal('ip   |   | ip address ');
    expect(help[3]).to.equal('node | n | node name  ');
    expect(await text('/_cat/master?h=nope,node&format=txt')).to.match(/^\S+\n$/);
    await es.call('PUT', '/sized', { settings: { number_of_replicas: 0 } });
    await es.call('PUT', '/sized/_doc/1?refresh=true', { text: 'x'.repeat(3000) });
    const [kb] = await json('/_cat/indices/sized?format=json&h=ss&bytes=kb');
    expect(kb.ss).to.equal('3');
    const [human] = await json('/_cat/indices/sized?format=json&h=store.size');
    const [bytes] = await json('/_cat/indices/sized?format=json&h=store.size&bytes=b');
    // one decimal, truncated (not rounded) as ES's ByteSizeValue prints it
    const tenths = Math.floor((Number(bytes['store.size']) * 10) / 1024);
    expect(human['store.size']).to.equal(tenths % 10 === 0 ? `${tenths / 10}kb` : `${Math.floor(tenths / 10)}.${tenths % 10}kb`);
    const yaml = await es.call('GET', '/_cat/indices/sized?format=yaml&h=index,health');
    expect(yaml.headers['content-type']).to.match(/^application\/yaml/);
    expect(yaml.text).to.equal('---\n- index: sized\n  health: green\n');
    // numeric columns are right-aligned, their headers too
    expect(await text('/_cat/indices/sized?h=index,docs.count&v')).to.equal('index docs.count\nsized          1\n');
  });

  it('_cat/indices?health= filters by a status in any case and refuses another word (ClusterHealthStatus.fromString)', async () => {
    await es.call('PUT', '/green_one', { settings: { number_of_replicas: 0 } });
    await es.call('PUT', '/yellow_one', { settings: { number_of_replicas: 1 } });
    expect(await text('/_cat/indices?health=green&h=index')).to.equal('green_one\n');
    expect(await text('/_cat/indices?health=YELLOW&h=index')).to.equal('yellow_one\n');
    const bad = await es.call('GET', '/_cat/indices?health=invalid-health-value');
    expect(bad.status, bad.text).to.equal(400);
    expect(bad.json.error).to.include({ type: 'illegal_argument_exception', reason: 'unknown cluster health status [invalid-health-value]' });
  });
});
