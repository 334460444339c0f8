import { listQuery } from './list-query';

const ACCOUNT = '7F0C1A52-8A43-4F55-9D2B-0B1F4B9C7A12';

describe('listQuery', () => {
  it('defaults the limit to 50 and takes a status', () => {
    expect(listQuery({})).toEqual({ limit: 50 });
    expect(listQuery({ status: 'dead_lettered', limit: '200' })).toEqual({ status: 'dead_lettered', limit: 200 });
  });

  it('reads the uuids asked for, lowercased', () => {
    expect(listQuery({ accountId: ACCOUNT }, { required: ['accountId'], optional: ['providerDeliveryId'] })).toEqual({
      limit: 50,
      accountId: ACCOUNT.toLowerCase(),
    });
  });

  it('names every invalid parameter at once, a missing required id included', () => {
    let thrown: any;
    try {
      listQuery(
        { status: 'lost', limit: '0', providerDeliveryId: 'x' },
        { required: ['accountId'], optional: ['providerDeliveryId'] },
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ kind: 'validation', code: 'request.invalid' });
    expect(Object.keys(thrown.fieldErrors).sort()).toEqual(['accountId', 'limit', 'providerDeliveryId', 'status']);
  });

  it('refuses a parameter given twice (an array) rather than widening the list', () => {
    expect(() => listQuery({ accountId: [ACCOUNT, ACCOUNT] }, { required: ['accountId'] })).toThrow(
      'The query is invalid',
    );
    expect(() => listQuery({ status: ['pending', 'failed'] })).toThrow('The query is invalid');
  });
});
