/**
 * Direct writes of rows a person owns (P1): stored in the replica at once and pushed by the
 * collection's replication, never queued.
 */
import * as v from 'valibot';
import {
  availabilityBlockSchema,
  doctorProfilePatchSchema,
  profilePatchSchema,
  type AvailabilityBlockInput,
  type DoctorProfilePatch,
  type ProfilePatch,
} from '../src/domain/schemas/sync-inputs.ts';
import type { EngineCore } from './engine.ts';
import { guarded, type WriteResult } from './write-result.ts';

/** The engine's members that write a person's own rows; part of `SyncEngine`. */
export type LocalWrites = {
  /** Creates or edits one of the signed-in doctor's availability blocks; returns its id. */
  saveAvailabilityBlock(block: AvailabilityBlockInput): Promise<WriteResult<{ id: string }>>;
  /** Removes one of the signed-in doctor's availability blocks. */
  removeAvailabilityBlock(id: string): Promise<WriteResult>;
  /** Edits the signed-in doctor's public profile. */
  updateDoctorProfile(patch: DoctorProfilePatch): Promise<WriteResult>;
  /** Edits the signed-in user's own profile fields (name, birth date, WhatsApp). */
  updateProfile(patch: ProfilePatch): Promise<WriteResult>;
};

export function localWrites({ db, user, newId }: EngineCore): LocalWrites {
  async function ownDoc(table: 'medicos' | 'perfis_usuarios') {
    const collection = db.collections[table];
    if (!collection || !user) return null;
    const selector = table === 'medicos' ? { user_id: user.id } : { id: user.id };
    return collection.findOne({ selector }).exec();
  }

  async function ownDoctorId(): Promise<string | null> {
    if (user?.role !== 'medico') return null;
    const doc = await ownDoc('medicos');
    return doc ? doc.id : null;
  }

  return {
    saveAvailabilityBlock(block) {
      return guarded(async () => {
        const parsed = v.safeParse(availabilityBlockSchema, block);
        if (!parsed.success) return { ok: false, error: 'invalid-input' };
        const medicoId = await ownDoctorId();
        const collection = db.collections.agenda_medico;
        if (!medicoId || !collection) return { ok: false, error: 'not-allowed' };
        const { id = newId(), ...times } = parsed.output;
        const existing = await collection.findOne(id).exec();
        if (existing && existing.get('medico_id') !== medicoId)
          return { ok: false, error: 'not-allowed' };
        const fields = { ...times, status: 'disponivel' };
        if (existing) await existing.incrementalPatch(fields);
        else {
          await collection.insert({
            id,
            medico_id: medicoId,
            ...fields,
            created_at: null,
            updated_at: null,
            server_modified: null,
            _deleted: false,
          });
        }
        return { ok: true, value: { id } };
      });
    },
    removeAvailabilityBlock(id) {
      return guarded(async () => {
        const medicoId = await ownDoctorId();
        const doc = await db.collections.agenda_medico?.findOne(id).exec();
        if (!doc) return { ok: false, error: 'not-found' };
        if (!medicoId || doc.get('medico_id') !== medicoId)
          return { ok: false, error: 'not-allowed' };
        await doc.remove();
        return { ok: true, value: undefined };
      });
    },
    updateDoctorProfile(patch) {
      return guarded(async () => {
        const parsed = v.safeParse(doctorProfilePatchSchema, patch);
        if (!parsed.success) return { ok: false, error: 'invalid-input' };
        const doc = user?.role === 'medico' ? await ownDoc('medicos') : null;
        if (!doc)
          return { ok: false, error: user?.role === 'medico' ? 'not-found' : 'not-allowed' };
        await doc.incrementalPatch(parsed.output);
        return { ok: true, value: undefined };
      });
    },
    updateProfile(patch) {
      return guarded(async () => {
        const parsed = v.safeParse(profilePatchSchema, patch);
        if (!parsed.success) return { ok: false, error: 'invalid-input' };
        const doc = await ownDoc('perfis_usuarios');
        if (!doc) return { ok: false, error: user ? 'not-found' : 'not-allowed' };
        await doc.incrementalPatch(parsed.output);
        return { ok: true, value: undefined };
      });
    },
  };
}
