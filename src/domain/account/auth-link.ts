/** The error an auth e-mail link came back with (GoTrue's redirect), e.g. `otp_expired`. */
export type AuthLinkError = { error: string; code: string; description: string };

/**
 * Reads `error`, `error_code` and `error_description` from a redirect's query or fragment
 * (GoTrue puts them in the fragment, and in the query too for PKCE links), so a page can say
 * at once that its link is used or expired instead of failing on submit.
 */
export function authLinkError(search: string, hash: string): AuthLinkError | null {
  for (const part of [hash.replace(/^#/, ''), search.replace(/^\?/, '')]) {
    const params = new URLSearchParams(part);
    const error = params.get('error');
    const code = params.get('error_code');
    if (error || code) {
      return {
        error: error ?? '',
        code: code ?? '',
        description: params.get('error_description') ?? '',
      };
    }
  }
  return null;
}
