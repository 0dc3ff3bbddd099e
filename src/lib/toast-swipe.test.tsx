// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import toast, { Toaster, useToasterStore } from 'react-hot-toast';
import { installMatchMedia } from '@/testing/match-media.ts';
import { showToast } from './toast.ts';
import { isSwipeDismiss, SWIPE_DISMISS_PX } from './toast-swipe.tsx';

installMatchMedia();

afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

/** A finger on the toast moved `dx` px sideways, then lifted. */
function swipe(element: Element, dx: number) {
  fireEvent.touchStart(element, { changedTouches: [{ clientX: 100 }] });
  fireEvent.touchMove(element, { changedTouches: [{ clientX: 100 + dx / 2 }] });
  fireEvent.touchMove(element, { changedTouches: [{ clientX: 100 + dx }] });
  fireEvent.touchEnd(element, { changedTouches: [{ clientX: 100 + dx }] });
}

/** How many toasts are shown (not dismissed), as react-hot-toast's store says. */
function VisibleCount() {
  const { toasts } = useToasterStore();
  return <p data-testid="visible">{toasts.filter((t) => t.visible).length}</p>;
}

const visible = () => screen.getByTestId('visible').textContent;

function shownToast(): Element {
  const title = screen.getByText('Agenda atualizada!');
  const body = title.closest('[data-toast]');
  if (!body) throw new Error('no toast body');
  return body;
}

describe('swipe to dismiss a toast (docs/product-rules.md §9 "toasts")', () => {
  it('the threshold is 50 px either way', () => {
    expect(SWIPE_DISMISS_PX).toBe(50);
    expect([49, 50, -50, -49].map(isSwipeDismiss)).toEqual([false, true, true, false]);
  });

  it('a swipe past 50 px dismisses the toast', async () => {
    render(
      <>
        <Toaster />
        <VisibleCount />
      </>,
    );
    act(() => void showToast({ title: 'Agenda atualizada!', description: 'x' }));
    expect(visible()).toBe('1');
    swipe(shownToast(), 60);
    await waitFor(() => expect(visible()).toBe('0'));
  });

  it('a shorter swipe leaves it where it was', () => {
    render(
      <>
        <Toaster />
        <VisibleCount />
      </>,
    );
    act(() => void showToast({ title: 'Agenda atualizada!', description: 'x' }));
    swipe(shownToast(), -30);
    expect(visible()).toBe('1');
  });
});
