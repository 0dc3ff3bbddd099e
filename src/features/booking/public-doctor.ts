import type { MedicoDoc } from '../../../sync/index.ts';
import type { PublicDoctor } from '@/domain/doctors/fixed-doctors.ts';

/** A replica row in the shape the domain's doctor rules read (nullable columns defaulted). */
export function toPublicDoctor(doc: MedicoDoc): PublicDoctor {
  return {
    id: doc.id,
    name: doc.name ?? doc.public_name ?? '',
    public_name: doc.public_name,
    specialty: doc.specialty ?? '',
    crm: doc.crm ?? '',
    uf: doc.uf ?? '',
    bio: doc.bio,
    price_in_cents: doc.price_in_cents ?? 0,
    image_url: doc.image_url,
    doctoralia_reviews_url: doc.doctoralia_reviews_url,
    is_public: doc.is_public === true,
    is_active: doc.is_active === true,
    created_at: doc.created_at ?? '',
  };
}
