import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useSupabase } from '@/session/supabase-context.ts';
import { invokeFunction, rememberedSetupToken, rememberSetupToken } from './invoke-function.ts';
import { readSetupAnswer, SETUP_TEXTS, type SetupOutcome } from './setup-answer.ts';
import { SetupFrame, SetupResult, SetupTokenForm, SetupWorking } from './setup-frame.tsx';
import { setupCallFor } from './setup-paths.ts';

type PageState = { state: 'loading' } | (SetupOutcome & { refused?: boolean });

/**
 * The fixed-doctor setup pages (/setup-admin-{name}, /admin/setup-{name}, /admin/link-{name},
 * …): each runs its one function on load. First setup needs nothing; a change to existing state
 * needs the setup token, which the page then asks for once and keeps for the tab.
 */
export function DoctorSetupPage() {
  const client = useSupabase();
  const call = setupCallFor(useLocation().pathname);
  const functionName = call?.functionName ?? '';
  const kind = call?.kind ?? 'setup';
  const [page, setPage] = useState<PageState>(
    functionName ? { state: 'loading' } : { state: 'error', message: SETUP_TEXTS.missingName },
  );
  const started = useRef(false);

  const run = useCallback(
    async (token: string | null) => {
      setPage({ state: 'loading' });
      const answer = await invokeFunction(client, functionName, { setupToken: token });
      const outcome = readSetupAnswer(answer, kind);
      if (outcome.state === 'needs-token') rememberSetupToken(null);
      else if (token) rememberSetupToken(token);
      setPage({ ...outcome, refused: outcome.state === 'needs-token' && token !== null });
    },
    [client, functionName, kind],
  );

  useEffect(() => {
    // Once per page load, also under StrictMode's double effects: a function call is not free.
    if (!functionName || started.current) return;
    started.current = true;
    void run(rememberedSetupToken());
  }, [functionName, run]);

  return (
    <SetupFrame title={SETUP_TEXTS.title}>
      <SetupBody page={page} onToken={(token) => void run(token)} />
    </SetupFrame>
  );
}

function SetupBody({ page, onToken }: { page: PageState; onToken: (token: string) => void }) {
  switch (page.state) {
    case 'loading':
      return <SetupWorking label={SETUP_TEXTS.loading} />;
    case 'needs-token':
      return <SetupTokenForm refused={page.refused === true} onSubmit={onToken} />;
    case 'success':
      return (
        <SetupResult
          tone="success"
          message={page.message}
          details={page.details}
          link={{ to: '/acesso-medico', label: SETUP_TEXTS.toLogin }}
        />
      );
    case 'exists':
      return (
        <SetupResult
          tone="info"
          title={SETUP_TEXTS.exists}
          message={page.message}
          link={{ to: '/acesso-medico', label: SETUP_TEXTS.toLogin }}
        />
      );
    case 'error':
      return (
        <SetupResult
          tone="destructive"
          message={page.message}
          link={{ to: '/', label: SETUP_TEXTS.home }}
        />
      );
  }
}
