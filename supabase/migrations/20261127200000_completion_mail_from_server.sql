-- The patient's "consultation completed" e-mail is the server's (CONTRACT.md "Reminders"): the
-- scheduler's run of send-appointment-reminders claims it like a reminder, once per attended
-- appointment (the claim row is its record), and gives it back when it could not be sent. No
-- device calls anything after a check-in: a check-in queued offline, replayed, or made from two
-- tabs still mails the patient exactly once.
alter table public.lembretes_enviados drop constraint lembretes_enviados_tipo_check;
alter table public.lembretes_enviados add constraint lembretes_enviados_tipo_check
  check (tipo in ('24h', '1h', 'concluida'));

-- Attended before this migration: the app already announced them.
insert into public.lembretes_enviados (agendamento_id, tipo, enviado_em)
select id, 'concluida', now() from public.agendamentos where status = 'atendido'
on conflict do nothing;

-- As in 20261125150000, plus 'concluida': due once the appointment is atendido, for a patient
-- with e-mail (it is not a reminder, so `lembretes_email` does not silence it).
create or replace function public.reivindicar_lembretes(p_agora timestamptz default null)
returns table (
  agendamento_id uuid, tipo text, email text, full_name text, medico text,
  appointment_date date, appointment_time time, meeting_link text, guia_id uuid
)
language sql security definer set search_path = '' as $$
  with due as (
    select id, tipo from (
      select a.id, k.tipo, a.horario_inicio
      from public.agendamentos a
      join public.perfis_usuarios p on p.id = a.patient_id
      cross join (values ('24h', interval '24 hours', interval '1 hour'),
                         ('1h', interval '1 hour', interval '0 seconds')) as k (tipo, antes, ate)
      where a.status in ('confirmado', 'reagendado') and a.guia_id is not null and not a._deleted
        and p.lembretes_email and p.email is not null
        and coalesce(p_agora, now()) >= a.horario_inicio - k.antes
        and coalesce(p_agora, now()) < a.horario_inicio - k.ate
        and not exists (
          select 1 from public.lembretes_enviados l where l.agendamento_id = a.id and l.tipo = k.tipo)
      union all
      select a.id, 'concluida', a.horario_inicio
      from public.agendamentos a
      join public.perfis_usuarios p on p.id = a.patient_id
      where a.status = 'atendido' and not a._deleted and p.email is not null
        and not exists (
          select 1 from public.lembretes_enviados l
          where l.agendamento_id = a.id and l.tipo = 'concluida')
    ) candidates
    order by horario_inicio
    limit 200
  ), claimed as (
    insert into public.lembretes_enviados (agendamento_id, tipo, enviado_em)
    select id, tipo, coalesce(p_agora, now()) from due
    on conflict do nothing
    returning agendamento_id, tipo
  )
  select a.id, c.tipo, p.email, p.full_name, m.public_name, a.appointment_date,
         a.appointment_time, a.meeting_link, a.guia_id
  from claimed c
  join public.agendamentos a on a.id = c.agendamento_id
  join public.perfis_usuarios p on p.id = a.patient_id
  join public.medicos m on m.id = a.medico_id
$$;
