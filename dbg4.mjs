import { openEmbeddedEngine } from './dist/lib/engine/embedded/index.js';
import { readJson } from './dist/lib/engine/index.js';
import { loadCorpus } from './dist/bench/support/corpus.js';
import fs from 'node:fs';
fs.rmSync('/tmp/dbg4', {recursive:true, force:true});
const e = await openEmbeddedEngine({ dataDir: '/tmp/dbg4' });
const docs = await loadCorpus();
await readJson(await e.request({method:'PUT', path:'/deb', body: JSON.stringify({mappings:{properties:{name:{type:'text',fields:{raw:{type:'keyword'}}},summary:{type:'text'},section:{type:'keyword'},architecture:{type:'keyword'},installed_size_kb:{type:'long'}}}})}));
for (let i=0;i<docs.length;i+=2000){ const lines=[]; for (const d of docs.slice(i,i+2000)) lines.push('{"index":{"_index":"deb"}}', JSON.stringify(d)); await readJson(await e.request({method:'POST',path:'/_bulk',body:lines.join('\n')+'\n'})); }
const qs = {
 cross: {multi_match:{query:'python library',fields:['name^3','summary'],type:'cross_fields'}},
 phrase: {multi_match:{query:'python library',fields:['name^3','summary'],type:'phrase'}},
 pprefix: {multi_match:{query:'python library',fields:['name^3','summary'],type:'phrase_prefix'}},
 range: {range:{installed_size_kb:{gte:10,lte:5000}}},
 terms: {terms:{section:['python','libs']}},
};
for (const [k,q] of Object.entries(qs)) {
  let t0; for (let i=0;i<5;i++){ t0=performance.now(); await readJson(await e.request({method:'POST',path:'/deb/_search',body:JSON.stringify({query:q,size:10})})); }
  console.log(k, (performance.now()-t0).toFixed(2),'ms');
}
const agg = {size:0, query:{match_all:{}}, aggs:{s:{terms:{field:'section',size:20}}}};
let t0; for (let i=0;i<5;i++){ t0=performance.now(); await readJson(await e.request({method:'POST',path:'/deb/_search',body:JSON.stringify(agg)})); } console.log('agg', (performance.now()-t0).toFixed(2));
await e.close();
