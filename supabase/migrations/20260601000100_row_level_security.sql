-- Who may see and change what (docs/product-rules.md §6). Roles are read from perfis_usuarios, never from
-- user_metadata, which every user can rewrite.

-- The caller's role from their profile; null for visitors and users without a profile.
create function app_private.current_user_role() returns text
language sql stable security definer set search_path = '' as $$
  select p.role from public.perfis_usuarios p where p.id = auth.uid()
$$;

-- The doctor record linked to the caller, only when their profile says medico.
create function app_private.current_medico_id() returns uuid
language sql stable security definer set search_path = '' as $$
  select m.id
  from public.medicos m
  join public.perfis_usuarios p on p.id = m.user_id
  where m.user_id = auth.uid() and p.role = 'medico' and not m._deleted
$$;

-- Patients who have an appointment with the calling doctor: the only profiles a doctor sees.
create function app_private.is_patient_of_current_doctor(p_patient_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.agendamentos a
    where a.patient_id = p_patient_id and a.medico_id = app_private.current_medico_id()
  )
$$;

-- A patient keeps seeing the doctor of their own appointments even once it is no longer public.
create function app_private.is_doctor_of_current_patient(p_medico_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.agendamentos a
    where a.medico_id = p_medico_id and a.patient_id = auth.uid()
  )
$$;

create function app_private.is_listed_doctor(p_medico_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.medicos m where m.id = p_medico_id and m.is_public and m.is_active
  )
$$;

revoke all on all functions in schema app_private from public;
grant execute on function app_private.current_user_role() to anon, authenticated, service_role;
grant execute on function app_private.current_medico_id() to anon, authenticated, service_role;
grant execute on function app_private.is_patient_of_current_doctor(uuid)
  to anon, authenticated, service_role;
grant execute on function app_private.is_doctor_of_current_patient(uuid)
  to anon, authenticated, service_role;
grant execute on function app_private.is_listed_doctor(uuid) to anon, authenticated, service_role;
-- Check constraints and triggers call these as the writing role.
grant execute on function app_private.is_valid_cpf(text) to anon, authenticated, service_role;
grant execute on function app_private.today_sao_paulo() to anon, authenticated, service_role;
grant execute on function app_private.minute_of_day(time) to anon, authenticated, service_role;
grant execute on function app_private.is_api_user() to anon, authenticated, service_role;
revoke all on table app_private.mutations from public, anon, authenticated;

-- Table privileges: start from nothing, grant exactly what the policies below refine.
revoke all on table public.servicos, public.medicos, public.perfis_usuarios,
  public.agenda_medico, public.agendamentos, public.guias, public.agenda_ocupada,
  public.doctor_applications
  from anon, authenticated;

grant select on table public.servicos, public.medicos, public.agenda_medico,
  public.agenda_ocupada, public.agendamentos, public.guias, public.perfis_usuarios
  to anon, authenticated;
grant update on table public.medicos, public.perfis_usuarios to authenticated;
grant insert, update, delete on table public.agenda_medico to authenticated;

alter table public.servicos enable row level security;
alter table public.medicos enable row level security;
alter table public.perfis_usuarios enable row level security;
alter table public.agenda_medico enable row level security;
alter table public.agendamentos enable row level security;
alter table public.guias enable row level security;
alter table public.agenda_ocupada enable row level security;
alter table public.doctor_applications enable row level security;

-- servicos: public catalogue.
create policy servicos_read on public.servicos for select to anon, authenticated using (true);

-- medicos: visitors see public, active doctors; a doctor sees and edits their own row.
create policy medicos_read on public.medicos for select to anon, authenticated using (
  (is_public and is_active)
  or user_id = (select auth.uid())
  or app_private.is_doctor_of_current_patient(id)
);
create policy medicos_update_own on public.medicos for update to authenticated
  using (id = (select app_private.current_medico_id()))
  with check (id = (select app_private.current_medico_id()));

-- perfis_usuarios: own profile; a doctor also reads the profiles of their patients.
create policy perfis_read on public.perfis_usuarios for select to authenticated using (
  id = (select auth.uid()) or app_private.is_patient_of_current_doctor(id)
);
create policy perfis_update_own on public.perfis_usuarios for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

-- agenda_medico: availability of listed doctors is public; a doctor edits their own.
create policy agenda_read on public.agenda_medico for select to anon, authenticated using (
  app_private.is_listed_doctor(medico_id) or medico_id = (select app_private.current_medico_id())
);
create policy agenda_insert_own on public.agenda_medico for insert to authenticated
  with check (medico_id = (select app_private.current_medico_id()));
create policy agenda_update_own on public.agenda_medico for update to authenticated
  using (medico_id = (select app_private.current_medico_id()))
  with check (medico_id = (select app_private.current_medico_id()));
create policy agenda_delete_own on public.agenda_medico for delete to authenticated
  using (medico_id = (select app_private.current_medico_id()));

-- agendamentos and guias: read-only for their patient and their doctor; writes go through RPCs.
create policy agendamentos_read on public.agendamentos for select to authenticated using (
  patient_id = (select auth.uid()) or medico_id = (select app_private.current_medico_id())
);
create policy guias_read on public.guias for select to authenticated using (
  patient_id = (select auth.uid()) or medico_id = (select app_private.current_medico_id())
);

-- agenda_ocupada: which slots are taken is public; who took them is not in it.
create policy agenda_ocupada_read on public.agenda_ocupada for select to anon, authenticated
  using (true);

-- doctor_applications: service role only (no policy for API roles).

-- Live updates (realtime applies the same policies per subscriber).
alter publication supabase_realtime add table public.servicos, public.medicos,
  public.perfis_usuarios, public.agenda_medico, public.agendamentos, public.guias,
  public.agenda_ocupada;
