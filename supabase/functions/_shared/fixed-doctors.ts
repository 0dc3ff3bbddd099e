/** The two fixed public doctors (docs/architecture.md §3); ids match supabase/seed.sql. */
export type DoctorSlug = 'ana' | 'paulo';

export type FixedDoctor = {
  slug: DoctorSlug;
  medicoId: string;
  email: string;
  name: string;
  publicName: string;
  specialty: string;
  crm: string;
  uf: string;
  priceInCents: number;
};

export const FIXED_DOCTORS: Readonly<Record<DoctorSlug, FixedDoctor>> = {
  ana: {
    slug: 'ana',
    medicoId: 'a0000000-0000-4000-8000-000000000001',
    email: 'ana.ribeiro@saudeja.example',
    name: 'Ana Ribeiro',
    publicName: 'Dra. Ana Ribeiro',
    specialty: 'Clínica Geral',
    crm: '123456',
    uf: 'SP',
    priceInCents: 15000,
  },
  paulo: {
    slug: 'paulo',
    medicoId: 'a0000000-0000-4000-8000-000000000002',
    email: 'paulo.mendes@saudeja.example',
    name: 'Paulo Mendes',
    publicName: 'Dr. Paulo Mendes',
    specialty: 'Cardiologia',
    crm: '654321',
    uf: 'RJ',
    priceInCents: 22000,
  },
};
