import { expect } from 'chai';
import { backingIndexName, dataStreamOfBackingName } from '../../lib/engine/index.js';

describe('data stream backing index names', () => {
  it('names a backing index .ds-<stream>-<yyyy.MM.dd>-<generation> and reads the stream back from it', () => {
    const name = backingIndexName('logs-app', 2, Date.UTC(2099, 2, 7, 23, 59));
    expect(name).to.equal('.ds-logs-app-2099.03.07-000002');
    expect(dataStreamOfBackingName(name)).to.equal('logs-app');
  });

  it('reads streams whose names look like dates or generations, and 7.x names without a date', () => {
    expect(dataStreamOfBackingName('.ds-logs-000001-2099.03.07-000001')).to.equal('logs-000001');
    expect(dataStreamOfBackingName('.ds-metrics-2099.01.01-2099.03.07-000010')).to.equal('metrics-2099.01.01');
    expect(dataStreamOfBackingName('.ds-logs-foobar-000001')).to.equal('logs-foobar');
  });

  it('does not take other names for backing indices', () => {
    for (const name of ['logs-app', '.ds-logs', 'ds-logs-2099.03.07-000001', '.ds-logs-2099.03.07']) expect(dataStreamOfBackingName(name)).to.equal(undefined);
  });
});
