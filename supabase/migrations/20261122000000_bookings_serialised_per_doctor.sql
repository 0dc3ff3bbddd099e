-- Concurrent bookings of one doctor whose times overlap (10:00 and 10:15 on a 15-minute grid)
-- could deadlock: each insert puts its row in place, then the exclusion constraint
-- agendamentos_sem_sobreposicao waits for the other's uncommitted row, and one patient got
-- 40P01 instead of "Este horário já foi reservado." Inserts of one doctor's appointments now
-- queue on a transaction-scoped advisory lock taken before the row is placed, so the later one
-- sees the earlier one committed and gets the clean slot-taken answer. Other doctors' bookings
-- never wait on each other.
create function app_private.lock_doctor_bookings() returns trigger
language plpgsql set search_path = '' as $$
begin
  perform pg_advisory_xact_lock(hashtext('public.agendamentos'), hashtext(new.medico_id::text));
  return new;
end $$;

create trigger agendamentos_lock_doctor
  before insert on public.agendamentos
  for each row execute function app_private.lock_doctor_bookings();
