-- 20261129000000 gave a new appointment's projection a function of its own
-- (project_new_agenda_ocupada), a near-copy of project_agenda_ocupada with the statuses that
-- hold a slot written out a second time. One function again, for both triggers: a new
-- appointment still gets a plain insert (it can have no projection row yet, see that
-- migration), an update the upsert that skips a write changing none of the projected columns.
create or replace function app_private.project_agenda_ocupada() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  -- A slot that is no longer booked is a tombstone, so replicas drop it; the statuses are
  -- src/domain/rules/booking.ts's BOOKED_STATUSES (tests/db/rules-pinned.test.ts).
  v_gone boolean := new.status not in ('confirmado', 'atendido', 'reagendado', 'pendente')
                    or new._deleted;
begin
  if tg_op = 'INSERT' then
    insert into public.agenda_ocupada (id, medico_id, horario_inicio, horario_fim, status, _deleted)
    values (new.id, new.medico_id, new.horario_inicio, new.horario_fim, new.status, v_gone);
    return null;
  end if;
  insert into public.agenda_ocupada as o (id, medico_id, horario_inicio, horario_fim, status, _deleted)
  values (new.id, new.medico_id, new.horario_inicio, new.horario_fim, new.status, v_gone)
  on conflict (id) do update set
    medico_id = excluded.medico_id,
    horario_inicio = excluded.horario_inicio,
    horario_fim = excluded.horario_fim,
    status = excluded.status,
    _deleted = excluded._deleted
  where (o.medico_id, o.horario_inicio, o.horario_fim, o.status, o._deleted)
    is distinct from (excluded.medico_id, excluded.horario_inicio, excluded.horario_fim,
                      excluded.status, excluded._deleted);
  return null;
end $$;

-- The trigger keeps its name, and so its place in the firing order.
drop trigger agendamentos_project_ocupada_new on public.agendamentos;
create trigger agendamentos_project_ocupada_new
  after insert on public.agendamentos
  for each row execute function app_private.project_agenda_ocupada();
drop function app_private.project_new_agenda_ocupada();
