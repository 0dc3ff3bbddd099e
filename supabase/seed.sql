-- Demo data applied once on a fresh database: the service and the two fixed doctors of
-- docs/architecture.md §3 with their weekly availability. No auth users here — accounts (and their
-- one-time passwords) are created by scripts/seed-accounts.ts through the admin API, so no
-- password ever lives in the repository.

insert into public.servicos (id, nome)
values ('b0000000-0000-4000-8000-000000000001', 'Teleconsulta')
on conflict do nothing;

insert into public.medicos (
  id, name, public_name, specialty, crm, uf, bio, price_in_cents, is_public, is_active
) values
  (
    'a0000000-0000-4000-8000-000000000001',
    'Ana Ribeiro',
    'Dra. Ana Ribeiro',
    'Clínica Geral',
    '123456',
    'SP',
    'Médica de família e clínica geral há 12 anos. Atende adultos e idosos com foco em '
      || 'prevenção, doenças crônicas (hipertensão, diabetes) e orientação de exames.',
    15000,
    true,
    true
  ),
  (
    'a0000000-0000-4000-8000-000000000002',
    'Paulo Mendes',
    'Dr. Paulo Mendes',
    'Cardiologia',
    '654321',
    'RJ',
    'Cardiologista com título pela SBC. Avaliação de risco cardiovascular, arritmias, '
      || 'insuficiência cardíaca e acompanhamento após eventos cardíacos.',
    22000,
    true,
    true
  )
on conflict do nothing;

-- Ana: weekdays morning and afternoon, Saturday morning, 30-minute slots.
-- Paulo: Monday/Wednesday/Friday mornings, Tuesday/Thursday late afternoons, hourly slots.
insert into public.agenda_medico (medico_id, dia_semana, hora_inicio, hora_fim, intervalo_em_minutos)
select 'a0000000-0000-4000-8000-000000000001'::uuid, d, b.inicio::time, b.fim::time, 30
from generate_series(1, 5) d,
     (values ('08:00', '12:00'), ('14:00', '18:00')) as b (inicio, fim)
union all
select 'a0000000-0000-4000-8000-000000000001'::uuid, 6, '08:00', '12:00', 30
union all
select 'a0000000-0000-4000-8000-000000000002'::uuid, d, '09:00', '13:00', 60
from unnest(array[1, 3, 5]) d
union all
select 'a0000000-0000-4000-8000-000000000002'::uuid, d, '15:00', '19:00', 60
from unnest(array[2, 4]) d;
