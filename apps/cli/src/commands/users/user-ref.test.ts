import { describe, expect, it } from '../../test-support/fixtures.ts';
import { parseUserRef } from './user-ref.ts';

describe('parseUserRef', () => {
  it('reads an id or an email address and refuses anything else', () => {
    expect(parseUserRef('42')).toEqual({ id: 42 });
    expect(parseUserRef(' Ada@Example.org ')).toEqual({ email: 'Ada@Example.org' });
    expect(() => parseUserRef('ada')).toThrow(/user id or an email address/);
    expect(() => parseUserRef('0')).toThrow(/positive integer/);
  });
});
