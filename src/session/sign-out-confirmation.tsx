import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useState,
  type ReactNode,
} from 'react';

/** Asks the person whether to sign out although `pending` changes were not sent yet. */
type ConfirmSignOut = (pending: number) => Promise<boolean>;

const ConfirmSignOutContext = createContext<ConfirmSignOut | null>(null);

export function useConfirmSignOut(): ConfirmSignOut | null {
  return useContext(ConfirmSignOutContext);
}

// The dialog (Ark UI) loads only when a 'Sair' has something to ask: not on the first screen.
const SignOutDialog = lazy(() =>
  import('./sign-out-dialog.tsx').then((m) => ({ default: m.SignOutDialog })),
);

type Asking = { pending: number; answer: (confirmed: boolean) => void };

/**
 * The one confirmation every 'Sair' goes through (`useSignOutToHome`): signing out deletes the
 * person's replica, so unsent changes would be lost with it.
 */
export function SignOutConfirmationProvider({ children }: { children: ReactNode }) {
  const [asking, setAsking] = useState<Asking | null>(null);

  const confirm = useCallback<ConfirmSignOut>(
    (pending) => new Promise<boolean>((resolve) => setAsking({ pending, answer: resolve })),
    [],
  );

  function answer(confirmed: boolean) {
    asking?.answer(confirmed);
    setAsking(null);
  }

  return (
    <ConfirmSignOutContext.Provider value={confirm}>
      {children}
      {asking && (
        <Suspense fallback={null}>
          <SignOutDialog pending={asking.pending} onAnswer={answer} />
        </Suspense>
      )}
    </ConfirmSignOutContext.Provider>
  );
}
