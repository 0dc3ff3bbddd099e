-- Bookings of one doctor were serialised as a whole (20261122000000): each insert held the
-- doctor's advisory lock until its commit, WAL flush included, so no two bookings of one doctor
-- ever committed together. On PostgreSQL, whose flush takes a few milliseconds on a small
-- server, that capped one doctor at a few hundred bookings per second however many patients
-- booked at once (a popular doctor's new week opening).
--
-- The lock exists so that two inserts whose times overlap do not deadlock on the exclusion
-- constraint agendamentos_sem_sobreposicao; inserts that cannot overlap need not wait for each
-- other. So an insert now locks, for its doctor, each half-hour window its range
-- [horario_inicio, horario_fim) touches, in ascending order. Two ranges that overlap share an
-- instant and so a window: the later insert still waits for the earlier one to commit and gets
-- the clean slot-taken answer. Every insert takes its windows in the same ascending order, so
-- the waits form no cycle. The lock is keyed (doctor, window number) rather than hashed into one
-- number, so a hash collision can only merge two doctors' windows, never invert an order.
create or replace function app_private.lock_doctor_bookings() returns trigger
language plpgsql set search_path = '' as $$
declare
  v_window integer;
begin
  for v_window in
    select generate_series(
      floor(extract(epoch from new.horario_inicio) / 1800)::integer,
      floor((extract(epoch from new.horario_fim) - 0.000001) / 1800)::integer)
  loop
    perform pg_advisory_xact_lock(hashtext(new.medico_id::text), v_window);
  end loop;
  return new;
end $$;
