import { describe, expect, it } from 'vitest';
import { authLinkError } from './auth-link.ts';

describe('authLinkError', () => {
  it.each([
    [
      'expired link, error in the fragment (implicit flow)',
      '',
      '#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb=',
      {
        error: 'access_denied',
        code: 'otp_expired',
        description: 'Email link is invalid or has expired',
      },
    ],
    [
      'expired PKCE link, error in the query',
      '?error=access_denied&error_code=otp_expired&error_description=x',
      '',
      { error: 'access_denied', code: 'otp_expired', description: 'x' },
    ],
    ['a working link with tokens', '', '#access_token=a&refresh_token=b&type=recovery', null],
    ['a PKCE code', '?code=abc', '', null],
    ['nothing', '', '', null],
  ])('%s', (_name, search, hash, expected) => {
    expect(authLinkError(search, hash)).toEqual(expected);
  });
});
