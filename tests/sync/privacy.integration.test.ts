import { describe, expect, it } from 'vitest';
import {
  createDoctor,
  device,
  platformForFile,
  rows,
  settled,
  slot,
} from '../../sync/testing/index.ts';

const t = platformForFile();

describe('privacy', () => {
  it("[R1][P1] a patient's replica holds only that patient's rows; own profile edits made offline reach the server", async () => {
    const doctor = await createDoctor(t);
    const a = await device(t, { role: 'paciente' });
    const b = await device(t, { role: 'paciente' });
    for (const [who, n] of [
      [a, 1],
      [b, 3],
    ] as const) {
      const booked = await who.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(n) });
      if (!booked.ok) throw new Error('booking was not queued');
      await who.sync.generateGuide(booked.value.appointmentId);
    }
    a.offline();
    expect((await a.sync.updateProfile({ whatsapp: '(11) 98888-7777' })).ok).toBe(true);
    a.online();
    await settled(a, b);
    const [profile] = await rows<{ whatsapp: string }>(
      t.admin.from('perfis_usuarios').select('whatsapp').eq('id', a.person.id),
    );
    expect(profile?.whatsapp).toBe('(11) 98888-7777');

    // Everything stored on the device, deleted documents included.
    const stored = Object.fromEntries(await a.replica());
    expect(stored.agendamentos!.map((r) => r.patient_id)).toEqual([a.person.id]);
    expect(stored.guias!.map((g) => g.agendamento_id)).toEqual(
      stored.agendamentos!.map((r) => r.id),
    );
    expect(stored.perfis_usuarios!.map((p) => p.id)).toEqual([a.person.id]);
    // Both bookings are public as taken slots, with no patient data.
    expect(stored.agenda_ocupada!.filter((s) => s.medico_id === doctor.medicoId)).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toContain(b.person.id);
  });

  it("[R1] signing out deletes the user's replica, queued mutations included", async () => {
    const doctor = await createDoctor(t);
    const phone = await device(t, { role: 'paciente' });
    const id = phone.person.id;
    phone.offline();
    await phone.sync.book({ medicoId: doctor.medicoId, horarioInicio: slot(5) });
    const names = async () => (await phone.indexedDB.databases()).map((d) => d.name ?? '');
    expect((await names()).some((n) => n.includes(id))).toBe(true);

    await phone.sync.signOut();
    phone.engine = null;
    expect((await names()).filter((n) => n.includes(id))).toEqual([]);
  });
});
