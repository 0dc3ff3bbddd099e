import { useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { map } from 'rxjs';
import { css } from 'styled-system/css';
import type { MedicoDoc, SyncEngine } from '../../../sync/index.ts';
import {
  formTouched,
  profileChanges,
  toProfileForm,
  type DoctorProfileForm,
} from '@/domain/doctors/profile-form.ts';
import { ERROR_MESSAGES } from '@/domain/errors/messages.ts';
import { showToast } from '@/lib/toast.ts';
import { useAuth } from '@/session/auth-context.ts';
import { useObservable, useSyncEngine } from '@/session/sync-provider.tsx';
import { useDirectWriteOutcomes } from '@/session/direct-write-outcomes.ts';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { TextAreaField, TextField } from '@/ui/field.tsx';
import { PageSpinner } from '@/ui/spinner.tsx';
import { AvatarUpload } from './avatar-upload.tsx';
import { PixSettings } from './pix-settings.tsx';
import { RoomChoiceSettings } from './room-choice.tsx';

export const PROFILE_TEXTS = {
  title: 'Perfil',
  subtitle: 'Estes dados aparecem no seu cartão público em /agendamentos.',
  publicName: 'Nome público',
  specialty: 'Especialidade',
  crm: 'CRM',
  uf: 'UF',
  price: 'Preço da consulta (R$)',
  priceHint: 'Use vírgula ou ponto para os centavos (ex.: 130 ou 130,00).',
  bio: 'Sobre você',
  reviews: 'Link das avaliações (Doctoralia)',
  save: 'Salvar Alterações',
  unchanged: 'Nenhuma alteração detectada.',
  savedTitle: 'Perfil atualizado!',
  savedDescription: 'Seu perfil público foi atualizado.',
  savedOfflineDescription: 'Suas alterações serão enviadas quando a conexão voltar.',
  errorTitle: 'Erro ao atualizar perfil',
  errorDescription: 'Não foi possível salvar seu perfil. Tente novamente.',
  security: 'Segurança',
  securityText: 'Troque a senha de acesso ao painel.',
  changePassword: 'Alterar senha',
} as const;

type Errors = Partial<Record<keyof DoctorProfileForm, string>>;

/**
 * The public profile (docs/product-rules.md §5). The form starts from the stored record and follows it while the
 * person has typed nothing; saving writes only the changed columns to the replica, which syncs
 * them (offline too).
 */
function ProfileForm({ engine, doctor }: { engine: SyncEngine; doctor: MedicoDoc }) {
  const stored = useMemo(() => toProfileForm(doctor), [doctor]);
  const [form, setForm] = useState<DoctorProfileForm | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const online$ = useMemo(() => engine.status$.pipe(map((s) => s.online)), [engine]);
  const online = useObservable(online$, true);
  useDirectWriteOutcomes(engine, 'medicos', {
    rejectedTitle: PROFILE_TEXTS.errorTitle,
    onServerState: () => setForm(null),
  });

  const current = form ?? stored;
  const touched = formTouched(current, stored);

  const field = (name: keyof DoctorProfileForm) => ({
    name,
    value: current[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) => {
      setForm({ ...current, [name]: e.target.value });
      setErrors((all) => ({ ...all, [name]: undefined }));
    },
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = profileChanges(current, doctor);
    if (!result.ok) {
      if ('unchanged' in result) showToast({ tone: 'info', title: result.message });
      else setErrors(result.errors);
      return;
    }
    setSaving(true);
    const saved = await engine.updateDoctorProfile(result.changes);
    setSaving(false);
    if (!saved.ok) {
      showToast({
        tone: 'error',
        title: PROFILE_TEXTS.errorTitle,
        description: PROFILE_TEXTS.errorDescription,
      });
      return;
    }
    setForm(null);
    showToast({
      tone: 'success',
      title: PROFILE_TEXTS.savedTitle,
      description: online ? PROFILE_TEXTS.savedDescription : PROFILE_TEXTS.savedOfflineDescription,
    });
  }

  return (
    <form
      noValidate
      aria-label={PROFILE_TEXTS.title}
      onSubmit={(e) => void submit(e)}
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
    >
      <TextField label={PROFILE_TEXTS.publicName} required {...field('public_name')} />
      <TextField label={PROFILE_TEXTS.specialty} required {...field('specialty')} />
      <div
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: { base: '1fr', sm: '2fr 1fr' },
        })}
      >
        <TextField label={PROFILE_TEXTS.crm} required {...field('crm')} />
        <TextField
          label={PROFILE_TEXTS.uf}
          required
          maxLength={2}
          autoCapitalize="characters"
          {...field('uf')}
        />
      </div>
      <TextField
        label={PROFILE_TEXTS.price}
        required
        inputMode="decimal"
        helperText={PROFILE_TEXTS.priceHint}
        {...field('price')}
      />
      <TextAreaField label={PROFILE_TEXTS.bio} rows={4} {...field('bio')} />
      <TextField
        label={PROFILE_TEXTS.reviews}
        type="url"
        inputMode="url"
        placeholder="https://www.doctoralia.com.br/…"
        {...field('doctoralia_reviews_url')}
      />
      <div>
        <Button type="submit" loading={saving} disabled={!touched}>
          {PROFILE_TEXTS.save}
        </Button>
      </div>
    </form>
  );
}

/** The 'Perfil' section: photo, public profile and the way to change the password. */
export function ProfileTab({ doctor }: { doctor: MedicoDoc }) {
  const engine = useSyncEngine();
  const { user } = useAuth();
  if (!engine) return <PageSpinner />;
  const userId = doctor.user_id ?? user?.id ?? null;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6', minW: '0' })}>
      <header>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{PROFILE_TEXTS.title}</h1>
        <p className={css({ mt: '1', color: 'fg.muted' })}>{PROFILE_TEXTS.subtitle}</p>
      </header>
      <div
        className={css({
          display: 'grid',
          gap: '6',
          alignItems: 'start',
          gridTemplateColumns: { base: '1fr', lg: '2fr 1fr' },
        })}
      >
        <Card>
          <ProfileForm engine={engine} doctor={doctor} />
        </Card>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
          <Card>
            {userId ? (
              <AvatarUpload engine={engine} doctor={doctor} userId={userId} />
            ) : (
              <Alert tone="amber">{ERROR_MESSAGES.notAuthenticated}</Alert>
            )}
          </Card>
          <Card>
            <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
              {PROFILE_TEXTS.security}
            </h2>
            <p className={css({ mt: '1', fontSize: 'sm', color: 'fg.muted' })}>
              {PROFILE_TEXTS.securityText}
            </p>
            <Link
              to="/conta/alterar-senha"
              className={css({
                display: 'inline-block',
                mt: '3',
                color: 'primary',
                fontWeight: 'semibold',
                textDecoration: 'underline',
              })}
            >
              {PROFILE_TEXTS.changePassword}
            </Link>
          </Card>
        </div>
        {/* After the side column, so that column stays beside the profile form. */}
        <Card className={css({ gridColumn: { lg: '1' } })}>
          <RoomChoiceSettings engine={engine} doctor={doctor} />
        </Card>
        <Card className={css({ gridColumn: { lg: '1' } })}>
          <PixSettings engine={engine} doctor={doctor} />
        </Card>
      </div>
    </div>
  );
}
