import type { User } from '@supabase/supabase-js';
import { showToast } from '@/lib/toast.ts';

/** docs/product-rules.md §9: a sign-in this soon after confirming the e-mail is the confirmation's own sign-in. */
export const CONFIRMATION_TOAST_WINDOW_S = 60;

const shownKey = (userId: string) => `saude-ja:confirmation-toast:${userId}`;

/**
 * Compares two instants in epoch milliseconds: no calendar or zone is involved, so the
 * Temporal polyfill (kept off the first screen's bundle) is not needed here.
 */
export function confirmedWithinWindow(user: User, nowMs: number): boolean {
  if (!user.email_confirmed_at) return false;
  const confirmedAtMs = Date.parse(user.email_confirmed_at);
  if (Number.isNaN(confirmedAtMs)) return false;
  return Math.abs(nowMs - confirmedAtMs) <= CONFIRMATION_TOAST_WINDOW_S * 1000;
}

function markShown(userId: string): boolean {
  try {
    if (sessionStorage.getItem(shownKey(userId))) return false;
    sessionStorage.setItem(shownKey(userId), '1');
  } catch {
    // Without storage the toast may repeat on reload within the window; harmless.
  }
  return true;
}

/**
 * Greets a person who just signed in. The confirmation link signs the person in on page load
 * (its SIGNED_IN and INITIAL_SESSION events race), so the confirmation greeting is shown once
 * per user per tab; the welcome-back greeting only for a sign-in while the app was signed out.
 */
export function announceSignIn(
  event: string,
  user: User,
  wasSignedOut: boolean,
  nowMs: number = Date.now(),
): void {
  if (event !== 'SIGNED_IN' && event !== 'INITIAL_SESSION') return;
  if (confirmedWithinWindow(user, nowMs)) {
    if (markShown(user.id)) {
      showToast({
        tone: 'success',
        title: 'E-mail confirmado com sucesso! Sua conta foi ativada. Bem-vindo!',
      });
    }
    return;
  }
  if (event === 'SIGNED_IN' && wasSignedOut) {
    showToast({ tone: 'success', title: 'Login realizado com sucesso! Bem-vindo de volta.' });
  }
}
