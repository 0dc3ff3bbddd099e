-- The sign-up form sends the person's name, CPF, birth date and WhatsApp in user_metadata,
-- where the profile trigger (on_auth_user_created) reads them. Left there they travel with
-- every user object the auth API answers — and signing up again with an unconfirmed address
-- answered them to anyone. Once the profile holds them they leave raw_user_meta_data (and
-- the identity's data). This trigger runs after on_auth_user_created: triggers of one event
-- fire in name order. role and require_password_change stay: the app reads them.
create function app_private.forget_signup_personal_data() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.raw_user_meta_data ?| array['full_name', 'cpf', 'data_nasc', 'whatsapp'] then
    update auth.users
       set raw_user_meta_data = raw_user_meta_data - array['full_name', 'cpf', 'data_nasc', 'whatsapp']
     where id = new.id;
    update auth.identities
       set identity_data = identity_data - array['full_name', 'cpf', 'data_nasc', 'whatsapp']
     where user_id = new.id;
  end if;
  return null;
end $$;

revoke all on function app_private.forget_signup_personal_data() from public;

create trigger on_auth_user_created_forget_personal_data after insert on auth.users
  for each row execute function app_private.forget_signup_personal_data();

-- Accounts created before this migration: their profile holds the data already.
update auth.users u
   set raw_user_meta_data = u.raw_user_meta_data - array['full_name', 'cpf', 'data_nasc', 'whatsapp']
 where u.raw_user_meta_data ?| array['full_name', 'cpf', 'data_nasc', 'whatsapp']
   and exists (select 1 from public.perfis_usuarios p where p.id = u.id);
update auth.identities i
   set identity_data = i.identity_data - array['full_name', 'cpf', 'data_nasc', 'whatsapp']
 where i.identity_data ?| array['full_name', 'cpf', 'data_nasc', 'whatsapp']
   and exists (select 1 from public.perfis_usuarios p where p.id = i.user_id);
