import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import {
  createDoctor,
  Device,
  rows,
  startPlatform,
  until,
  type DoctorFixture,
} from '../../../sync/testing/index.ts';
import type { TestPlatform } from '../../../sync/testing/index.ts';
import '@/testing/jsdom-globals.ts';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { installMatchMedia } from '@/testing/match-media.ts';
import { ScheduleEditor } from './schedule-editor.tsx';

let t: TestPlatform;
const devices: Device[] = [];

beforeAll(async () => {
  installMatchMedia();
  t = await startPlatform();
}, 120_000);

afterEach(async () => {
  act(() => toast.remove());
  cleanup();
  await Promise.all(devices.splice(0).map((d) => d.stop()));
});

afterAll(async () => {
  await t.stop();
});

/** Monday to Saturday, 08–12 and 14–18: twelve blocks, like the week lost in the field report. */
const WEEK = [1, 2, 3, 4, 5, 6].flatMap((dia_semana) => [
  { dia_semana, hora_inicio: '08:00', hora_fim: '12:00', intervalo_em_minutos: 30 },
  { dia_semana, hora_inicio: '14:00', hora_fim: '18:00', intervalo_em_minutos: 30 },
]);

type Block = { id: string; dia_semana: number; hora_inicio: string; hora_fim: string };

function serverBlocks(doctor: DoctorFixture): Promise<Block[]> {
  return rows<Block>(
    t.admin
      .from('agenda_medico')
      .select('id, dia_semana, hora_inicio, hora_fim')
      .eq('medico_id', doctor.medicoId)
      .eq('_deleted', false)
      .order('dia_semana')
      .order('hora_inicio'),
  );
}

async function doctorDevice(doctor: DoctorFixture, hold: boolean): Promise<Device> {
  const device = new Device(t);
  devices.push(device);
  const id = await device.signIn(doctor.email);
  const attempted = hold
    ? device.net.hold((url) => url.includes('/rest/v1/agenda_medico?'))
    : Promise.resolve();
  await device.start({ id, role: 'medico' });
  await attempted;
  return device;
}

function renderEditor(device: Device, doctor: DoctorFixture) {
  render(
    <>
      <ScheduleEditor engine={device.sync} medicoId={doctor.medicoId} />
      <Toaster />
    </>,
  );
}

it('opened cold on an empty replica still on its first pull, it shows loading and a save deletes nothing', async () => {
  const doctor = await createDoctor(t, { blocks: WEEK });
  const before = await serverBlocks(doctor);
  const device = await doctorDevice(doctor, true);
  // The rest of the first sync is in, the doctor's own record too: only the blocks are missing.
  await until(device.sync.status$, (s) => s.initialSync.completed === s.initialSync.total - 1);
  renderEditor(device, doctor);

  expect(await screen.findByText('Carregando sua agenda…')).toBeTruthy();
  expect(screen.queryByText('Sem horários neste dia.')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Salvar Agenda' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Adicionar horário' })).toBeNull();

  void device.net.hold(null);
  const sunday = within(
    await screen.findByRole('region', { name: 'Domingo' }, { timeout: 15_000 }),
  );
  const monday = within(screen.getByRole('region', { name: 'Segunda-feira' }));
  expect(monday.getAllByLabelText('Início').map((i) => (i as HTMLInputElement).value)).toEqual([
    '08:00',
    '14:00',
  ]);
  expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Salvar Agenda' }).disabled).toBe(
    true,
  );

  fireEvent.click(sunday.getByRole('button', { name: 'Adicionar horário' }));
  fireEvent.click(screen.getByRole('button', { name: 'Salvar Agenda' }));
  expect(
    await screen.findByText('Sua agenda foi atualizada.', {}, { timeout: 15_000 }),
  ).toBeTruthy();
  await device.sync.awaitInSync();

  const after = await serverBlocks(doctor);
  expect(after).toHaveLength(13);
  expect(after.filter((b) => b.dia_semana !== 0)).toEqual(before);
  expect(after.filter((b) => b.dia_semana === 0)).toMatchObject([
    { hora_inicio: '08:00:00', hora_fim: '12:00:00' },
  ]);
});

it('saves only what the doctor changed: a block added meanwhile on another device survives the save', async () => {
  const doctor = await createDoctor(t, { blocks: WEEK });
  const device = await doctorDevice(doctor, false);
  await device.sync.awaitInitialSync();
  renderEditor(device, doctor);

  const saturday = within(
    await screen.findByRole('region', { name: 'Sábado' }, { timeout: 15_000 }),
  );
  fireEvent.click(saturday.getAllByRole('button', { name: 'Remover' })[1] as HTMLElement);
  const tuesday = within(screen.getByRole('region', { name: 'Terça-feira' }));
  fireEvent.change(tuesday.getAllByLabelText('Fim')[0] as HTMLElement, {
    target: { value: '11:00' },
  });

  // Another device (or the first pull's last page) brings a Sunday block the editor never had.
  const inserted = await t.admin.from('agenda_medico').insert({
    medico_id: doctor.medicoId,
    dia_semana: 0,
    hora_inicio: '09:00',
    hora_fim: '10:00',
    intervalo_em_minutos: 30,
  });
  if (inserted.error) throw inserted.error;
  const sunday = within(screen.getByRole('region', { name: 'Domingo' }));
  expect(await sunday.findByDisplayValue('09:00', {}, { timeout: 15_000 })).toBeTruthy();

  fireEvent.click(screen.getByRole('button', { name: 'Salvar Agenda' }));
  expect(
    await screen.findByText('Sua agenda foi atualizada.', {}, { timeout: 15_000 }),
  ).toBeTruthy();
  await device.sync.awaitInSync();

  const after = await serverBlocks(doctor);
  expect(after.map((b) => `${b.dia_semana} ${b.hora_inicio}-${b.hora_fim}`)).toEqual([
    '0 09:00:00-10:00:00',
    '1 08:00:00-12:00:00',
    '1 14:00:00-18:00:00',
    '2 08:00:00-11:00:00',
    '2 14:00:00-18:00:00',
    '3 08:00:00-12:00:00',
    '3 14:00:00-18:00:00',
    '4 08:00:00-12:00:00',
    '4 14:00:00-18:00:00',
    '5 08:00:00-12:00:00',
    '5 14:00:00-18:00:00',
    '6 08:00:00-12:00:00',
  ]);
});

it('an offline change another device overwrote first is not lost without a word: the editor says so and shows what the server kept', async () => {
  const doctor = await createDoctor(t, { blocks: WEEK });
  const device = await doctorDevice(doctor, false);
  await device.sync.awaitInitialSync();
  renderEditor(device, doctor);
  const tuesday = within(
    await screen.findByRole('region', { name: 'Terça-feira' }, { timeout: 15_000 }),
  );

  device.offline();
  fireEvent.change(tuesday.getAllByLabelText('Fim')[0] as HTMLElement, {
    target: { value: '11:00' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Salvar Agenda' }));
  expect(await screen.findByText('Sua agenda foi atualizada.')).toBeTruthy();

  // Meanwhile the same block is changed on another device, and that write reaches the server first.
  const block = (await serverBlocks(doctor)).find(
    (b) => b.dia_semana === 2 && b.hora_inicio === '08:00:00',
  );
  const other = await t.admin
    .from('agenda_medico')
    .update({ hora_fim: '10:30' })
    .eq('id', block!.id);
  if (other.error) throw other.error;

  device.online();
  expect(await screen.findByText('Alteração não aplicada', {}, { timeout: 15_000 })).toBeTruthy();
  expect(
    screen.getByText(
      'Outro dispositivo alterou os mesmos dados antes. A versão já salva foi mantida: confira e altere de novo se precisar.',
    ),
  ).toBeTruthy();
  await device.sync.awaitInSync();
  expect(await tuesday.findByDisplayValue('10:30')).toBeTruthy();
  const after = await serverBlocks(doctor);
  expect(after.find((b) => b.id === block!.id)?.hora_fim).toBe('10:30:00');
});

it('offline, a device that pulled the week before edits it; a device that never did says so', async () => {
  const doctor = await createDoctor(t, { blocks: WEEK });
  const device = await doctorDevice(doctor, false);
  await until(device.sync.pulledOnce$('agenda_medico'), Boolean);
  await device.stop();
  device.offline();
  await device.start({ id: doctor.id, role: 'medico' });
  renderEditor(device, doctor);
  const friday = within(await screen.findByRole('region', { name: 'Sexta-feira' }));
  expect(friday.getAllByLabelText('Início')).toHaveLength(2);
  expect(
    screen.getByText('Sem conexão: as alterações serão enviadas quando a conexão voltar.'),
  ).toBeTruthy();
  cleanup();

  const fresh = new Device(t);
  devices.push(fresh);
  await fresh.signIn(doctor.email);
  fresh.offline();
  await fresh.start({ id: doctor.id, role: 'medico' });
  renderEditor(fresh, doctor);
  expect(
    await screen.findByText(
      'Sua agenda ainda não foi carregada neste dispositivo. Conecte-se à internet para editá-la.',
    ),
  ).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Salvar Agenda' })).toBeNull();
});
