import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('./when-idle.ts', () => ({
  // Idle at once: the gate's own conditions are what is tested here.
  whenIdleAfterPaint: (run: () => void) => {
    run();
    return () => undefined;
  },
}));

afterEach(() => {
  vi.resetModules();
});

describe('afterFirstPaint', () => {
  it('waits for the first route and for every hold', async () => {
    const gate = await import('./first-paint.ts');
    const run = vi.fn();
    const release = gate.holdFirstPaint();
    gate.afterFirstPaint(run);
    gate.markFirstRouteRendered();
    expect(run).not.toHaveBeenCalled();
    release();
    release();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs at once after the first paint, and never once cancelled', async () => {
    const gate = await import('./first-paint.ts');
    const cancelled = vi.fn();
    gate.afterFirstPaint(cancelled)();
    gate.markFirstRouteRendered();
    const run = vi.fn();
    gate.afterFirstPaint(run);
    expect(run).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
