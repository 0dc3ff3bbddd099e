import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import {
  ANA,
  appointments,
  doctorFirstAccess,
  firstFreeSlot,
  installApp,
  newPatient,
  otherSession,
  registeredPatient,
  revealSlot,
  SCREENSHOTS,
  serviceClient,
  shot,
  slotButton,
  type Patient,
  type SlotChoice,
} from './support.ts';

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'mobile', viewport: { width: 390, height: 844 } },
] as const;

const ROOM = 'https://meet.example.com';

/**
 * Dra. Ana's room choice (perfil), set on the server. The other specs expect her built-in room
 * (the default), so every test here leaves it that way.
 */
async function setAnaRoomChoice(choice: 'integrada' | 'link_externo'): Promise<void> {
  const admin = await serviceClient();
  const { error } = await admin
    .from('medicos')
    .update({ sala_consulta: choice })
    .eq('id', 'a0000000-0000-4000-8000-000000000001');
  expect(error).toBeNull();
}

test.afterEach(() => setAnaRoomChoice('integrada'));

/** Books the first free slot of Dra. Ana through the patient's real screens. */
async function bookFirstFree(page: Page): Promise<SlotChoice> {
  await page.goto('/agendamentos');
  const choice = await firstFreeSlot(page);
  await slotButton(page, choice).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await page.getByRole('button', { name: 'Confirmar e Gerar Guia' }).click();
  await expect(page).toHaveURL(/\/agendamento-sucesso$/);
  await expect(page.getByRole('link', { name: 'Ver Guia' })).toBeVisible();
  return choice;
}

/** The doctor's card of `patient`'s appointment at `time` (the visible tab only). */
function doctorCard(page: Page, patient: Patient, time: string): Locator {
  return page
    .getByRole('tabpanel')
    .getByTestId('doctor-appointment')
    .filter({ hasText: patient.fullName })
    .filter({ hasText: `às ${time}` });
}

async function search(page: Page, text: string) {
  await page.getByLabel('Buscar por paciente ou protocolo').fill(text);
}

async function newPages(browser: Browser, viewport: { width: number; height: number }) {
  const doctorContext = await browser.newContext({ viewport });
  const patientContext = await browser.newContext({ viewport });
  return {
    doctorContext,
    patientContext,
    doctor: await doctorContext.newPage(),
    patient: await patientContext.newPage(),
  };
}

for (const size of SIZES) {
  test(`a doctor's first access and day, live with the patient (${size.name})`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const { doctor, patient, patientContext } = await newPages(browser, size.viewport);
    const person = newPatient(`medico-${size.name}`);
    await registeredPatient(patient, person);

    await doctorFirstAccess(doctor, ANA.email);
    await expect(doctor).toHaveURL(/\/medico\/dashboard(\/consultas)?$/);
    await expect(doctor.getByTestId('doctor-name')).toHaveText(`Dr(a). ${ANA.name}`);
    await expect(doctor.getByRole('heading', { name: 'Consultas' })).toBeVisible();

    // The patient books while the doctor watches: it arrives without a reload.
    const first = await bookFirstFree(patient);
    await expect(doctor.getByText('Agenda atualizada em tempo real!')).toBeVisible();
    await search(doctor, person.fullName);
    const card = doctorCard(doctor, person, first.time);
    await expect(card).toHaveCount(1);
    await expect(card.getByText('Agendado')).toBeVisible();
    await expect(card.getByText(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/)).toBeVisible();
    await expect(card.getByRole('link', { name: 'Ver guia' })).toBeVisible();
    // The built-in room (the default): the card leads into it, with no link to manage.
    const cardId = await card.getAttribute('data-appointment-id');
    await expect(card.getByRole('link', { name: 'Entrar na sala' })).toHaveAttribute(
      'href',
      `/consulta/${cardId}`,
    );
    await expect(card.getByRole('button', { name: 'Adicionar link' })).toHaveCount(0);
    await expect(card.getByText('Nenhum link salvo')).toHaveCount(0);
    await shot(doctor, `20-medico-consultas-${size.name}`);
    await card.screenshot({ path: `${SCREENSHOTS}/20-medico-cartao-sala-${size.name}.png` });

    await patient.goto('/paciente/dashboard/consultas');
    const patientItem = appointments(patient).filter({ hasText: `às ${first.time}` });
    await expect(patientItem.getByText('Aguardando Pagamento')).toBeVisible();

    await card.getByRole('button', { name: 'Confirmar Pagamento' }).click();
    await expect(doctor.getByText('Pagamento Confirmado!')).toBeVisible();
    await expect(card.getByText('Confirmado', { exact: true })).toBeVisible();
    await expect(patientItem.getByText('Confirmada e Paga')).toBeVisible();
    await card.getByRole('button', { name: 'Fazer Check-in' }).click();
    await expect(doctor.getByText('Check-in Realizado!')).toBeVisible();
    // The patient's open dashboard follows without a reload.
    await expect(patientItem.getByText('Realizada')).toBeVisible();

    // The doctor chooses their own video link in perfil; a second booking: the doctor saves
    // its link and the patient can enter it.
    await doctor.goto('/medico/dashboard/perfil');
    await doctor.getByRole('radio', { name: /Meu próprio link de vídeo/ }).check();
    await expect(doctor.getByText('Sala da consulta atualizada!')).toBeVisible();
    await doctor.goto('/medico/dashboard/consultas');
    await search(doctor, person.fullName);
    const second = await bookFirstFree(patient);
    await patient.goto('/paciente/dashboard/consultas');
    const secondCard = doctorCard(doctor, person, second.time);
    await expect(secondCard).toHaveCount(1);
    await expect(secondCard.getByText('Nenhum link salvo')).toBeVisible();
    await secondCard.getByRole('button', { name: 'Adicionar link' }).click();
    const linkField = secondCard.getByRole('textbox', { name: 'Link da consulta' });
    await linkField.fill('http://meet.example.com/sala');
    await secondCard.getByRole('button', { name: 'Salvar link' }).click();
    await expect(
      secondCard.getByText('Informe um link válido que comece com https://'),
    ).toBeVisible();
    const room = `${ROOM}/sala-${size.name}`;
    await linkField.fill(room);
    await secondCard.getByRole('button', { name: 'Salvar link' }).click();
    await expect(doctor.getByText('Link da consulta salvo!')).toBeVisible();
    await expect(secondCard.getByRole('link', { name: room })).toBeVisible();

    await patientContext.route(`${ROOM}/**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Sala</title>' }),
    );
    const secondItem = appointments(patient).filter({ hasText: `às ${second.time}` });
    // The link reaches the patient's open list live; until it has, the click only says
    // 'Link não disponível', so the room is asked for again.
    await expect(async () => {
      const popup = patient.waitForEvent('popup', { timeout: 2_000 });
      await secondItem.getByRole('button', { name: 'Entrar na sala' }).click();
      await (await popup).waitForURL(room, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });

    // Cancelling asks first; then the slot is free again for everyone.
    await secondCard.getByRole('button', { name: 'Cancelar consulta' }).click();
    const dialog = doctor.getByRole('dialog');
    await expect(dialog.getByText('Cancelar esta consulta?')).toBeVisible();
    await shot(doctor, `21-medico-cancelar-${size.name}`);
    await dialog.getByRole('button', { name: 'Sim, cancelar' }).click();
    await expect(doctor.getByText('Agendamento cancelado com sucesso.')).toBeVisible();
    await expect(secondItem.getByText('Cancelada')).toBeVisible();
    await patient.goto('/agendamentos');
    await revealSlot(patient, second);
    await expect(slotButton(patient, second)).toBeEnabled();

    await doctor.goto('/medico/dashboard/hoje');
    await expect(doctor.getByRole('heading', { name: 'Hoje' })).toBeVisible();
    await shot(doctor, `22-medico-hoje-${size.name}`);

    await doctor.goto('/medico/dashboard/consultas');
    await search(doctor, person.fullName);
    await doctor.getByRole('tab', { name: /^Histórico/ }).click();
    const done = doctorCard(doctor, person, first.time);
    await expect(done.getByText('Atendido')).toBeVisible();
    await done.getByRole('link', { name: 'Ver guia' }).click();
    await expect(doctor).toHaveURL(/\/guia\/[0-9a-f-]{36}$/);
    await expect(doctor.getByText(person.fullName)).toBeVisible();
    await shot(doctor, `23-medico-guia-${size.name}`);
  });
}

type Row = { id: string; status: string; pagamento_status: string; meeting_link: string | null };

test("the doctor's day offline: hoje, consultas with search and a guide from the replica; offline actions land once; a conflict is shown as refused", async ({
  page,
  context,
  browser,
}) => {
  const patientContext = await browser.newContext();
  const patient = await patientContext.newPage();
  const person = newPatient('medico-offline');
  await registeredPatient(patient, person);
  const paid = await bookFirstFree(patient);
  const linked = await bookFirstFree(patient);
  // A patient holds at most two unpaid bookings per doctor (src/domain/rules/limits.ts): the
  // third is booked by a namesake, so the doctor's search still finds all of them.
  const namesakeContext = await browser.newContext();
  const namesake = await namesakeContext.newPage();
  const namesakePerson = newPatient('medico-offline');
  await registeredPatient(namesake, namesakePerson);
  const conflicted = await bookFirstFree(namesake);
  await namesakeContext.close();

  // One appointment today (São Paulo) for the hoje list, stored straight on the server.
  const admin = await serviceClient();
  const { data: patientRow } = await admin
    .from('perfis_usuarios')
    .select('id')
    .eq('email', person.email)
    .single<{ id: string }>();
  const { data: servico } = await admin
    .from('servicos')
    .select('id')
    .eq('nome', 'Teleconsulta')
    .single<{ id: string }>();
  const today = Temporal.Now.zonedDateTimeISO('America/Sao_Paulo').toPlainDate();
  const start = today.toZonedDateTime({
    timeZone: 'America/Sao_Paulo',
    plainTime: Temporal.PlainTime.from('23:30'),
  });
  const inserted = await admin.from('agendamentos').insert({
    patient_id: patientRow!.id,
    medico_id: 'a0000000-0000-4000-8000-000000000001',
    servico_id: servico!.id,
    appointment_date: today.toString(),
    appointment_time: '23:30:00',
    horario_inicio: start.toInstant().toString(),
    horario_fim: start.add({ minutes: 30 }).toInstant().toString(),
    price_in_cents: 15000,
  });
  expect(inserted.error).toBeNull();

  // Dra. Ana holds her consultations on her own link, saved per appointment.
  await setAnaRoomChoice('link_externo');
  const password = await doctorFirstAccess(page, ANA.email);
  await page.goto('/medico/dashboard/consultas');
  await search(page, person.fullName);
  const cards = page.getByRole('tabpanel').getByTestId('doctor-appointment');
  await expect(cards).toHaveCount(4);
  await expect(cards.and(page.locator('[data-sync="synced"]'))).toHaveCount(4);
  const idOf = async (choice: SlotChoice) =>
    (await doctorCard(page, person, choice.time).getAttribute('data-appointment-id'))!;
  const [paidId, linkedId, conflictedId] = [
    await idOf(paid),
    await idOf(linked),
    await idOf(conflicted),
  ];
  await installApp(page);

  // No network: the app, the day, the list, the search and the guide come from the device.
  await context.setOffline(true);
  await page.goto('/medico/dashboard/hoje');
  await expect(page.getByText('Você está offline')).toBeVisible();
  // The slots booked above may be today too: the stored one is the 23:30.
  const todayRow = page
    .getByTestId('today-appointment')
    .filter({ hasText: person.fullName })
    .filter({ hasText: '23:30' });
  await expect(todayRow).toHaveCount(1);
  await expect(todayRow.getByText('Pagamento pendente')).toBeVisible();
  await shot(page, '24-medico-hoje-offline');

  await page.getByRole('link', { name: 'Consultas' }).click();
  await search(page, person.fullName.toUpperCase());
  await expect(cards).toHaveCount(4);
  await search(page, 'ninguem-com-este-nome');
  await expect(cards).toHaveCount(0);
  await search(page, person.fullName);
  await doctorCard(page, person, paid.time).getByRole('link', { name: 'Ver guia' }).click();
  await expect(page.getByTestId('guide-qr').locator('svg')).toBeVisible();
  await expect(page.getByText(person.fullName)).toBeVisible();
  await page.goBack();

  await search(page, person.fullName);
  const paidCard = doctorCard(page, person, paid.time);
  await paidCard.getByRole('button', { name: 'Confirmar Pagamento' }).click();
  await expect(paidCard.getByTestId('pending-marker')).toBeVisible();
  const linkedCard = doctorCard(page, person, linked.time);
  await linkedCard.getByRole('button', { name: 'Adicionar link' }).click();
  await linkedCard.getByRole('textbox', { name: 'Link da consulta' }).fill(`${ROOM}/offline`);
  await linkedCard.getByRole('button', { name: 'Salvar link' }).click();
  await expect(linkedCard.getByTestId('pending-marker')).toBeVisible();
  const conflictedCard = doctorCard(page, person, conflicted.time);
  await conflictedCard.getByRole('button', { name: 'Confirmar Pagamento' }).click();
  await expect(conflictedCard.getByTestId('pending-marker')).toBeVisible();
  await shot(page, '25-medico-acoes-offline');

  // Meanwhile, from another session, that appointment is cancelled.
  const elsewhere = await otherSession(ANA.email, password);
  const cancelled = await elsewhere.rpc('medico_excluir_agendamento', {
    p_agendamento_id: conflictedId,
  });
  expect(cancelled.error).toBeNull();

  await context.setOffline(false);
  await expect(page.getByText('Você está offline')).toBeHidden();
  await expect(page.getByText(/alteraç(ão|ões) pendente/)).toBeHidden({ timeout: 30_000 });
  await expect(paidCard.getByText('Confirmado', { exact: true })).toBeVisible();
  await expect(linkedCard.getByRole('link', { name: `${ROOM}/offline` })).toBeVisible();
  await page.getByRole('tab', { name: /^Histórico/ }).click();
  const refused = doctorCard(page, person, conflicted.time);
  await expect(refused.getByTestId('rejected-note')).toBeVisible();
  await expect(refused.getByText('Cancelado', { exact: true })).toBeVisible();
  await shot(page, '26-medico-acao-recusada');

  // Exactly the four appointments of the two patients: nothing sent twice.
  const { data: namesakeRow } = await admin
    .from('perfis_usuarios')
    .select('id')
    .eq('email', namesakePerson.email)
    .single<{ id: string }>();
  const { data: rows } = await admin
    .from('agendamentos')
    .select('id, status, pagamento_status, meeting_link')
    .in('patient_id', [patientRow!.id, namesakeRow!.id]);
  const byId = new Map((rows as Row[]).map((r) => [r.id, r]));
  expect(rows).toHaveLength(4);
  expect(byId.get(paidId)).toMatchObject({ status: 'confirmado', pagamento_status: 'pago' });
  expect(byId.get(linkedId)).toMatchObject({
    meeting_link: `${ROOM}/offline`,
    pagamento_status: 'pendente',
  });
  expect(byId.get(conflictedId)).toMatchObject({ status: 'cancelado' });
  expect(byId.get(conflictedId)?.pagamento_status).not.toBe('pago');
});
