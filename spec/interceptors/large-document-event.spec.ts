/**
 * A written document's change event carries its source, parsed from the request's body after the
 * engine has answered. A large source (a document of 10,000 fields) is parsed in an event-loop
 * turn of its own: in the engine's answering turn it added its parse to the commit's work, one
 * block for everyone else.
 */
import { expect } from 'chai';
import type { ChangePublisher, NewChange } from '../../lib/changes/index.js';
import type { EngineResponse } from '../../lib/engine/index.js';
import { changePublishing } from '../../lib/interceptors/index.js';

describe('change publishing: a large document source', () => {
  it('is parsed for its event in a turn of the event loop apart from the engine answer, and is the document', async () => {
    const source = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`field_${i}`, i]));
    let answeredTurnOver = false;
    let turnOverWhenPublished: boolean | undefined;
    const published: Array<NewChange | undefined> = [];
    const publisher = {
      inFlight: <T>(_index: string, write: () => Promise<T>) => write(),
      publish: async (changes: Iterable<NewChange | undefined>) => {
        turnOverWhenPublished = answeredTurnOver;
        published.push(...changes);
      },
    } as unknown as ChangePublisher;
    const ack = { _index: 'wide', _id: '1', _version: 1, result: 'created', _seq_no: 0, _primary_term: 1 };
    const engine = async (): Promise<EngineResponse> => {
      // whatever else the loop has to do once the engine has answered
      setImmediate(() => (answeredTurnOver = true));
      return { status: 201, headers: {}, body: Buffer.from(JSON.stringify(ack)), value: ack };
    };
    const res = await changePublishing(publisher)(engine)({ method: 'PUT', path: '/wide/_doc/1', querystring: '', headers: {}, body: JSON.stringify(source) });
    expect(res.status).to.equal(201);
    expect(turnOverWhenPublished, 'the loop had its turn before the source was parsed').to.equal(true);
    expect(published).to.have.length(1);
    expect(published[0]).to.deep.include({ index: 'wide', id: '1', op: 'create', source });
  });
});
