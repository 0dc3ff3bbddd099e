import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import './app/styles.css';
import { AppErrorBoundary } from './app/app-error-boundary.tsx';
import { Providers } from './app/providers.tsx';
import { createAppRouter } from './app/router.tsx';
import { nextTask } from './lib/next-task.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

function start(container: HTMLElement) {
  const router = createAppRouter();
  createRoot(container).render(
    <StrictMode>
      <AppErrorBoundary>
        <Providers>
          <RouterProvider router={router} />
        </Providers>
      </AppErrorBoundary>
    </StrictMode>,
  );
}

// The app's modules are evaluated in this task and the router (which asks for the page's
// code, already preloaded by index.html) starts in the next: together they were one of the
// longest tasks of a page's load on a slow phone.
void nextTask().then(() => start(root));
