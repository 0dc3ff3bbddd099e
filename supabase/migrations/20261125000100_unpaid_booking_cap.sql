-- Slot hoarding: one patient could hold every slot of a doctor with unpaid bookings. A patient
-- may hold at most 2 open unpaid bookings with one doctor and 4 in all (the product constants
-- of src/domain/rules/limits.ts, pinned by tests/db/limits.test.ts). "Open unpaid" is a
-- booked status (confirmado, reagendado, pendente), pagamento_status not pago and an end
-- still ahead (an unpaid past one is expirado, see app_private.is_due_for_expiry).
create function app_private.unpaid_booking_limits(out per_doctor integer, out total integer)
language sql immutable set search_path = '' as $$
  select 2, 4
$$;

-- Checked when a patient books for themself (paciente_agendar; service-role writes are not
-- bookings by a patient), right before the row is placed: after the RPC's own checks and
-- before the slot's uniqueness. A transaction-scoped lock per patient makes concurrent
-- bookings of one patient count each other; it is taken after the per-doctor lock of
-- agendamentos_lock_doctor (triggers fire in name order), always in that order.
create function app_private.check_unpaid_booking_cap() returns trigger
language plpgsql set search_path = '' as $$
declare
  v_limits record;
  v_with_doctor integer;
  v_total integer;
begin
  if auth.uid() is distinct from new.patient_id or new.pagamento_status = 'pago' then
    return new;
  end if;
  perform pg_advisory_xact_lock(hashtext('public.agendamentos.patient'), hashtext(new.patient_id::text));
  select * into v_limits from app_private.unpaid_booking_limits();
  select count(*) filter (where a.medico_id = new.medico_id), count(*)
    into v_with_doctor, v_total
    from public.agendamentos a
   where a.patient_id = new.patient_id
     and a.status in ('confirmado', 'reagendado', 'pendente')
     and a.pagamento_status <> 'pago'
     and a.horario_fim > now()
     and not a._deleted;
  if v_with_doctor >= v_limits.per_doctor or v_total >= v_limits.total then
    perform app_private.reject(
      'Você já tem reservas não pagas demais. Conclua ou cancele uma delas antes de agendar outra.',
      'unpaid_limit');
  end if;
  return new;
end $$;

create trigger agendamentos_unpaid_cap
  before insert on public.agendamentos
  for each row execute function app_private.check_unpaid_booking_cap();

revoke all on function app_private.unpaid_booking_limits() from public;
revoke all on function app_private.check_unpaid_booking_cap() from public;
