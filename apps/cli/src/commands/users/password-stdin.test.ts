import { describe, expect, it } from '../../test-support/fixtures.ts';
import { passwordFromStdin } from './password-stdin.ts';

describe('users create and reset-password', () => {
  it('takes the password from stdin without its final line break', () => {
    expect(passwordFromStdin('secret words\n')).toBe('secret words');
    expect(passwordFromStdin('secret words\r\n')).toBe('secret words');
    expect(passwordFromStdin(' spaces count \n\n')).toBe(' spaces count \n');
  });
});
