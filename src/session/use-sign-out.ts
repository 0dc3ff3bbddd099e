import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from './auth-context.ts';
import { useConfirmSignOut } from './sign-out-confirmation.tsx';
import { pendingChanges } from './sync-provider.tsx';

/**
 * 'Sair': asks first when changes are still waiting to be sent (signing out deletes them with
 * the replica), then goes home and signs out. Home first: the other order lets a guarded page
 * see the session end and redirect to its login screen before the navigation home happens.
 * Without a confirmation dialog mounted, unsent changes are never thrown away silently.
 */
export function useSignOutToHome(): () => Promise<void> {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const confirm = useConfirmSignOut();
  return useCallback(async () => {
    const pending = await pendingChanges();
    if (pending > 0 && !(await (confirm?.(pending) ?? Promise.resolve(false)))) return;
    await navigate('/');
    await signOut();
  }, [navigate, signOut, confirm]);
}
