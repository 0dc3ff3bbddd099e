import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from './auth-context.ts';

/**
 * 'Sair': home first, then sign out. The other order lets a guarded page see the session end
 * and redirect to its login screen before the navigation home happens.
 */
export function useSignOutToHome(): () => Promise<void> {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  return useCallback(async () => {
    await navigate('/');
    await signOut();
  }, [navigate, signOut]);
}
