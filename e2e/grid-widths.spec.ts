import { expect, test, type Locator, type Page } from '@playwright/test';
import { firstGrid, newPatient, registeredPatient, shot } from './support.ts';

/**
 * docs/product-rules.md §2 "Availability grid": four days at a time at every width from 320 px,
 * on the booking page and in the patient dashboard's narrower 'agendar' tab. Measured as a
 * person sees it: four day columns side by side, none overlapping another, every time inside
 * its own button, and previous/next above the days rather than squeezing them.
 */
const WIDTHS = [320, 360, 390] as const;

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  expect(b, 'element has a box').not.toBeNull();
  return b!;
}

/** What is wrong with the grid's layout at the current width (empty when nothing is). */
async function layoutProblems(page: Page, grid: Locator): Promise<string[]> {
  const problems: string[] = [];
  const columns = grid.locator(':scope > div > ul > li');
  await expect(columns).toHaveCount(4);
  const section = await box(grid);
  const next = await box(grid.getByRole('button', { name: 'Próximos dias' }));
  const boxes: Box[] = [];
  for (let i = 0; i < 4; i++) boxes.push(await box(columns.nth(i)));
  if (next.y + next.height > boxes[0]!.y) problems.push('navigation is not above the days');
  boxes.forEach((b, i) => {
    if (b.x < section.x - 0.5 || b.x + b.width > section.x + section.width + 0.5)
      problems.push(`day ${i + 1} leaves the grid`);
    const following = boxes[i + 1];
    if (following && b.x + b.width > following.x + 0.5)
      problems.push(`day ${i + 1} overlaps day ${i + 2}`);
    if (following && Math.abs(b.y - following.y) > 0.5)
      problems.push(`day ${i + 2} is not beside day ${i + 1}`);
  });
  const viewport = page.viewportSize()!.width;
  if (boxes[3]!.x + boxes[3]!.width > viewport) problems.push('day 4 ends past the screen edge');
  const slots = grid.locator('ul[aria-label] button');
  const count = await slots.count();
  expect(count, 'the grid shows slots').toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const slot = slots.nth(i);
    const s = await box(slot);
    const column = boxes.find((c) => s.x >= c.x - 0.5 && s.x < c.x + c.width);
    if (!column || s.x + s.width > column.x + column.width + 0.5)
      problems.push(`slot ${i + 1} leaves its day`);
    if (s.height < 24 || s.width < 24) problems.push(`slot ${i + 1} is below 24 × 24 px`);
    const spills = await slot.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    if (spills) problems.push(`slot ${i + 1}'s time spills out of its button`);
  }
  return problems;
}

async function gridReady(grid: Locator): Promise<void> {
  await expect(grid.locator('ul[aria-label] button').first()).toBeVisible();
  await expect(grid.getByTestId('grid-skeleton')).toHaveCount(0);
}

/** Walks the widths on an open page, checking the grid and keeping a picture of each. */
async function checkWidths(page: Page, name: string): Promise<void> {
  const grid = firstGrid(page);
  await gridReady(grid);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    await gridReady(grid);
    expect(await layoutProblems(page, grid), `${name} at ${width} px`).toEqual([]);
    await grid.scrollIntoViewIfNeeded();
    await grid.screenshot({ path: `test-results/e2e/screenshots/${name}-${width}.png` });
  }
}

test('the booking page shows four day columns from 320 px up, without overlap', async ({
  page,
}) => {
  await page.goto('/agendamentos');
  await checkWidths(page, 'grid');
  await shot(page, 'grid-page-390');
});

test("the patient dashboard's agendar tab shows four day columns from 320 px up", async ({
  page,
}) => {
  await registeredPatient(page, newPatient('grid'));
  await page.goto('/paciente/dashboard/agendar');
  await checkWidths(page, 'grid-agendar');
});
