import { expect } from 'chai';
import { ndjson, startEngine, type TestEngine } from '../support.js';

/**
 * The geo_shape query on geo_shape fields: a document's whole shape (not only its vertices)
 * relates to the query's shape, as the reference's relations say — intersects, disjoint, within,
 * contains — for points, lines, envelopes, polygons with holes and multipolygons.
 */
describe('embedded engine: geo_shape query on geo_shape fields', () => {
  let es: TestEngine;
  const ids = async (shape: unknown, relation = 'intersects'): Promise<string[]> => {
    const r = await es.call('POST', '/shapes/_search', { size: 100, query: { geo_shape: { area: { shape, relation } } } });
    expect(r.status, r.text).to.equal(200);
    return (r.json.hits.hits as Array<{ _id: string }>).map((h) => h._id).sort();
  };
  const point = (lon: number, lat: number) => ({ type: 'point', coordinates: [lon, lat] });
  const envelope = (left: number, top: number, right: number, bottom: number) => ({ type: 'envelope', coordinates: [[left, top], [right, bottom]] });

  before(async () => {
    es = await startEngine();
    await es.call('PUT', '/shapes', { mappings: { properties: { area: { type: 'geo_shape' } } } });
    const docs: Record<string, unknown> = {
      square: { type: 'Polygon', coordinates: [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[4, 4], [6, 4], [6, 6], [4, 6], [4, 4]]] },
      line: { type: 'linestring', coordinates: [[20, 0], [30, 10]] },
      islands: 'MULTIPOLYGON (((40 0, 42 0, 42 2, 40 2, 40 0)), ((50 0, 52 0, 52 2, 50 2, 50 0)))',
      dot: 'POINT (70 5)',
      box: envelope(80, 10, 90, 0),
    };
    const lines = Object.entries(docs).flatMap(([id, area]) => [{ index: { _index: 'shapes', _id: id } }, { area }]);
    const r = await es.call('POST', '/_bulk?refresh=true', ndjson(lines), { 'content-type': 'application/x-ndjson' });
    expect(r.json.errors, r.text).to.equal(false);
  });
  after(() => es.close());

  it('intersects: a point inside a polygon, in its hole, on its boundaries', async () => {
    expect(await ids(point(2, 2))).to.deep.equal(['square']);
    expect(await ids(point(5, 5))).to.deep.equal([]);
    expect(await ids(point(4, 5))).to.deep.equal(['square']);
    expect(await ids(point(10, 3))).to.deep.equal(['square']);
    expect(await ids('POINT (51 1)')).to.deep.equal(['islands']);
    expect(await ids(point(85, 5))).to.deep.equal(['box']);
  });

  it('intersects: lines and areas crossing without sharing a vertex', async () => {
    expect(await ids(point(25, 5))).to.deep.equal(['line']);
    const triangle = { type: 'polygon', coordinates: [[[22, -5], [28, -5], [25, 20], [22, -5]]] };
    expect(await ids(triangle)).to.deep.equal(['line']);
    expect(await ids({ type: 'linestring', coordinates: [[-5, 5], [15, 5]] })).to.deep.equal(['square']);
    expect(await ids(envelope(41, 1, 51, -1))).to.deep.equal(['islands']);
    expect(await ids(envelope(-100, 50, 100, -50))).to.deep.equal(['box', 'dot', 'islands', 'line', 'square']);
  });

  it('disjoint: what shares no point, a point in a hole included', async () => {
    expect(await ids(point(5, 5), 'disjoint')).to.deep.equal(['box', 'dot', 'islands', 'line', 'square']);
    expect(await ids(point(2, 2), 'disjoint')).to.deep.equal(['box', 'dot', 'islands', 'line']);
  });

  it('within: the whole document shape inside the query shape', async () => {
    expect(await ids(envelope(-1, 11, 11, -1), 'within')).to.deep.equal(['square']);
    expect(await ids(envelope(39, 3, 43, -1), 'within')).to.deep.equal([]);
    expect(await ids(envelope(39, 3, 53, -1), 'within')).to.deep.equal(['islands']);
    const bothIslands = { type: 'multipolygon', coordinates: [[[[39, -1], [43, -1], [43, 3], [39, 3], [39, -1]]], [[[49, -1], [53, -1], [53, 3], [49, 3], [49, -1]]]] };
    expect(await ids(bothIslands, 'within')).to.deep.equal(['islands']);
    // A query polygon whose hole lies inside the document's square does not hold the square.
    const holed = { type: 'polygon', coordinates: [[[-1, -1], [11, -1], [11, 11], [-1, 11], [-1, -1]], [[1, 1], [2, 1], [2, 2], [1, 2], [1, 1]]] };
    expect(await ids(holed, 'within')).to.deep.equal([]);
  });

  it('contains: the query shape inside the document shape, not across its hole', async () => {
    expect(await ids(envelope(1, 9, 3, 1), 'contains')).to.deep.equal(['square']);
    expect(await ids(envelope(3, 7, 7, 3), 'contains')).to.deep.equal([]);
    expect(await ids(envelope(3, 7, 7, 3), 'intersects')).to.deep.equal(['square']);
    expect(await ids(point(70, 5), 'contains')).to.deep.equal(['dot']);
    expect(await ids({ type: 'linestring', coordinates: [[21, 1], [29, 9]] }, 'contains')).to.deep.equal(['line']);
    expect(await ids(envelope(40, 2, 52, 0), 'contains')).to.deep.equal([]);
  });
});
