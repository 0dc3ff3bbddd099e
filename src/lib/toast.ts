import { createElement, Fragment } from 'react';
import toast, { type Toast } from 'react-hot-toast';
import { SwipeToDismiss } from './toast-swipe.tsx';

/** docs/product-rules.md §9: toasts auto-dismiss after 5 s unless they ask to stay. */
export const TOAST_DURATION_MS = 5000;

export type ToastTone = 'success' | 'error' | 'info';

export type ToastInput = {
  title: string;
  description?: string | undefined;
  tone?: ToastTone;
  /** Milliseconds, or `Infinity` for a toast the person must dismiss. */
  duration?: number;
};

/** The toast's content, which a swipe sideways dismisses on a touch screen. */
function body(title: string, description: string | undefined) {
  const content = createElement(
    Fragment,
    null,
    createElement('strong', { style: { display: 'block' } }, title),
    description ? createElement('span', null, description) : null,
  );
  return (t: Toast) => createElement(SwipeToDismiss, { id: t.id, children: content });
}

/**
 * Shows one toast, replacing whatever toast is on screen: the product shows at most one at a
 * time (docs/product-rules.md §4), so a newer message never queues behind a stale one.
 */
export function showToast({ title, description, tone = 'info', duration }: ToastInput): string {
  toast.remove();
  const options = { duration: duration ?? TOAST_DURATION_MS };
  const message = body(title, description);
  if (tone === 'success') return toast.success(message, options);
  if (tone === 'error') {
    return toast.error(message, {
      ...options,
      ariaProps: { role: 'alert', 'aria-live': 'assertive' },
    });
  }
  return toast(message, options);
}

export function dismissToasts(): void {
  toast.dismiss();
}
