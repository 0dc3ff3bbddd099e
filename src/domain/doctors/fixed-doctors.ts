import { compareIsoText } from '../time/iso-order.ts';

/** The doctor fields the booking page reads. */
export type PublicDoctor = {
  id: string;
  name: string;
  public_name: string | null;
  specialty: string;
  crm: string;
  uf: string;
  bio: string | null;
  price_in_cents: number;
  image_url: string | null;
  doctoralia_reviews_url: string | null;
  is_public: boolean;
  is_active: boolean;
  created_at: string;
};

export type ListedDoctor = PublicDoctor & { is_fallback: boolean };

export const FALLBACK_ID_PREFIX = 'fallback-';
export const FALLBACK_SPECIALTY = 'Indisponível no momento';
export const FALLBACK_BIO = 'O perfil deste profissional não está ativo no momento.';

/** A stable id per name, so a placeholder keeps its React key and URL across renders. */
function fallbackId(publicName: string): string {
  const slug = publicName
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${FALLBACK_ID_PREFIX}${slug}`;
}

/** docs/product-rules.md §3: the card shown in place of a fixed doctor that is not public and active. */
export function fallbackDoctor(publicName: string): ListedDoctor {
  return {
    id: fallbackId(publicName),
    name: publicName,
    public_name: publicName,
    specialty: FALLBACK_SPECIALTY,
    crm: '000000',
    uf: 'BR',
    bio: FALLBACK_BIO,
    price_in_cents: 0,
    image_url: null,
    doctoralia_reviews_url: null,
    is_public: false,
    is_active: false,
    created_at: '',
    is_fallback: true,
  };
}

/**
 * The booking page's cards: for each fixed public name, its public and active doctor (the
 * earliest created when duplicates exist), else a placeholder; in the configured order.
 */
export function listFixedDoctors(
  doctors: readonly PublicDoctor[],
  fixedPublicNames: readonly string[],
): ListedDoctor[] {
  const visible = doctors
    .filter((doctor) => doctor.is_public && doctor.is_active)
    .sort((a, b) => compareIsoText(a.created_at, b.created_at));
  return fixedPublicNames.map((publicName) => {
    const doctor = visible.find((d) => d.public_name === publicName);
    return doctor ? { ...doctor, is_fallback: false } : fallbackDoctor(publicName);
  });
}

/** What a card or page title calls the doctor: the public name, else the registered name. */
export function doctorDisplayName(doctor: Pick<PublicDoctor, 'name' | 'public_name'>): string {
  return doctor.public_name?.trim() || doctor.name;
}
