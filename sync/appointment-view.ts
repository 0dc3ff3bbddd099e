import { compareIsoText } from '../src/domain/time/iso-order.ts';
import type { OverlaidAppointment } from './outbox/overlay.ts';
import type { GuiaDoc, MedicoDoc, PerfilDoc, ServicoDoc } from './schemas.ts';

/**
 * An appointment joined to the rows the screens show next to it (V2), apart from RxDB and
 * rxjs: the replica's views (views.ts) and a screen's first read before the engine loads
 * (light.ts) join the same way.
 */

/** An appointment as the lists show it, joined on the device, never by the server (V2). */
export type AppointmentView = OverlaidAppointment & {
  medico: Pick<
    MedicoDoc,
    | 'id'
    | 'name'
    | 'public_name'
    | 'specialty'
    | 'crm'
    | 'uf'
    | 'pix_chave'
    | 'pix_cidade'
    | 'sala_consulta'
  > | null;
  paciente: Pick<PerfilDoc, 'id' | 'full_name' | 'email' | 'cpf' | 'data_nasc' | 'whatsapp'> | null;
  servico: Pick<ServicoDoc, 'id' | 'nome'> | null;
  guia: Pick<GuiaDoc, 'id' | 'protocolo' | 'pdf_url'> | null;
};

type Joined = {
  medico: MedicoDoc | undefined;
  paciente: PerfilDoc | undefined;
  servico: ServicoDoc | undefined;
  guia: GuiaDoc | undefined;
};

/** An overlaid appointment with the rows the screens show next to it (V2). */
export function toView(a: OverlaidAppointment, j: Joined): AppointmentView {
  return {
    ...a,
    medico: j.medico
      ? pick(j.medico, [
          'id',
          'name',
          'public_name',
          'specialty',
          'crm',
          'uf',
          'pix_chave',
          'pix_cidade',
          // Where 'Entrar na sala' leads: the built-in room or the doctor's own link.
          'sala_consulta',
        ])
      : null,
    paciente: j.paciente
      ? pick(j.paciente, ['id', 'full_name', 'email', 'cpf', 'data_nasc', 'whatsapp'])
      : null,
    servico: j.servico ? pick(j.servico, ['id', 'nome']) : null,
    guia: j.guia ? pick(j.guia, ['id', 'protocolo', 'pdf_url']) : null,
  };
}

/** The rows the lists join to appointments, by key. */
export type JoinSources = {
  doctors: ReadonlyMap<string, MedicoDoc>;
  people: ReadonlyMap<string, PerfilDoc>;
  services: ReadonlyMap<string, ServicoDoc>;
  guides: ReadonlyMap<string, GuiaDoc>;
  /** Guides by appointment, for an appointment that does not name its guide yet. */
  guideByAppointment: ReadonlyMap<string, GuiaDoc>;
};

/** Overlaid appointments joined (V2), newest first. */
export function joinViews(
  overlaid: readonly OverlaidAppointment[],
  j: JoinSources,
): AppointmentView[] {
  return overlaid
    .map((a) =>
      toView(a, {
        medico: j.doctors.get(a.medico_id),
        paciente: a.patient_id ? j.people.get(a.patient_id) : undefined,
        servico: a.servico_id ? j.services.get(a.servico_id) : undefined,
        guia: (a.guia_id ? j.guides.get(a.guia_id) : undefined) ?? j.guideByAppointment.get(a.id),
      }),
    )
    .sort((x, y) => compareIsoText(y.horario_inicio, x.horario_inicio));
}

function pick<T extends object, K extends keyof T>(obj: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = obj[k];
  return out;
}
