import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { mapWriteError, shownMessage } from '@/domain/errors/map-server-error.ts';
import { useLocation, useNavigate } from 'react-router-dom';
import { Temporal } from 'temporal-polyfill';
import { css } from 'styled-system/css';
import { maskBirthDate } from '@/domain/identity/birth-date.ts';
import {
  WHATSAPP_MAX_LENGTH,
  looksIncompleteWhatsapp,
  maskWhatsapp,
} from '@/domain/identity/whatsapp.ts';
import { MESSAGES } from '@/domain/schemas/fields.ts';
import { checkoutStateSchema } from '@/domain/schemas/booking.ts';
import { useObservable, useSyncSession } from '@/session/sync-provider.tsx';
import { useDirectWriteOutcomes } from '@/session/direct-write-outcomes.ts';
import { showToast } from '@/lib/toast.ts';
import { Button } from '@/ui/button.tsx';
import { TextField } from '@/ui/field.tsx';
import { Skeleton } from '@/ui/skeleton.tsx';
import * as v from 'valibot';
import { PrivacySection } from './privacy-section.tsx';
import { ReminderPreference } from './reminder-preference.tsx';
import { cpfForDisplay, parseForm, toForm, type PatientDataForm } from './patient-data-form.ts';

export const DADOS_TEXTS = {
  title: 'Meus Dados',
  fullName: 'Nome completo',
  cpf: 'CPF',
  cpfLocked: 'O CPF não pode ser alterado.',
  birthDate: 'Data de nascimento',
  whatsapp: 'WhatsApp',
  email: 'E-mail',
  save: 'Salvar Alterações',
  savedTitle: 'Dados atualizados!',
  savedDescription: 'Suas informações foram salvas.',
  savedOfflineDescription: 'Suas alterações serão enviadas quando a conexão voltar.',
  errorTitle: 'Erro ao atualizar dados',
  errorDescription: 'Não foi possível salvar suas informações. Tente novamente.',
} as const;

/** 'Completar Cadastro' arrives with {from: 'checkout', appointmentDetails}; saving goes back. */
const FromCheckout = v.object({ from: v.literal('checkout'), ...checkoutStateSchema.entries });

function useReturnToCheckout() {
  const location = useLocation();
  const parsed = v.safeParse(FromCheckout, location.state);
  return parsed.success ? parsed.output.appointmentDetails : null;
}

/** dados: name, birth date and WhatsApp, saved to the replica first (works offline). */
export function PatientDataTab() {
  const { engine } = useSyncSession();
  const navigate = useNavigate();
  const returnTo = useReturnToCheckout();
  const profile$ = useMemo(() => engine?.profile$ ?? null, [engine]);
  const status$ = useMemo(() => engine?.status$ ?? null, [engine]);
  const profile = useObservable(profile$, undefined);
  const status = useObservable(status$, null);
  const [form, setForm] = useState<PatientDataForm | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof PatientDataForm, string>>>({});
  const [saving, setSaving] = useState(false);

  // The row may arrive after the first emission (first sync after sign-in): wait for it
  // rather than start an empty form that would overwrite the stored values.
  const settled = profile != null || (profile === null && status?.initialSync.done === true);
  useEffect(() => {
    if (settled && form === null) setForm(toForm(profile ?? null));
  }, [settled, profile, form]);

  useDirectWriteOutcomes(engine, 'perfis_usuarios', {
    rejectedTitle: DADOS_TEXTS.errorTitle,
    onServerState: () => setForm(null),
  });

  if (!engine || !settled || form === null) {
    return (
      <div
        aria-busy="true"
        aria-label="Carregando seus dados"
        className={css({ display: 'grid', gap: '4' })}
      >
        <Skeleton className={css({ h: '16' })} />
        <Skeleton className={css({ h: '16' })} />
        <Skeleton className={css({ h: '16' })} />
      </div>
    );
  }

  const set = (field: keyof PatientDataForm) => (value: string) => {
    setForm({ ...form, [field]: value });
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!engine || !form) return;
    const parsed = parseForm(form, Temporal.Now.instant());
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setSaving(true);
    const result = await engine.updateProfile(parsed.value);
    setSaving(false);
    if (!result.ok) {
      showToast({
        tone: 'error',
        title: DADOS_TEXTS.errorTitle,
        description: shownMessage(mapWriteError(result.error), DADOS_TEXTS.errorDescription, [
          'storage-full',
        ]),
      });
      return;
    }
    showToast({
      tone: 'success',
      title: DADOS_TEXTS.savedTitle,
      description:
        status?.online === false
          ? DADOS_TEXTS.savedOfflineDescription
          : DADOS_TEXTS.savedDescription,
    });
    if (returnTo) await navigate('/checkout', { state: { appointmentDetails: returnTo } });
  }

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '10', maxW: 'xl' })}>
      <form
        noValidate
        onSubmit={(e) => void submit(e)}
        className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
      >
        <h1 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{DADOS_TEXTS.title}</h1>
        <TextField
          label={DADOS_TEXTS.fullName}
          name="full_name"
          autoComplete="name"
          required
          value={form.full_name}
          error={errors.full_name}
          onChange={(e) => set('full_name')(e.target.value)}
        />
        <TextField
          label={DADOS_TEXTS.cpf}
          name="cpf"
          readOnly
          value={cpfForDisplay(profile?.cpf)}
          placeholder="000.000.000-00"
          helperText={DADOS_TEXTS.cpfLocked}
        />
        <TextField
          label={DADOS_TEXTS.birthDate}
          name="data_nasc"
          inputMode="numeric"
          autoComplete="bday"
          placeholder="DD/MM/AAAA"
          value={form.data_nasc}
          error={errors.data_nasc}
          onChange={(e) => set('data_nasc')(maskBirthDate(e.target.value))}
        />
        <TextField
          label={DADOS_TEXTS.whatsapp}
          name="whatsapp"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder="(00) 00000-0000"
          maxLength={WHATSAPP_MAX_LENGTH}
          value={form.whatsapp}
          error={errors.whatsapp}
          helperText={
            looksIncompleteWhatsapp(form.whatsapp) ? MESSAGES.whatsappLooksIncomplete : undefined
          }
          onChange={(e) => set('whatsapp')(maskWhatsapp(e.target.value))}
        />
        {profile?.email && (
          <TextField label={DADOS_TEXTS.email} name="email" readOnly value={profile.email} />
        )}
        <div>
          <Button type="submit" loading={saving}>
            {DADOS_TEXTS.save}
          </Button>
        </div>
      </form>
      <ReminderPreference profile={profile} />
      <PrivacySection />
    </div>
  );
}
