import type { ReactNode } from 'react';
import { Toaster } from 'react-hot-toast';
import { AuthProvider } from '@/session/auth-provider.tsx';
import { TOAST_DURATION_MS } from '@/lib/toast.ts';
import { SignOutConfirmationProvider } from '@/session/sign-out-confirmation.tsx';
import { SyncProvider } from '@/session/sync-provider.tsx';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <AuthProvider>
      <SyncProvider>
        <SignOutConfirmationProvider>{children}</SignOutConfirmationProvider>
      </SyncProvider>
      <Toaster
        position="top-center"
        containerStyle={{ top: 72 }}
        toastOptions={{
          duration: TOAST_DURATION_MS,
          style: {
            maxWidth: '28rem',
            padding: '12px 14px',
            color: '#0f172a',
            borderRadius: '12px',
            boxShadow: '0 10px 30px rgba(15,23,42,0.18)',
          },
          success: { iconTheme: { primary: '#15803d', secondary: '#ffffff' } },
          error: { iconTheme: { primary: '#b91c1c', secondary: '#ffffff' } },
        }}
      />
    </AuthProvider>
  );
}
