// The API's query parser: a key repeated with the same value is taken once (a client that appends
// its token and mode to next_page_url, which carries them); different values stay a list, which the
// API refuses naming the key (test/integration/listing.test.ts runs it against the service).
import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../src/http/queryString.js';

describe('parseQueryString', () => {
  it('takes a key repeated with the same value once', () => {
    expect(parseQueryString('api_token=t&mode=live&cursor=abc&api_token=t&mode=live')).toEqual({ api_token: 't', mode: 'live', cursor: 'abc' });
  });

  it('keeps different values of one key as a list', () => {
    expect(parseQueryString('mode=live&mode=test&per_page=5')).toEqual({ mode: ['live', 'test'], per_page: '5' });
  });

  it('reads what node reads: encoded values, empty values, keys without values', () => {
    expect(parseQueryString('a=%20x&b=&c')).toEqual({ a: ' x', b: '', c: '' });
  });
});
