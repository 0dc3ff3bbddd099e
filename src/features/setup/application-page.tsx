import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSupabase } from '@/session/supabase-context.ts';
import { invokeFunction } from './invoke-function.ts';
import { readApplicationAnswer, SETUP_TEXTS, type ApplicationOutcome } from './setup-answer.ts';
import { SetupFrame, SetupResult, SetupWorking } from './setup-frame.tsx';

/** /admin/handle-application?action=approve|reject&token=…: a doctor-application decision. */
export function ApplicationPage() {
  const client = useSupabase();
  const [params] = useSearchParams();
  const action = params.get('action');
  const token = params.get('token');
  const [outcome, setOutcome] = useState<ApplicationOutcome | null>(() =>
    action && token ? null : { state: 'error', message: SETUP_TEXTS.invalidParams },
  );
  const started = useRef(false);

  useEffect(() => {
    if (!action || !token || started.current) return;
    started.current = true;
    void invokeFunction(client, 'process-doctor-application', { body: { action, token } }).then(
      (answer) => setOutcome(readApplicationAnswer(answer)),
    );
  }, [client, action, token]);

  return (
    <SetupFrame title={SETUP_TEXTS.applicationTitle}>
      {outcome === null ? (
        <SetupWorking label={SETUP_TEXTS.processing} />
      ) : (
        <SetupResult
          tone={outcome.state === 'success' ? 'success' : 'destructive'}
          message={outcome.message}
          link={{ to: '/', label: SETUP_TEXTS.home }}
        />
      )}
    </SetupFrame>
  );
}
