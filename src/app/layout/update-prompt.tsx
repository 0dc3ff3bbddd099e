import { useRegisterSW } from 'virtual:pwa-register/react';
import { css } from 'styled-system/css';
import { useUpdateHolds } from '@/lib/update-guard.ts';
import { Button } from '@/ui/button.tsx';

/** Looks for a new deployment every hour while the app stays open. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Non-blocking banner offering a new version. It stays hidden while a booking is in flight
 * (`useHoldUpdates`), because reloading then would lose the person's place in the flow.
 */
export function UpdatePrompt() {
  const holds = useUpdateHolds();
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      setInterval(() => void registration.update(), UPDATE_CHECK_INTERVAL_MS);
    },
  });
  if (!needRefresh || holds > 0) return null;
  return (
    <div
      role="status"
      className={css({
        position: 'fixed',
        bottom: '4',
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: 'toast',
        w: 'calc(100% - 2rem)',
        maxW: 'md',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: '3',
        p: '3',
        pl: '4',
        bg: 'bg.inverted',
        color: 'fg.inverted',
        borderRadius: 'xl',
        boxShadow: 'overlay',
      })}
    >
      <span className={css({ fontWeight: 'medium' })}>Nova versão disponível</span>
      <div className={css({ display: 'flex', gap: '2' })}>
        <Button
          size="sm"
          variant="ghost"
          className={css({ color: 'white', _hover: { bg: 'slate.700!' } })}
          onClick={() => setNeedRefresh(false)}
        >
          Depois
        </Button>
        <Button size="sm" onClick={() => void updateServiceWorker(true)}>
          Atualizar
        </Button>
      </div>
    </div>
  );
}
