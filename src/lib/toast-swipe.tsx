import { useRef, useState, type ReactNode, type TouchEvent } from 'react';
import toast from 'react-hot-toast';

/** docs/product-rules.md §9 "toasts": a sideways swipe this long dismisses a toast. */
export const SWIPE_DISMISS_PX = 50;

/** Whether a finger that moved `dx` px sideways dismisses the toast. */
export function isSwipeDismiss(dx: number): boolean {
  return Math.abs(dx) >= SWIPE_DISMISS_PX;
}

/**
 * A toast's content that follows a finger sideways and dismisses the toast once released past
 * SWIPE_DISMISS_PX; a shorter swipe springs back. Touch only: a mouse has the toast's timeout.
 */
export function SwipeToDismiss({ id, children }: { id: string; children: ReactNode }) {
  const start = useRef<number | null>(null);
  const [dx, setDx] = useState(0);
  const x = (event: TouchEvent) => event.changedTouches[0]?.clientX ?? 0;
  return (
    <div
      data-toast=""
      style={{
        transform: dx ? `translateX(${dx}px)` : undefined,
        opacity: dx ? Math.max(0.3, 1 - Math.abs(dx) / 150) : undefined,
        touchAction: 'pan-y',
      }}
      onTouchStart={(event) => {
        start.current = x(event);
      }}
      onTouchMove={(event) => {
        if (start.current !== null) setDx(x(event) - start.current);
      }}
      onTouchEnd={(event) => {
        const moved = start.current === null ? 0 : x(event) - start.current;
        start.current = null;
        setDx(0);
        if (isSwipeDismiss(moved)) toast.dismiss(id);
      }}
      onTouchCancel={() => {
        start.current = null;
        setDx(0);
      }}
    >
      {children}
    </div>
  );
}
