-- Every booking wrote its public projection (agenda_ocupada) with INSERT ... ON CONFLICT DO
-- UPDATE (app_private.project_agenda_ocupada, 20260601000000), which PostgreSQL runs as a
-- speculative insertion: it probes the arbiter index first, inserts with a speculative token,
-- confirms the tuple in a WAL record of its own and builds the ON CONFLICT projection and
-- condition for every statement — the largest statement of a booking after its own insert
-- (issue 34).
--
-- A new appointment has no projection yet: agenda_ocupada.id references agendamentos (id) on
-- delete cascade, so a projection row exists only for an appointment that exists, and a new
-- row's id is not one of them (its primary key just said so). An INSERT is therefore projected
-- with a plain insert of the same values; an UPDATE keeps the upsert, which also skips a write
-- that changes none of the projected columns.
create function app_private.project_new_agenda_ocupada() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.agenda_ocupada (id, medico_id, horario_inicio, horario_fim, status, _deleted)
  values (
    new.id, new.medico_id, new.horario_inicio, new.horario_fim, new.status,
    new.status not in ('confirmado', 'atendido', 'reagendado', 'pendente') or new._deleted
  );
  return null;
end $$;

revoke all on function app_private.project_new_agenda_ocupada() from public;

-- Row triggers fire in name order: agendamentos_project_ocupada_new sorts where
-- agendamentos_project_ocupada did, before agendamentos_touch_patient and realtime_capture.
drop trigger agendamentos_project_ocupada on public.agendamentos;
create trigger agendamentos_project_ocupada
  after update of medico_id, horario_inicio, horario_fim, status, _deleted
  on public.agendamentos
  for each row execute function app_private.project_agenda_ocupada();
create trigger agendamentos_project_ocupada_new
  after insert on public.agendamentos
  for each row execute function app_private.project_new_agenda_ocupada();
