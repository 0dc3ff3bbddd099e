import { describe, expect, it } from 'vitest';
import { filter, firstValueFrom } from 'rxjs';
import { Temporal } from 'temporal-polyfill';
import { ROOM_NOT_OPEN_TEXT } from '../../src/domain/rules/consultation-room.ts';
import { insertAppointment } from '../support/consultation.ts';
import {
  createDoctor,
  createPatient,
  device,
  platformForFile,
  until,
} from '../../sync/testing/index.ts';

const t = platformForFile();

const appointment = (patientId: string, medicoId: string, startsIn: string) =>
  insertAppointment(t, { patientId, medicoId, startsIn });

describe("the consultation room's record (outbox kind 'room_event')", () => {
  it('[O1][O6] what happens in the room reaches both replicas, live', async () => {
    const doctor = await createDoctor(t);
    const patientUser = await createPatient(t);
    const patient = await device(t, { as: patientUser });
    const medico = await device(t, { as: doctor });
    const id = await appointment(patientUser.id, doctor.medicoId, '10 minutes');
    await until(medico.sync.appointment$(id), (a) => a !== null);

    expect((await patient.sync.recordRoomEvent(id, 'paciente_entrou')).ok).toBe(true);
    const pending = await until(patient.sync.appointment$(id), (a) => a?.sync.state === 'pending');
    expect(pending?.sala_paciente_entrou_em).not.toBeNull();
    // The doctor sees the patient waiting without a reload.
    await until(medico.sync.appointment$(id), (a) => a?.sala_paciente_entrou_em != null);

    expect((await medico.sync.recordRoomEvent(id, 'chamada_iniciada')).ok).toBe(true);
    await until(patient.sync.appointment$(id), (a) => a?.chamada_iniciada_em != null);
    expect((await patient.sync.recordRoomEvent(id, 'so_audio')).ok).toBe(true);
    expect((await patient.sync.recordRoomEvent(id, 'chamada_encerrada')).ok).toBe(true);
    const ended = await until(
      medico.sync.appointment$(id),
      (a) => a?.chamada_duracao_segundos != null && a.chamada_so_audio === true,
    );
    expect(ended).toMatchObject({ sync: { state: 'synced' } });
    // As instants: the replica spells a whole second without a fraction ('…:02Z'), which sorts
    // after '…:02.3Z' as text.
    expect(
      Temporal.Instant.compare(ended!.chamada_encerrada_em!, ended!.chamada_iniciada_em!),
    ).toBeGreaterThanOrEqual(0);
    await until(
      patient.sync.appointment$(id),
      (a) =>
        a?.sync.state === 'synced' &&
        a.chamada_duracao_segundos === ended!.chamada_duracao_segundos,
    );
  });

  it('[O5] refuses locally what the role may not do, and shows the server’s refusal', async () => {
    const doctor = await createDoctor(t);
    const patient = await device(t, { role: 'paciente' });
    const id = await appointment(patient.person.id, doctor.medicoId, '3 hours');
    await until(patient.sync.appointment$(id), (a) => a !== null);

    expect(await patient.sync.recordRoomEvent(id, 'chamada_iniciada')).toEqual({
      ok: false,
      error: 'not-allowed',
    });
    // @ts-expect-error: not an event of the room
    expect(await patient.sync.recordRoomEvent(id, 'gravar')).toEqual({
      ok: false,
      error: 'invalid-input',
    });

    const rejection = firstValueFrom(
      patient.sync.events$.pipe(filter((e) => e.type === 'mutation-rejected')),
    );
    await patient.sync.recordRoomEvent(id, 'paciente_entrou');
    expect(await rejection).toMatchObject({ reason: 'room_not_open', message: ROOM_NOT_OPEN_TEXT });
    const after = await until(patient.sync.appointment$(id), (a) => a?.sync.state === 'synced');
    expect(after?.sala_paciente_entrou_em).toBeNull();
  });
});
