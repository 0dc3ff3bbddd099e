-- A booking wrote the patient's profile every time (20261125000200), and that write validated
-- the profile's CPF again. Both were the larger part of what a booking costs the database
-- after its own insert; neither is needed every time.
--
-- The touch exists so that a doctor receives the profile of a patient they can newly read
-- (RLS lets a doctor read the profiles of the patients they have an appointment with). A
-- patient who already has another appointment with this doctor was readable before, and their
-- profile reached the doctor then or at its later writes, which all move _modified: only the
-- first appointment of a patient with a doctor needs the touch. Profiles of patients booked
-- before 20261125000200 were never touched, so they are touched once here for every doctor.
create or replace function app_private.touch_booked_patient() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if exists (
    select 1 from public.agendamentos a
    where a.patient_id = new.patient_id and a.medico_id = new.medico_id and a.id <> new.id
  ) then
    return null;
  end if;
  update public.perfis_usuarios set _modified = clock_timestamp() where id = new.patient_id;
  return null;
end $$;

update public.perfis_usuarios p set _modified = clock_timestamp()
where exists (select 1 from public.agendamentos a where a.patient_id = p.id);

-- As before (20261125150000), except that an UPDATE keeping the CPF does not validate it again:
-- it was validated when written, and the CHECK constraint perfis_usuarios_cpf_check holds it on
-- every write anyway. A new or changed CPF is validated here, for the message and hint.
create or replace function app_private.perfis_before_write() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.cpf := nullif(regexp_replace(coalesce(new.cpf, ''), '[^0-9]', '', 'g'), '');
  new.full_name := btrim(coalesce(new.full_name, ''));

  if tg_op = 'UPDATE' then
    if old.cpf is not null and new.cpf is distinct from old.cpf
       and not (new.cpf is null and app_private.account_is_gone(new.id)) then
      raise exception using
        errcode = '42501', message = 'O CPF não pode ser alterado.', hint = 'cpf_immutable';
    end if;
    if app_private.is_api_user() and (
      new.id <> old.id
      or new.role <> old.role
      or new.email is distinct from old.email
      or new.created_at <> old.created_at
      or new._deleted <> old._deleted
    ) then
      raise exception using
        errcode = '42501', message = 'Este campo do perfil não pode ser alterado.',
        hint = 'immutable_field';
    end if;
  end if;

  if new.cpf is not null
     and (tg_op = 'INSERT' or new.cpf is distinct from old.cpf)
     and not app_private.is_valid_cpf(new.cpf) then
    raise exception using errcode = '23514', message = 'CPF inválido.', hint = 'invalid_cpf';
  end if;

  if new.data_nasc is not null
     and (tg_op = 'INSERT' or new.data_nasc is distinct from old.data_nasc)
     and new.data_nasc > app_private.today_sao_paulo() - interval '18 years' then
    raise exception using
      errcode = '23514', message = 'Você deve ter no mínimo 18 anos.', hint = 'underage';
  end if;
  return new;
end $$;
