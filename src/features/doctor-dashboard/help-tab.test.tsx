// @vitest-environment jsdom
import { afterEach, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { MedicoDoc } from '../../../sync/index.ts';
import { HelpTab } from './help-tab.tsx';
import { DOCTOR_SECTIONS } from './sections.ts';

afterEach(cleanup);

it("describes every other section of the dashboard under its navigation name, in the navigation's order", () => {
  render(<HelpTab doctor={{} as MedicoDoc} />);
  const card = screen.getByText('As seções do painel').parentElement!;
  const names = within(card)
    .getAllByRole('term')
    .map((term) => term.textContent);
  expect(names).toEqual(DOCTOR_SECTIONS.filter((s) => s.value !== 'ajuda').map((s) => s.label));
  expect(
    within(card)
      .getAllByRole('definition')
      .every((d) => d.textContent.length > 40),
  ).toBe(true);
});
