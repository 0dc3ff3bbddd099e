-- Profiles follow auth.users. A self sign-up is always a paciente whatever its user_metadata
-- claims; only app_metadata (writable by the service role alone) can make a medico.

create function app_private.role_from_app_metadata(p_app_meta jsonb) returns text
language sql immutable set search_path = '' as $$
  select case when p_app_meta ->> 'role' = 'medico' then 'medico' else 'paciente' end
$$;

create function app_private.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  v_birth text := nullif(btrim(coalesce(v_meta ->> 'data_nasc', '')), '');
  v_data_nasc date;
begin
  if v_birth is not null then
    if v_birth !~ '^\d{4}-\d{2}-\d{2}$' then
      raise exception using errcode = '22007', message = 'Data de nascimento inválida.',
        hint = 'invalid_birth_date';
    end if;
    begin
      v_data_nasc := v_birth::date;
    exception when others then
      raise exception using errcode = '22007', message = 'Data de nascimento inválida.',
        hint = 'invalid_birth_date';
    end;
  end if;

  begin
    insert into public.perfis_usuarios (id, role, full_name, email, cpf, data_nasc, whatsapp)
    values (
      new.id,
      app_private.role_from_app_metadata(new.raw_app_meta_data),
      left(btrim(coalesce(v_meta ->> 'full_name', '')), 200),
      new.email,
      nullif(btrim(coalesce(v_meta ->> 'cpf', '')), ''),
      v_data_nasc,
      left(nullif(btrim(coalesce(v_meta ->> 'whatsapp', '')), ''), 30)
    );
  exception when unique_violation then
    raise exception using errcode = '23505', message = 'CPF já cadastrado.', hint = 'cpf_taken';
  end;
  return new;
end $$;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function app_private.handle_new_user();

-- E-mail changes and role grants made by the service role reach the profile.
create function app_private.handle_user_updated() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.perfis_usuarios p set
    email = new.email,
    role = app_private.role_from_app_metadata(new.raw_app_meta_data)
  where p.id = new.id
    and (p.email is distinct from new.email
         or p.role <> app_private.role_from_app_metadata(new.raw_app_meta_data));
  return new;
end $$;

create trigger on_auth_user_updated after update of email, raw_app_meta_data on auth.users
  for each row execute function app_private.handle_user_updated();

revoke all on function app_private.handle_new_user() from public;
revoke all on function app_private.handle_user_updated() from public;
revoke all on function app_private.role_from_app_metadata(jsonb) from public;
