// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { AppErrorBoundary } from './app-error-boundary.tsx';

afterEach(cleanup);

function Broken(): never {
  throw new Error('VITE_SUPABASE_URL is missing');
}

describe('AppErrorBoundary', () => {
  it('replaces a crashed app with a Portuguese message and a way out', () => {
    // React reports the caught error on the console; keep the test output readable.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <AppErrorBoundary>
        <Broken />
      </AppErrorBoundary>,
    );
    quiet.mockRestore();
    expect(screen.getByRole('heading', { name: 'Algo deu errado' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Recarregar página' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Voltar ao início' }).getAttribute('href')).toBe('/');
  });

  it('renders its children when nothing fails', () => {
    render(
      <AppErrorBoundary>
        <p>tudo certo</p>
      </AppErrorBoundary>,
    );
    expect(screen.getByText('tudo certo')).toBeTruthy();
  });
});
