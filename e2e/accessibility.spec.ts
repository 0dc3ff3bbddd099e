import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { logInDoctor } from './doctor-support.ts';
import { firstFreeSlot, newPatient, registeredPatient, shot, slotButton } from './support.ts';

/**
 * Every public, patient and doctor screen, checked as WCAG 2.1 A/AA asks at the two sizes people use
 * (axe-core; serious and critical findings fail), and reflowed at 320 CSS px (WCAG 1.4.10: no
 * sideways scrolling, no text spilling out of its box).
 */
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const REFLOW = { width: 320, height: 256 };

/** Waits for entrance animations, so contrast is measured on the final colours. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

async function expectAccessible(page: Page, label: string): Promise<void> {
  await settle(page);
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const severe = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    severe.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    ),
    `axe on ${label}`,
  ).toEqual([]);
}

/** What spills sideways at the current width: the page itself, or a box's own text. */
async function reflowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) {
      problems.push(`page scrolls sideways (${document.documentElement.scrollWidth}px)`);
    }
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    for (const el of document.querySelectorAll<HTMLElement>(
      'main button, main a, main h1, main h2, main h3, main label, main p, main span, main td',
    )) {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      // Visually hidden text (screen-reader only) is 1px wide by design.
      if (rect.width <= 1 && rect.height <= 1) continue;
      if (rect.right > width + 1) problems.push(`${describe(el)} ends past the screen edge`);
      else if (el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'auto') {
        problems.push(`${describe(el)} overflows its box`);
      }
    }
    return problems;
  });
}

/**
 * Opens the screen once (some, like the checkout, exist only after a click that books), then
 * checks it at each size by resizing the window, as a person rotating a phone would.
 */
async function checkRoute(page: Page, path: string, open?: () => Promise<void>): Promise<void> {
  await page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });
  if (open) await open();
  else await page.goto(path);
  await expect(page.locator('main h1').first()).toBeVisible();
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await expectAccessible(page, `${path} at ${size.width}px`);
  }
  await page.setViewportSize(REFLOW);
  await settle(page);
  await shot(page, `a11y-320${path.replace(/[^a-z0-9]+/gi, '-')}`);
  expect(await reflowProblems(page), `reflow of ${path} at 320px`).toEqual([]);
}

const PUBLIC_ROUTES = [
  '/',
  '/agendamentos',
  '/suporte',
  '/acesso-paciente',
  '/acesso-medico',
  '/recuperar-senha',
  '/confirmacao-cadastro',
  '/cadastro-sucesso',
  '/admin/setup-paulo',
  '/admin/cleanup-doctors',
  '/admin/handle-application',
];

test('public screens: axe at two sizes and reflow at 320 px', async ({ page }) => {
  test.setTimeout(240_000);
  for (const path of PUBLIC_ROUTES) await checkRoute(page, path);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/agendamentos');
  const profile = await page
    .getByRole('link', { name: /Dra?\. / })
    .first()
    .getAttribute('href');
  await checkRoute(page, profile!);
});

test('patient screens: axe at two sizes and reflow at 320 px', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const patient = newPatient('a11y');
  await registeredPatient(page, patient);
  for (const tab of ['consultas', 'agendar', 'dados', 'suporte']) {
    await checkRoute(page, `/paciente/dashboard/${tab}`);
  }
  await checkRoute(page, '/conta/alterar-senha');

  await checkRoute(page, '/checkout', async () => {
    await page.goto('/agendamentos');
    await slotButton(page, await firstFreeSlot(page)).click();
    await expect(page).toHaveURL(/\/checkout$/);
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Confirmar e Gerar Guia' }).click();
  await expect(page).toHaveURL(/\/agendamento-sucesso$/);
  await expectAccessible(page, '/agendamento-sucesso');
  await page.getByRole('link', { name: 'Ver Guia' }).click();
  await expect(page.getByTestId('guide-qr').locator('svg')).toBeVisible();
  await checkRoute(page, new URL(page.url()).pathname);
});

test('doctor screens: axe at two sizes and reflow at 320 px', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await logInDoctor(page, 'paulo');
  for (const section of ['consultas', 'hoje', 'perfil', 'agenda', 'financeiro', 'ajuda']) {
    await checkRoute(page, `/medico/dashboard/${section}`);
  }
});

test("keyboard navigation: focus lands on the new page's heading and the page is announced", async ({
  page,
}) => {
  await page.goto('/');
  const cta = page.getByRole('link', { name: 'Agendar Teleconsulta Agora' });
  await cta.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/agendamentos$/);
  const heading = page.getByRole('heading', { level: 1, name: 'Agende sua consulta' });
  await expect(heading).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'Agende sua consulta' })).toHaveCount(1);
});
