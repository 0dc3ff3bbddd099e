import { act, cleanup } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeAll } from 'vitest';
import { installMatchMedia } from './match-media.ts';

/**
 * For a test file that renders screens with toasts: matchMedia for react-hot-toast, and after
 * each test no toast and nothing rendered left over.
 */
export function screenHooks(): void {
  beforeAll(() => installMatchMedia());
  afterEach(() => {
    act(() => toast.remove());
    cleanup();
  });
}
