-- A doctor's replica pulls perfis_usuarios by (_modified, id) (sync/SPEC.md R6), and RLS lets a
-- doctor read a patient's profile only once they have an appointment together. A new patient's
-- profile was written before that booking, so its _modified lies behind the doctor's checkpoint:
-- the doctor never received it, and the appointment showed up without name, e-mail or CPF.
-- Booking now touches the patient's profile, so the next pull (and Realtime, whose UPDATE now
-- passes the doctor's RLS) brings it. Nothing the patient sees changes.
create function app_private.touch_booked_patient() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.perfis_usuarios set _modified = clock_timestamp() where id = new.patient_id;
  return null;
end $$;

revoke all on function app_private.touch_booked_patient() from public;

create trigger agendamentos_touch_patient
  after insert on public.agendamentos
  for each row execute function app_private.touch_booked_patient();
