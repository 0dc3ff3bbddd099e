/** Set before 'Sair' signs out, so every tab tells 'Sair' apart from a refused session. */
const SIGN_OUT_MARK = 'saude-ja:signed-out-by-user';

/** Marks that this person pressed 'Sair'; null clears the mark (someone signed in). */
export function markSignOut(userId: string | null): void {
  try {
    if (userId) localStorage.setItem(SIGN_OUT_MARK, userId);
    else localStorage.removeItem(SIGN_OUT_MARK);
  } catch {
    // Without storage only this tab knows; another tab then says the session expired.
  }
}

export function signedOutByThisPerson(userId: string): boolean {
  try {
    return localStorage.getItem(SIGN_OUT_MARK) === userId;
  } catch {
    return false;
  }
}
