import { useCallback, useEffect, useRef, useState } from 'react';
import { useSupabase } from '@/session/supabase-context.ts';
import { invokeFunction, rememberedSetupToken, rememberSetupToken } from './invoke-function.ts';
import { readSetupAnswer, SETUP_TEXTS, type SetupOutcome } from './setup-answer.ts';
import { SetupFrame, SetupResult, SetupTokenForm, SetupWorking } from './setup-frame.tsx';

const FUNCTION = 'cleanup-and-unify-doctors';

type PageState = { state: 'loading' } | (SetupOutcome & { refused?: boolean });

/**
 * /admin/cleanup-doctors: retires duplicate doctor profiles. It is destructive, so it never runs
 * without the setup token: the page asks for it first (unless this tab already has it).
 */
export function CleanupPage() {
  const client = useSupabase();
  const [page, setPage] = useState<PageState>(() =>
    rememberedSetupToken() ? { state: 'loading' } : { state: 'needs-token' },
  );
  const started = useRef(false);

  const run = useCallback(
    async (token: string) => {
      setPage({ state: 'loading' });
      const answer = await invokeFunction(client, FUNCTION, { setupToken: token });
      const outcome = readSetupAnswer(answer, 'cleanup');
      rememberSetupToken(outcome.state === 'needs-token' ? null : token);
      setPage({ ...outcome, refused: outcome.state === 'needs-token' });
    },
    [client],
  );

  useEffect(() => {
    const token = rememberedSetupToken();
    if (!token || started.current) return;
    started.current = true;
    void run(token);
  }, [run]);

  return (
    <SetupFrame title={SETUP_TEXTS.cleanupTitle}>
      {page.state === 'loading' && <SetupWorking label={SETUP_TEXTS.cleaning} />}
      {page.state === 'needs-token' && (
        <SetupTokenForm refused={page.refused === true} onSubmit={(token) => void run(token)} />
      )}
      {(page.state === 'success' || page.state === 'exists') && (
        <SetupResult
          tone={page.state === 'success' ? 'success' : 'info'}
          message={page.message}
          details={page.state === 'success' ? page.details : []}
          link={{ to: '/agendamentos', label: SETUP_TEXTS.toBooking }}
        />
      )}
      {page.state === 'error' && (
        <SetupResult
          tone="destructive"
          message={page.message}
          link={{ to: '/', label: SETUP_TEXTS.home }}
        />
      )}
    </SetupFrame>
  );
}
