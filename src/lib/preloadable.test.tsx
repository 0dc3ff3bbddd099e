// @vitest-environment jsdom
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { preloadable } from './preloadable.tsx';

afterEach(cleanup);

const Greeting = ({ name }: { name: string }) => <p>Olá, {name}</p>;

describe('preloadable', () => {
  it('renders a preloaded component at once, without the fallback', async () => {
    const { Component, preload } = preloadable(() => Promise.resolve(Greeting));
    await preload();
    render(
      <Suspense fallback={<p>Carregando</p>}>
        <Component name="Ana" />
      </Suspense>,
    );
    expect(screen.getByText('Olá, Ana')).toBeTruthy();
    expect(screen.queryByText('Carregando')).toBeNull();
  });

  it('suspends like React.lazy when rendered before its code is in, and loads it once', async () => {
    let loads = 0;
    const { Component, preload } = preloadable(() => {
      loads += 1;
      return Promise.resolve(Greeting);
    });
    render(
      <Suspense fallback={<p>Carregando</p>}>
        <Component name="Ana" />
      </Suspense>,
    );
    expect(screen.getByText('Carregando')).toBeTruthy();
    expect(await screen.findByText('Olá, Ana')).toBeTruthy();
    await preload();
    expect(loads).toBe(1);
  });
});
