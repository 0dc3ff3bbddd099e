import { expect, test, type Locator, type Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { readFile } from 'node:fs/promises';
import { logIn, randomCpf, shot } from './support.ts';
import {
  ANA,
  activeBlocks,
  createPatientAccount,
  logInDoctor,
  paidAppointment,
  removeBlocksAt,
  snapshotDoctorProfile,
  tomorrow,
} from './doctor-support.ts';

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
] as const;

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

let restoreProfile: () => Promise<void> = () => Promise.resolve();

test.beforeEach(async () => {
  restoreProfile = await snapshotDoctorProfile('ana');
});

test.afterEach(async () => {
  await restoreProfile();
  await removeBlocksAt(ANA.medicoId, tomorrow().diaSemana, '20:00');
});

/** The grid column of `dayMonth` in Dra. Ana's card, expanded to show every slot. */
async function anaColumn(page: Page, dayMonth: string): Promise<Locator> {
  const card = page.getByTestId('doctor-card').filter({ hasText: ANA.publicName });
  const column = card
    .getByRole('region', { name: 'HORA MARCADA' })
    .locator('li')
    .filter({ has: page.getByText(dayMonth, { exact: true }) })
    .first();
  await expect(column).toBeVisible();
  return column;
}

test('agenda: each validation message, then a save only adds the new block and a patient sees it live', async ({
  page,
  browser,
}) => {
  const day = tomorrow();
  // A signed-in patient already has the booking page open.
  const patientContext = await browser.newContext();
  const patient = await patientContext.newPage();
  const account = await createPatientAccount('Paciente Agenda Viva', randomCpf());
  await logIn(patient, account.email, account.password);
  await patient.goto('/agendamentos');
  const before = await anaColumn(patient, day.dayMonth);
  await expect(before.getByRole('button', { name: '20:00', exact: true })).toHaveCount(0);

  await logInDoctor(page);
  await page.goto('/medico/dashboard/agenda');
  await expect(page.getByRole('heading', { level: 1, name: 'Agenda' })).toBeVisible();
  const region = page.getByRole('region', { name: day.name });
  await expect(region).toBeVisible();
  const save = page.getByRole('button', { name: 'Salvar Agenda' });
  await expect(save).toBeDisabled();
  const storedBlocks = await region.getByRole('group', { name: 'Horário', exact: true }).count();

  await region.getByRole('button', { name: 'Adicionar horário' }).click();
  const added = region.getByRole('group', { name: 'Novo horário' });
  await expect(added.getByLabel('Início')).toHaveValue('08:00');
  await expect(added.getByLabel('Fim')).toHaveValue('12:00');
  await expect(added.getByLabel('Intervalo')).toHaveValue('15');

  // Overlap with a stored 08:00 block when the day has one; always an end before the start.
  await added.getByLabel('Início').fill('09:00');
  await added.getByLabel('Fim').fill('08:30');
  await save.click();
  await expect(page.getByText('Erro de validação')).toBeVisible();
  await expect(
    page.getByText(
      'Verifique os blocos de horário. O horário final deve ser maior que o inicial e não deve haver sobreposição.',
    ),
  ).toBeVisible();
  await expect(added.getByText('Fim > Início')).toBeVisible();

  await added.getByLabel('Fim').fill('11:00');
  await region.getByRole('button', { name: 'Adicionar horário' }).click();
  const second = region.getByRole('group', { name: 'Novo horário' }).nth(1);
  await second.getByLabel('Início').fill('10:00');
  await second.getByLabel('Fim').fill('10:30');
  await save.click();
  await expect(region.getByText('Sobreposto').first()).toBeVisible();
  await expect(page.getByText('Erro de validação')).toBeVisible();

  // Fix: one new evening block, the other new block dropped.
  await second.getByRole('button', { name: 'Remover' }).click();
  await added.getByLabel('Início').fill('20:00');
  await added.getByLabel('Fim').fill('21:00');
  await added.getByLabel('Intervalo').selectOption('30');
  await save.click();
  await expect(page.getByText('Sucesso!')).toBeVisible();
  await expect(page.getByText('Sua agenda foi atualizada.')).toBeVisible();
  await expect(region.getByRole('group', { name: 'Horário', exact: true })).toHaveCount(
    storedBlocks + 1,
  );

  // The patient's page, never reloaded, offers the new slots.
  const after = await anaColumn(patient, day.dayMonth);
  const more = after.getByRole('button', { name: 'Ver mais horários' });
  await expect(after.getByRole('button', { name: '20:30', exact: true }).or(more)).toBeVisible();
  if (await more.isVisible()) await more.click();
  await expect(after.getByRole('button', { name: '20:00', exact: true })).toBeVisible();
  await expect(after.getByRole('button', { name: '20:30', exact: true })).toBeVisible();
  await patientContext.close();
});

test('agenda opened cold while the first pull of the week is held: loading, then a save deletes nothing', async ({
  page,
}) => {
  const before = await activeBlocks(ANA.medicoId);
  // Every pull of agenda_medico (the replica's, filtered by `_modified`; the booking page's
  // first response is not one) waits until released: a slow first sync on a fresh browser.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const isPull = (url: URL) =>
    url.pathname.endsWith('/rest/v1/agenda_medico') && url.search.includes('_modified');
  await page.route(isPull, async (route) => {
    await released;
    await route.continue();
  });
  await logInDoctor(page);
  await page.goto('/agendamentos?edit=1');
  await expect(page.getByText('Carregando sua agenda…')).toBeVisible();
  await expect(page.getByText('Sem horários neste dia.')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Salvar Agenda' })).toHaveCount(0);

  release();
  const sunday = page.getByRole('region', { name: 'Domingo' });
  await expect(sunday).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Segunda-feira' }).getByRole('group', { name: 'Horário' }),
  ).not.toHaveCount(0);
  await sunday.getByRole('button', { name: 'Adicionar horário' }).click();
  await sunday.getByLabel('Início').fill('20:00');
  await sunday.getByLabel('Fim').fill('21:00');
  await page.getByRole('button', { name: 'Salvar Agenda' }).click();
  await expect(page.getByText('Sua agenda foi atualizada.')).toBeVisible();

  await expect.poll(() => activeBlocks(ANA.medicoId)).toHaveLength(before.length + 1);
  const after = await activeBlocks(ANA.medicoId);
  expect(after.filter((b) => b.dia_semana !== 0 || b.hora_inicio !== '20:00:00')).toEqual(before);
  await removeBlocksAt(ANA.medicoId, 0, '20:00');
});

test("agenda from the owner's card on /agendamentos: 'Editar Horários' / 'Fechar Editor'", async ({
  page,
}) => {
  await logInDoctor(page);
  await page.goto('/agendamentos');
  await page.getByRole('button', { name: 'Editar Horários' }).click();
  await expect(page).toHaveURL(/edit=1/);
  await expect(page.getByRole('region', { name: 'Segunda-feira' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Salvar Agenda' })).toBeDisabled();
  await page.getByRole('button', { name: 'Fechar Editor' }).click();
  await expect(page.getByTestId('doctor-card').first()).toBeVisible();
});

test('perfil: every validation message, no-change notice, save reaches the public card', async ({
  page,
  browser,
}) => {
  await logInDoctor(page);
  await page.goto('/medico/dashboard/perfil');
  const form = page.getByRole('form', { name: 'Perfil' });
  const save = form.getByRole('button', { name: 'Salvar Alterações' });
  await expect(form.getByLabel('Nome público')).toHaveValue(ANA.publicName);
  await expect(form.getByLabel('Preço da consulta (R$)')).toHaveValue('150.00');
  await expect(save).toBeDisabled();

  // Typed, but the same value: enabled, and saving says nothing changed.
  await form.getByLabel('Preço da consulta (R$)').fill('150');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText('Nenhuma alteração detectada.')).toBeVisible();

  const cases: [string, string, string][] = [
    ['Nome público', '', 'Nome público é obrigatório'],
    ['Especialidade', '', 'Especialidade é obrigatória'],
    ['CRM', '', 'CRM é obrigatório'],
    ['UF', '', 'UF é obrigatório'],
    ['Preço da consulta (R$)', '', 'Preço é obrigatório'],
    ['Preço da consulta (R$)', '-10', 'O preço não pode ser negativo.'],
    ['Preço da consulta (R$)', '13o', 'Preço inválido. Use números (ex.: 130 ou 130.00).'],
    ['Link das avaliações (Doctoralia)', 'doctoralia ana', 'Por favor, insira uma URL válida.'],
  ];
  for (const [label, value, message] of cases) {
    const input = form.getByLabel(label);
    const original = await input.inputValue();
    await input.fill(value);
    await save.click();
    await expect(form.getByText(message)).toBeVisible();
    await input.fill(original);
    await expect(form.getByText(message)).toHaveCount(0);
  }
  await expect(form.getByLabel('UF')).toHaveAttribute('maxlength', '2');

  await form.getByLabel('Preço da consulta (R$)').fill('180,50');
  await form.getByLabel('Sobre você').fill('Atendimento humanizado por teleconsulta.');
  await save.click();
  await expect(page.getByText('Perfil atualizado!')).toBeVisible();
  await expect(save).toBeDisabled();

  // Another person's booking page shows it: the edit reached the server.
  const visitor = await browser.newContext();
  const other = await visitor.newPage();
  await other.goto('/agendamentos');
  const card = other.getByTestId('doctor-card').filter({ hasText: ANA.publicName });
  await expect(card.getByText('R$ 180,50')).toBeVisible();
  await expect(card.getByText('Atendimento humanizado por teleconsulta.')).toBeVisible();
  await visitor.close();
});

test('perfil: avatar refuses a wrong type and a too-large file, previews and uploads a photo shown on the card', async ({
  page,
  browser,
}) => {
  await logInDoctor(page);
  await page.goto('/medico/dashboard/perfil');
  const picker = page.getByLabel('Escolher foto');

  await picker.setInputFiles({ name: 'laudo.pdf', mimeType: 'application/pdf', buffer: PNG });
  await expect(
    page.getByText('Formato não suportado. Envie uma imagem PNG, JPEG ou WEBP.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Salvar foto' })).toHaveCount(0);

  await picker.setInputFiles({
    name: 'enorme.png',
    mimeType: 'image/png',
    buffer: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]),
  });
  await expect(
    page.getByText('A foto deve ter no máximo 2 MB. Escolha uma imagem menor.'),
  ).toBeVisible();

  await picker.setInputFiles({ name: 'minha foto.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('img', { name: 'Pré-visualização da nova foto' })).toBeVisible();
  await page.getByRole('button', { name: 'Salvar foto' }).click();
  await expect(page.getByText('Foto atualizada!')).toBeVisible();
  const current = page.getByRole('img', { name: `Foto atual: ${ANA.publicName}` });
  await expect(current).toHaveAttribute(
    'src',
    /\/storage\/v1\/object\/public\/avatars\/[0-9a-f-]{36}\/\d+_minha_foto\.png$/,
  );

  const visitor = await browser.newContext();
  const other = await visitor.newPage();
  await other.goto('/agendamentos');
  const photo = other
    .getByTestId('doctor-card')
    .filter({ hasText: ANA.publicName })
    .getByRole('img', { name: `Foto de ${ANA.publicName}` });
  await expect(photo).toHaveAttribute('src', /\/avatars\/.*_minha_foto\.png$/);
  await expect
    .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(1);
  await visitor.close();
});

test('financeiro: a paid appointment counts as received this month and exports as a pt-BR CSV', async ({
  page,
}) => {
  const { start, priceInCents } = await paidAppointment({
    slug: 'ana',
    patientName: 'Conceição Finanças',
    cpf: randomCpf(),
  });
  const consultation = Temporal.Instant.from(start).toZonedDateTimeISO('America/Sao_Paulo');
  const pad = (n: number) => String(n).padStart(2, '0');
  const consultationDate = `${pad(consultation.day)}/${pad(consultation.month)}/${consultation.year}`;

  await logInDoctor(page);
  await page.goto('/medico/dashboard/financeiro');
  const paidList = page.getByRole('list', { name: 'Consultas pagas' });
  const row = paidList.getByRole('listitem').filter({ hasText: 'Conceição Finanças' });
  await expect(row).toContainText(`${consultationDate} às 17:30`);
  const reais = `${Math.floor(priceInCents / 100)},${pad(priceInCents % 100)}`;
  await expect(row).toContainText(`R$ ${reais}`);
  await expect(page.getByText('Recebido este mês').locator('..')).toContainText(/R\$ [1-9]/);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^financeiro-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile((await file.path()) ?? '');
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString('utf8');
  expect(text).toContain('Data da consulta;Horário;Paciente;Protocolo;Valor (R$);Pago em\r\n');
  expect(text).toMatch(
    new RegExp(
      `${consultationDate.replace(/\//g, '\\/')};17:30;Conceição Finanças;[^;]*;${reais};\\d{2}\\/`,
    ),
  );
});

test('screenshots: perfil, agenda, financeiro, ajuda at 1280×800 and 390×844', async ({ page }) => {
  await logInDoctor(page);
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const [section, label] of [
      ['perfil', 'Perfil'],
      ['agenda', 'Agenda'],
      ['financeiro', 'Financeiro'],
      ['ajuda', 'Ajuda'],
    ] as const) {
      await page.goto(`/medico/dashboard/${section}`);
      await expect(page.getByRole('heading', { level: 1, name: label })).toBeVisible();
      if (section === 'agenda') {
        await expect(page.getByRole('region', { name: 'Segunda-feira' })).toBeVisible();
      }
      if (section === 'financeiro') {
        await expect(page.getByText('Recebido este mês')).toBeVisible();
      }
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        size.width,
      );
      await shot(page, `doctor-${section}-${size.name}`);
    }
  }
});
